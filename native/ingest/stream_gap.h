// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>

#include "model/point.h"

namespace tracesync::ingest {

// A stretch of one stream of a live session that no reading saw: its
// reading process died after giving everything up to `from`, and the relay,
// which serves a viewer attaching again from the newest data it holds,
// began the stream again with a packet beginning at `to`, or (`served`
// false) served nothing of it again before the session ended or the follow
// stopped. What the stream recorded in between, if anything, is missing
// (docs/live.md, "A live session whose reading process dies").
struct StreamGap {
  // The stream in the session: its id as babeltrace2's live source gives it
  // (its instance id), its class's (its channel's) above bit 32.
  uint64_t stream = 0;
  model::Nanoseconds from = 0;  // the cut: every event up to it was given
  model::Nanoseconds to = 0;    // the stream's first packet after the cut begins here (served only)
  bool served = true;           // false: nothing of the stream was served after the cut
  bool operator==(const StreamGap&) const = default;
};

}  // namespace tracesync::ingest
