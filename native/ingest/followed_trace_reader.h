// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>
#include <vector>

#include "ingest/stream_gap.h"
#include "ingest/trace_reader.h"

namespace tracesync::ingest {

// A trace read while it is recorded (`tracesync live`): a live session
// from a relay (LiveTraceReader) or a trace folder being written
// (GrowingTraceReader). A step reads what is there now and ends early
// when there is nothing new: waiting() says so, and the caller steps again
// a little later. kDone once the recording ended.
class FollowedTraceReader : public TraceReader {
 public:
  // The last step found nothing new to read.
  virtual bool waiting() const = 0;
  // Once kDone: how the end was known, in words ("the session ended").
  virtual std::string end_words() const = 0;
  // Once after the source was resumed in a new reading process, its last
  // one having died: how, in words; empty otherwise (and in-process).
  virtual std::string take_resumed() { return {}; }
  // The stretches of its streams no reading saw, found since the last call
  // (a live session attached again: StreamGap); none in-process.
  virtual std::vector<StreamGap> take_gaps() { return {}; }
  // Once it is clear, when the source ended or the follow stops: each
  // stream a live session attached again was served nothing of since (a
  // StreamGap not `served`); once; none in-process.
  virtual std::vector<StreamGap> take_unserved() { return {}; }
};

}  // namespace tracesync::ingest
