// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>

#include "model/point.h"

namespace tracesync::ingest {

// A stretch of one stream of a live session that no reading saw: its
// reading process died after giving everything up to `from`, and the relay,
// which serves a viewer attaching again from the newest data it holds,
// began the stream again with a packet beginning at `to`. What the stream
// recorded in between, if anything, is missing (docs/live.md, "A reading
// process that dies").
struct StreamGap {
  uint64_t stream = 0;  // the stream's id in the session, as babeltrace2's live source gives it
  model::Nanoseconds from = 0;  // the cut: every event up to it was given
  model::Nanoseconds to = 0;    // the stream's first packet after the cut begins here
  bool operator==(const StreamGap&) const = default;
};

}  // namespace tracesync::ingest
