// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tracesync::apply::testing {

struct TimedEvent {
  std::string name;
  int64_t ns_from_origin = 0;
};

// Every event of a trace, stream by stream in stream order, read through
// babeltrace2's src.ctf.fs without the muxer (which refuses LTTng 2.1
// traces), independently of the code under test.
struct TraceEvents {
  std::string error;  // empty when every stream was read to its end
  std::map<std::string, std::vector<TimedEvent>> streams;  // by "stream class id/stream id"
  uint64_t count() const;
};

TraceEvents read_trace_events(const std::string& trace_directory);

}  // namespace tracesync::apply::testing
