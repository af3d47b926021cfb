// SPDX-License-Identifier: EPL-2.0
#pragma once

#include "model/int256.h"
#include "model/point.h"

namespace tracesync::model {

// The exact orientation for any int64 coordinates; orientation() below
// calls it when the fast path does not apply.
int orientation_wide(const Point& a, const Point& b, const Point& c);

// Sign of the cross product (b - a) x (c - a), computed exactly for any int64
// coordinates: +1 when c lies to the left of the directed line a -> b (above
// it when a.x < b.x), -1 to the right, 0 when the three points are collinear.
//
// Fast path (every real link): coordinate differences below 2^62 in
// magnitude make each product fit in 124 bits and their difference in 125,
// so one widening 64x64 multiply per product is exact. It is inline because
// the hull calls it several times per message.
inline int orientation(const Point& a, const Point& b, const Point& c) {
  constexpr int64_t kLimit = int64_t{1} << 62;
  int64_t dx1, dy1, dx2, dy2;
  const bool overflow = __builtin_sub_overflow(b.x, a.x, &dx1) | __builtin_sub_overflow(b.y, a.y, &dy1) |
                        __builtin_sub_overflow(c.x, a.x, &dx2) | __builtin_sub_overflow(c.y, a.y, &dy2);
  auto small = [](int64_t v) { return v > -kLimit && v < kLimit; };
  if (overflow || !small(dx1) || !small(dy1) || !small(dx2) || !small(dy2)) return orientation_wide(a, b, c);
  const Int128 cross = static_cast<Int128>(dx1) * dy2 - static_cast<Int128>(dy1) * dx2;
  return (cross > 0) - (cross < 0);
}

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
