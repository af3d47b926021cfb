// SPDX-License-Identifier: EPL-2.0
#include "hull/feasible_region.h"

#include <algorithm>

namespace tracesync::hull {
namespace {

void collect_edges_in_slope_range(const ConvexChain& chain, const model::Slope& min_slope,
                                  const model::Slope& max_slope, std::vector<ExactLine>& out) {
  chain.for_each_edge([&](const model::Point& left, const model::Point& right) {
    const model::Slope s = model::Slope::through(left, right);
    if (model::compare(s, min_slope) >= 0 && model::compare(s, max_slope) <= 0) out.push_back({left, right});
  });
}

}  // namespace

FeasibleRegion::FeasibleRegion(const ConvexChain& lower_hull, const ConvexChain& upper_hull,
                               const ExactLine& lmin, const ExactLine& lmax)
    : upper_boundary_{lmin, lmax}, lower_boundary_{lmin, lmax} {
  collect_edges_in_slope_range(lower_hull, lmin.slope(), lmax.slope(), upper_boundary_);
  collect_edges_in_slope_range(upper_hull, lmin.slope(), lmax.slope(), lower_boundary_);
}

model::Quad FeasibleRegion::highest_at(model::Nanoseconds x) const {
  model::Quad best = upper_boundary_.front().at(x);
  for (const ExactLine& line : upper_boundary_) best = std::max(best, line.at(x));
  return best;
}

model::Quad FeasibleRegion::lowest_at(model::Nanoseconds x) const {
  model::Quad best = lower_boundary_.front().at(x);
  for (const ExactLine& line : lower_boundary_) best = std::min(best, line.at(x));
  return best;
}

}  // namespace tracesync::hull
