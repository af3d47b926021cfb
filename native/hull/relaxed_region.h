// SPDX-License-Identifier: EPL-2.0
#pragma once

#include "hull/convex_chain.h"
#include "hull/exact_line.h"
#include "hull/link_estimate.h"
#include "model/quad.h"

namespace tracesync::hull {

// The bound of a link's estimate at both ends of a span when the truth need
// not be a line but may lie up to `slack` ns off one (ClockStability).
//
// Such a truth f is within slack of a line g, and g passes on or below every
// lower point raised by slack and on or above every upper point lowered by
// slack: g lies in the region of the relaxed constraints. So f(x) lies
// within [lowest relaxed(x) - slack, highest relaxed(x) + slack], and the
// bound is the larger distance from the estimate to those ends. Shifting a
// set of points shifts its hull, so the relaxed region is computed from the
// hull vertices alone. With slack 0 it is the exact region's bound.
//
// highest(x) - estimate(x) is convex in x (a maximum of lines), so the bound
// at any instant of the span is at most the linear interpolation of the
// bounds at its ends.
struct EndBounds {
  model::Quad first = 0;
  model::Quad last = 0;
};

// lmin and lmax: the exact region's extreme lines (it must be non-empty and
// bounded); the estimate is their bisector.
EndBounds relaxed_end_bounds(const ConvexChain& lower_hull, const ConvexChain& upper_hull, const ExactLine& lmin,
                             const ExactLine& lmax, const TimeSpan& span, model::Nanoseconds slack);

}  // namespace tracesync::hull
