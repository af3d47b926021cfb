// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <span>

#include "ingest/trace_info.h"
#include "match/packet_event.h"

namespace tracesync::ingest {

// Where the readers of an experiment deliver what they read.
//
// Threads: calls about one trace never overlap and come in the order
// trace_opened, trace_events..., trace_closed (a trace that fails before
// any of its streams begins gets trace_closed only); calls about different
// traces come from different worker threads at the same time.
class EventSink {
 public:
  virtual ~EventSink() = default;

  // Before any event of the trace: its clock, hostname and domain are known.
  virtual void trace_opened(match::TraceIndex trace, const TraceInfo& info) = 0;

  // Network events of one trace, in no particular order, and the trace's
  // promise: none of its events delivered later is earlier than `progress`.
  virtual void trace_events(match::TraceIndex trace, std::span<const match::PacketEvent> events,
                            model::Nanoseconds progress) = 0;

  // No more events of the trace: it was read to its end, or reading failed
  // (what was delivered before the failure stands). Not called for traces
  // left unfinished by a cancellation.
  virtual void trace_closed(match::TraceIndex trace) = 0;
};

}  // namespace tracesync::ingest
