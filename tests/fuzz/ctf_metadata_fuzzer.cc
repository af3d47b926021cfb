// SPDX-License-Identifier: EPL-2.0
// libFuzzer target: CTF metadata through babeltrace2, read the way tracesync
// reads a trace (ingest::CtfTraceReader, in this process). Each input becomes
// the `metadata` of a trace directory that also holds one small valid stream
// file, written for the seed corpus/ctf_metadata/flat_tcp_events.tsdl: two
// packets of sched_switch, inet_sock_local_out and inet_sock_local_in events.
// Mutated metadata then describes that stream rightly, wrongly or not at all.
//
// What must hold: the reader ends, either done or failed with a problem in
// words, and tracesync's own code raises no sanitizer report. babeltrace2
// 2.0.4 itself aborts (bt_common_abort) on some damaged metadata; tracesync
// survives that by reading every trace in a reading process of its own.
// Those aborts are babeltrace2's, not this code's: tests/fuzz/run_fuzzers.sh
// sorts them out of the crashes by their stack (see docs/testing.md).

#include <stdlib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "ingest/ctf_trace_reader.h"
#include "ingest/event_sink.h"
#include "seed_stream.h"

namespace {

using tracesync::ingest::CtfTraceReader;
using tracesync::ingest::TraceReader;

class CountingSink final : public tracesync::ingest::EventSink {
 public:
  void trace_opened(tracesync::match::TraceIndex, const tracesync::ingest::TraceInfo&) override {
    FUZZ_CHECK(!opened && !closed);
    opened = true;
  }
  void trace_events(tracesync::match::TraceIndex, std::span<const tracesync::match::PacketEvent> batch,
                    tracesync::model::Nanoseconds) override {
    FUZZ_CHECK(opened && !closed);
    events += batch.size();
  }
  void trace_closed(tracesync::match::TraceIndex) override {
    FUZZ_CHECK(!closed);
    closed = true;
  }
  bool opened = false;
  bool closed = false;
  std::size_t events = 0;
};

std::filesystem::path trace_directory;

void write_file(const std::filesystem::path& path, const void* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) {
    std::fprintf(stderr, "ctf_metadata_fuzzer: cannot write %s\n", path.c_str());
    std::exit(1);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::string pattern = (std::filesystem::temp_directory_path() / "tracesync-metadata-fuzz-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    std::perror("ctf_metadata_fuzzer: mkdtemp");
    std::exit(1);
  }
  trace_directory = pattern;
  const std::vector<uint8_t> stream = tracesync::fuzz::seed_stream();
  write_file(trace_directory / "channel0_0", stream.data(), stream.size());
  // Removed at exit, crash or not, by whoever ran the fuzzer: the folder is
  // printed so that it can be found.
  std::fprintf(stderr, "ctf_metadata_fuzzer: trace directory %s\n", trace_directory.c_str());
  std::atexit([] {
    std::error_code ignored;
    std::filesystem::remove_all(trace_directory, ignored);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  write_file(trace_directory / "metadata", data, size);
  CountingSink sink;
  tracesync::ingest::ReaderOptions options;
  options.batch_events = 4;
  CtfTraceReader reader({trace_directory.string(), "fuzz", std::nullopt}, 0, options, sink);
  TraceReader::State state = TraceReader::State::kNew;
  // The seed's 12 events take a few steps; mutated metadata can describe
  // them as many more, smaller ones.
  for (int steps = 0; steps < 100'000; ++steps) {
    state = reader.step(16);
    if (state == TraceReader::State::kDone || state == TraceReader::State::kFailed) break;
  }
  FUZZ_CHECK(state == TraceReader::State::kDone || state == TraceReader::State::kFailed);
  FUZZ_CHECK((state == TraceReader::State::kFailed) == !reader.problem().empty());
  FUZZ_CHECK(sink.closed);
  return 0;
}
