// SPDX-License-Identifier: EPL-2.0
#pragma once

#include "apply/ctf_metadata.h"
#include "model/linear_transform.h"

namespace tracesync::apply {

// A clock mapping that makes readers show a trace on the reference's time
// base without touching a cycle value: the clock-only rewrite.
struct ClockFit {
  ClockMapping mapping;
  // The largest |shown time - transform(original time)| over the cycle
  // span, in ns: what the integer freq and offset cost. It adds to the
  // synchronization's bound.
  double worst_error_ns = 0;
};

// ns from origin of `cycles` under `mapping`, exact in quad precision.
model::Quad time_of_cycles(const ClockMapping& mapping, model::Quad cycles);

// The mapping whose time for every cycle value c in [first_cycles,
// last_cycles] is closest to line(time of c under `original`), in the worst
// case. The ideal frequency original.freq / slope is rarely an integer: both
// neighbours are tried, each with the offset centring its linear error over
// the span, rounded both ways to whole cycles; the best of the four wins.
ClockFit fit_clock(const ClockMapping& original, const model::LinearTransform& line, model::Quad first_cycles,
                   model::Quad last_cycles);

// The cycle value `original` shows at `ns` (not rounded), to find a trace's
// span in cycles from its first and last timestamps.
model::Quad cycles_at(const ClockMapping& original, model::Nanoseconds ns);

}  // namespace tracesync::apply
