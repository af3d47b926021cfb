// SPDX-License-Identifier: EPL-2.0
#pragma once

#include "hull/link_estimate.h"
#include "model/int256.h"
#include "model/orientation.h"
#include "model/point.h"

namespace tracesync::hull {

// The line through two message points, left.x < right.x. Every bound of a
// link's feasible region is such a line, so it is kept as its two points
// and every test against it is exact.
struct ExactLine {
  model::Point left;
  model::Point right;

  model::Slope slope() const { return model::Slope::through(left, right); }

  // +1 when p lies above the line, -1 below, 0 on it.
  int side_of(const model::Point& p) const { return model::orientation(left, right, p); }

  // run * (value at x), exact: left.y * run + rise * (x - left.x).
  model::Int256 scaled_value_at(model::Nanoseconds x) const {
    const model::Slope s = slope();
    return model::Int256::product(left.y, s.run) + model::Int256::product(s.rise, model::Int128{x} - left.x);
  }

  // The value at x, rounded once to quad.
  model::Quad at(model::Nanoseconds x) const {
    return scaled_value_at(x).to_quad() / static_cast<model::Quad>(slope().run);
  }

  // Slope and intercept, each rounded once to quad.
  Line to_line() const {
    const model::Slope s = slope();
    return {s.to_quad(), scaled_value_at(0).to_quad() / static_cast<model::Quad>(s.run)};
  }

  friend bool operator==(const ExactLine&, const ExactLine&) = default;
};

// Where p lies against the bisector of two lines, exactly: the sign of
// 2 * p.y - first(p.x) - second(p.x).
inline int side_of_bisector(const ExactLine& first, const ExactLine& second, const model::Point& p) {
  const model::Int128 run1 = first.slope().run;
  const model::Int128 run2 = second.slope().run;
  // Every term is scaled by run1 * run2 > 0; the largest has ~197 bits.
  const model::Int256 twice_y = model::Int256::product(run1, run2).times(model::Int128{p.y} * 2);
  const model::Int256 v1 = first.scaled_value_at(p.x).times(run2);
  const model::Int256 v2 = second.scaled_value_at(p.x).times(run1);
  return (twice_y - v1 - v2).sign();
}

}  // namespace tracesync::hull
