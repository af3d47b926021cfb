#pragma once

#include "model/int256.h"
#include "model/point.h"

namespace tracesync::model {

// Sign of the cross product (b - a) x (c - a), computed exactly for any int64
// coordinates: +1 when c lies to the left of the directed line a -> b (above
// it when a.x < b.x), -1 to the right, 0 when the three points are collinear.
int orientation(const Point& a, const Point& b, const Point& c);

// The slope of the segment from `left` to `right` (left.x < right.x) as an
// exact fraction rise / run with run > 0.
struct Slope {
  Int128 rise = 0;
  Int128 run = 1;

  static Slope through(const Point& left, const Point& right) {
    return {Int128{right.y} - left.y, Int128{right.x} - left.x};
  }
  __float128 to_quad() const {
    return static_cast<__float128>(rise) / static_cast<__float128>(run);
  }
};

// Exact three-way comparison of two slopes.
int compare(const Slope& a, const Slope& b);

// Exact difference a - b of two slopes as a fraction, converted once to quad.
__float128 difference(const Slope& a, const Slope& b);

}  // namespace tracesync::model
