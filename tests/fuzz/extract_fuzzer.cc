// SPDX-License-Identifier: EPL-2.0
// libFuzzer target: an extract file (tracesync extract) of any bytes, read
// as `sync` reads it: indexed for its traces, then each trace replayed into
// a sink. Besides never crashing or looping, the replay keeps the sink's
// contract: a trace's events come after its opening and carry its index,
// and every trace ends, done or failed with a problem.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "ingest/extract_index.h"
#include "ingest/extract_trace_reader.h"

namespace {

using tracesync::ingest::EventSink;
using tracesync::ingest::ExtractTraceReader;
using tracesync::ingest::Problem;
using tracesync::ingest::TraceInfo;
using tracesync::ingest::TraceReader;
using tracesync::ingest::TraceSource;
using tracesync::match::PacketEvent;
using tracesync::match::TraceIndex;

struct CheckingSink final : EventSink {
  std::set<TraceIndex> opened;
  std::set<TraceIndex> closed;
  void trace_opened(TraceIndex trace, const TraceInfo&) override {
    FUZZ_CHECK(!opened.contains(trace) && !closed.contains(trace));
    opened.insert(trace);
  }
  void trace_events(TraceIndex trace, std::span<const PacketEvent> events, tracesync::model::Nanoseconds) override {
    FUZZ_CHECK(opened.contains(trace) && !closed.contains(trace));
    for (const PacketEvent& e : events) FUZZ_CHECK(e.trace == trace);
  }
  void trace_closed(TraceIndex trace) override {
    FUZZ_CHECK(!closed.contains(trace));
    closed.insert(trace);
  }
};

const std::string& input_file() {
  static const std::string path = "/tmp/tracesync-extract-fuzzer-" + std::to_string(::getpid()) + ".tsx";
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& file = input_file();
  std::FILE* out = std::fopen(file.c_str(), "wb");
  if (out == nullptr) return 0;
  std::fwrite(data, 1, size, out);
  std::fclose(out);
  std::vector<TraceSource> traces;
  std::vector<Problem> problems;
  tracesync::ingest::index_extract(file, traces, problems);
  for (const Problem& p : problems) FUZZ_CHECK(p.source == file);
  CheckingSink sink;
  for (std::size_t i = 0; i < traces.size(); ++i) {
    ExtractTraceReader reader(traces[i], static_cast<TraceIndex>(i), sink);
    // A round reads at least one frame, and a frame takes at least 2 bytes.
    for (std::size_t steps = 0; steps <= size + 2 && reader.step(1) == TraceReader::State::kReading; ++steps) {
    }
    FUZZ_CHECK(reader.state() == TraceReader::State::kDone || reader.state() == TraceReader::State::kFailed);
    FUZZ_CHECK(reader.state() == TraceReader::State::kDone || !reader.problem().empty());
    FUZZ_CHECK(sink.closed.contains(static_cast<TraceIndex>(i)));
  }
  std::remove(file.c_str());
  return 0;
}
