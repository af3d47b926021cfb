// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "model/point.h"

namespace tracesync::ingest {

// What the readings of a live session gave (and counted), so that one
// attached again after its reading process died gives exactly the rest
// (docs/live.md, "A live session whose reading process dies").
//
// The live source muxes the session's streams by time, and a reader hands
// its sink, at each flush, every event it read up to a time
// (CtfTraceReader::flush_up_to) and promises that much: no event later
// given is earlier (EventSink::trace_events). Events at the promise's very
// nanosecond may still come, from any stream. So what was given is every
// event before `through` and, at `through`, the first `at_through` events
// of each stream (its events come in order).
struct LiveCut {
  model::Nanoseconds through = INT64_MIN;  // INT64_MIN: nothing was given (a first attachment)
  std::vector<std::pair<uint64_t, uint64_t>> at_through;  // (stream id, events given at `through`), by id
  std::vector<uint64_t> streams;  // every stream the readings met, by id: each is due again

  // How many of `stream`'s events at `through` were given.
  uint64_t given_at_through(uint64_t stream) const {
    const auto at = std::lower_bound(at_through.begin(), at_through.end(), std::pair<uint64_t, uint64_t>{stream, 0});
    return at != at_through.end() && at->first == stream ? at->second : 0;
  }
  bool operator==(const LiveCut&) const = default;
};

}  // namespace tracesync::ingest
