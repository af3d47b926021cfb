// SPDX-License-Identifier: EPL-2.0
#include "hull/link_estimator.h"

namespace tracesync::hull {

std::vector<LinkSegment> LinkEstimator::segments(const TimeSpan& span) const {
  LinkSegment segment;
  segment.span = span;
  segment.estimate = estimate();
  segment.hull = hull_points();
  segment.uncertainty_first = segment.uncertainty_last = offset_uncertainty(span);
  return {std::move(segment)};
}

std::optional<ClockMap> LinkEstimator::clock_map(const TimeSpan& span) const {
  const std::optional<model::Quad> bound = offset_uncertainty(span);
  if (!bound) return std::nullopt;
  const LinkEstimate e = estimate();
  if (!(e.alpha > 0)) return std::nullopt;
  const Line line{e.alpha, e.beta};
  ClockMap map{{span.first, line.at(span.first), *bound}};
  if (span.last > span.first) map.push_back({span.last, line.at(span.last), *bound});
  return map;
}

}  // namespace tracesync::hull
