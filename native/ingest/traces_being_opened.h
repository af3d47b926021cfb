// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace tracesync::ingest {

// The traces babeltrace2 is opening now, and since when. Opening a trace
// indexes every packet of its streams, which takes a while on large traces
// and never ends on some damaged ones (babeltrace2 2.0.4 loops on a packet
// of size 0), so a front end may tell the user which trace it waits for.
struct TraceOpening {
  std::string path;
  std::chrono::steady_clock::time_point since;
};
std::vector<TraceOpening> traces_being_opened();

// Lists `path` among the traces being opened for its lifetime.
class OpeningTrace {
 public:
  explicit OpeningTrace(const std::string& path);
  ~OpeningTrace();
  OpeningTrace(const OpeningTrace&) = delete;
  OpeningTrace& operator=(const OpeningTrace&) = delete;

 private:
  uint64_t id_;
};

}  // namespace tracesync::ingest
