// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <vector>

#include "hull/convex_chain.h"
#include "hull/exact_line.h"

namespace tracesync::hull {

// How far apart the lines a link still allows are at a given time.
//
// The feasible lines form a convex polygon in (alpha, beta) space whose
// leftmost and rightmost vertices are Lmin and Lmax. The highest feasible
// value at x is reached at a vertex of its upper boundary: Lmin, Lmax, or a
// line through an edge of the lower hull whose slope lies in
// [alpha_min, alpha_max]; the lowest likewise with the upper hull's edges.
class FeasibleRegion {
 public:
  FeasibleRegion(const ConvexChain& lower_hull, const ConvexChain& upper_hull, const ExactLine& lmin,
                 const ExactLine& lmax);

  model::Quad highest_at(model::Nanoseconds x) const;
  model::Quad lowest_at(model::Nanoseconds x) const;

 private:
  std::vector<ExactLine> upper_boundary_;
  std::vector<ExactLine> lower_boundary_;
};

}  // namespace tracesync::hull
