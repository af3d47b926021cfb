// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <vector>

#include "hull/clock_stability.h"
#include "hull/link_estimate.h"
#include "hull/link_segment.h"
#include "hull/relaxed_region.h"

namespace tracesync::hull {

// One segment's line over its stretch of a's clock, with its bound at both
// ends (within the stretch the truth lies within their interpolation).
struct ClockPiece {
  TimeSpan span;
  Line line;
  EndBounds bounds;
};

// Joins the pieces (in time order, not overlapping) into one continuous,
// strictly increasing map over exactly `span`, keeping every bound honest:
// - a bridge between two pieces raises both of its knots' bounds by what
//   the truth may drift from the chord over the bridge's length G: the band
//   gives ppm * G / 4, the rate limit (kMaxRateErrorPpm + |chord slope - 1|) * G / 2;
//   the smaller holds when both assumptions do;
// - knots at one abscissa merge into one whose bound covers both;
// - a knot that does not rise above its predecessor is moved up to rise
//   1 ns per ns, and its bound grows by the move (on both sides of a knot,
//   the map changes by at most the move's linear interpolation);
// - the map is cut at the span's ends by interpolation.
// nullopt when there is no piece.
std::optional<ClockMap> join_pieces(const std::vector<ClockPiece>& pieces, const ClockStability& stability,
                                    const TimeSpan& span);

}  // namespace tracesync::hull
