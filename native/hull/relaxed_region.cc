// SPDX-License-Identifier: EPL-2.0
#include "hull/relaxed_region.h"

#include <algorithm>
#include <vector>

#include "hull/batch_hull.h"
#include "hull/feasible_region.h"

namespace tracesync::hull {
namespace {

using model::Quad;

EndBounds bounds_in(const FeasibleRegion& region, const ExactLine& lmin, const ExactLine& lmax, const TimeSpan& span,
                    model::Nanoseconds slack) {
  auto at = [&](model::Nanoseconds x) {
    const Quad estimate = (lmin.at(x) + lmax.at(x)) / 2;
    return std::max({Quad{0}, region.highest_at(x) - estimate, estimate - region.lowest_at(x)}) +
           static_cast<Quad>(slack);
  };
  return {at(span.first), at(span.last)};
}

ConvexChain chain_of(const std::vector<model::Point>& vertices, ChainKind kind) {
  ConvexChain chain(kind);
  for (const model::Point& p : vertices) chain.insert(p);
  return chain;
}

}  // namespace

EndBounds relaxed_end_bounds(const ConvexChain& lower_hull, const ConvexChain& upper_hull, const ExactLine& lmin,
                             const ExactLine& lmax, const TimeSpan& span, model::Nanoseconds slack) {
  if (slack == 0) return bounds_in(FeasibleRegion(lower_hull, upper_hull, lmin, lmax), lmin, lmax, span, 0);
  std::vector<LinkMessage> relaxed;
  relaxed.reserve(lower_hull.size() + upper_hull.size());
  for (const model::Point& p : lower_hull.vertices()) relaxed.push_back({Direction::kAtoB, {p.x, p.y + slack}});
  for (const model::Point& p : upper_hull.vertices()) relaxed.push_back({Direction::kBtoA, {p.x, p.y - slack}});
  const BatchHull batch = compute_batch_hull(relaxed);
  // Relaxing only widens a non-empty, bounded region: both lines exist.
  const FeasibleRegion region(chain_of(batch.lower_hull, ChainKind::kLowerHull),
                              chain_of(batch.upper_hull, ChainKind::kUpperHull), *batch.lmin, *batch.lmax);
  return bounds_in(region, lmin, lmax, span, slack);
}

}  // namespace tracesync::hull
