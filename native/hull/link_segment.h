// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <vector>

#include "hull/link_estimate.h"
#include "model/point.h"
#include "model/quad.h"

namespace tracesync::hull {

// One segment of a link (DESIGN.md, "Clock model"): the messages of a
// stretch of a's time that one line fits, with the estimate and the hull of
// those messages alone. A linear clock model has exactly one.
struct LinkSegment {
  TimeSpan span;             // a's clock: the segment's first and last message
  LinkEstimate estimate;     // of this segment's messages alone
  HullPoints hull;
  // The bound at span.first and span.last (b's clock ns), the clock-stability
  // term included; within the span the truth lies within their linear
  // interpolation. nullopt when the segment has no bound.
  std::optional<model::Quad> uncertainty_first;
  std::optional<model::Quad> uncertainty_last;
};

// A knot of a link's clock map: at a's time x, b's time is estimated as y,
// with the truth within `bound` of it.
struct Knot {
  model::Nanoseconds x = 0;
  model::Quad y = 0;
  model::Quad bound = 0;

  friend bool operator==(const Knot&, const Knot&) = default;
};

// A continuous, strictly increasing map of a's time onto b's, linear between
// knots, and its bound, also linear between knots. Knots have strictly
// increasing x and y; the first and last lie at the ends of the span asked for.
using ClockMap = std::vector<Knot>;

}  // namespace tracesync::hull
