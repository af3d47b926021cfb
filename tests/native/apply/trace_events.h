// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <babeltrace2/babeltrace.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tracesync::apply::testing {

struct TimedEvent {
  std::string name;
  int64_t ns_from_origin = 0;
  // Every field the event carries, as text: its packet's context, its
  // common and specific contexts and its payload (names, values, selected
  // variant options, array lengths).
  std::string fields;
};

// Every event of a trace, stream by stream in stream order, read through
// babeltrace2's src.ctf.fs without the muxer (which refuses LTTng 2.1
// traces), independently of the code under test.
struct TraceEvents {
  std::string error;  // empty when every stream was read to its end
  std::map<std::string, std::vector<TimedEvent>> streams;  // by "stream class id/stream id"
  uint64_t discarded_events = 0;  // the counts of the discarded-events messages
  uint64_t count() const;
};

TraceEvents read_trace_events(const std::string& trace_directory);

// The same, calling `on_trace` with the trace's IR at its first message.
TraceEvents read_trace_events(const std::string& trace_directory,
                              const std::function<void(const bt_trace*)>& on_trace);

}  // namespace tracesync::apply::testing
