// SPDX-License-Identifier: EPL-2.0
// libFuzzer target: tracesync's own CTF reader (ingest::ScannerTraceReader,
// native/ctf/) on a trace of any bytes. The input's first byte says which
// part of the trace the rest is:
//   even: the stream file (channel0_0), described by the seed metadata
//         corpus/ctf_metadata/flat_tcp_events.tsdl;
//   odd:  the metadata (TSDL through our own lexer and parser), describing
//         the seed stream (seed_stream.h) rightly, wrongly or not at all.
// Bit 1 of that byte also asks for an application message kind
// (`--messages`) sent by the seed's sched_switch events, keyed by both of
// their fields.
//
// What must hold: no sanitizer report and no read past the mapping (ASan
// sees a read past the file's pages); the reader ends, done or failed with a
// problem in words; the sink's contract (events after the opening, before
// the end, with the trace's index); damaged-time counts within what was read.

#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "ingest/event_sink.h"
#include "ingest/message_spec.h"
#include "ingest/scanner_trace_reader.h"
#include "seed_stream.h"

namespace {

using tracesync::ingest::ScannerTraceReader;
using tracesync::ingest::TraceReader;

class CheckingSink final : public tracesync::ingest::EventSink {
 public:
  void trace_opened(tracesync::match::TraceIndex trace, const tracesync::ingest::TraceInfo&) override {
    FUZZ_CHECK(trace == 0 && !opened && !closed);
    opened = true;
  }
  void trace_events(tracesync::match::TraceIndex trace, std::span<const tracesync::match::PacketEvent> batch,
                    tracesync::model::Nanoseconds) override {
    FUZZ_CHECK(trace == 0 && opened && !closed);
    for (const auto& e : batch) FUZZ_CHECK(e.trace == 0);
    events += batch.size();
  }
  void trace_closed(tracesync::match::TraceIndex trace) override {
    FUZZ_CHECK(trace == 0 && !closed);
    closed = true;
  }
  bool opened = false;
  bool closed = false;
  std::size_t events = 0;
};

std::filesystem::path trace_directory;
std::string seed_metadata;
std::vector<uint8_t> seed_stream;

void write_file(const std::filesystem::path& path, const void* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) {
    std::fprintf(stderr, "scanner_fuzzer: cannot write %s\n", path.c_str());
    std::exit(1);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::ifstream in(TRACESYNC_SEED_METADATA, std::ios::binary);
  seed_metadata.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (seed_metadata.empty()) {
    std::fprintf(stderr, "scanner_fuzzer: cannot read %s\n", TRACESYNC_SEED_METADATA);
    std::exit(1);
  }
  seed_stream = tracesync::fuzz::seed_stream();
  std::string pattern = (std::filesystem::temp_directory_path() / "tracesync-scanner-fuzz-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    std::perror("scanner_fuzzer: mkdtemp");
    std::exit(1);
  }
  trace_directory = pattern;
  std::fprintf(stderr, "scanner_fuzzer: trace directory %s\n", trace_directory.c_str());
  std::atexit([] {
    std::error_code ignored;
    std::filesystem::remove_all(trace_directory, ignored);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  const bool fuzzed_metadata = (mode & 1) != 0;
  if (fuzzed_metadata) {
    write_file(trace_directory / "metadata", data + 1, size - 1);
    write_file(trace_directory / "channel0_0", seed_stream.data(), seed_stream.size());
  } else {
    write_file(trace_directory / "metadata", seed_metadata.data(), seed_metadata.size());
    write_file(trace_directory / "channel0_0", data + 1, size - 1);
  }
  CheckingSink sink;
  tracesync::ingest::ReaderOptions options;
  options.batch_events = 4;
  options.offered_classes = true;
  if ((mode & 2) != 0) {
    const auto spec = tracesync::ingest::parse_message_spec("send=sched_switch,recv=app:in,key=prev_tid+next_tid");
    FUZZ_CHECK(std::holds_alternative<tracesync::ingest::MessageSpec>(spec));
    options.selection = tracesync::ingest::EventSelection({std::get<tracesync::ingest::MessageSpec>(spec)});
  }
  ScannerTraceReader reader({trace_directory.string(), "fuzz", std::nullopt}, 0, options, sink);
  TraceReader::State state = TraceReader::State::kNew;
  // A round reads a packet of every stream at least, and a packet takes a
  // byte at least: the file's size in rounds is more than enough.
  for (std::size_t steps = 0; steps <= size + 2; ++steps) {
    state = reader.step(1);
    if (state != TraceReader::State::kReading) break;
  }
  FUZZ_CHECK(state == TraceReader::State::kDone || state == TraceReader::State::kFailed);
  FUZZ_CHECK(state == TraceReader::State::kDone || !reader.problem().empty());
  FUZZ_CHECK(sink.closed);
  const tracesync::ingest::TraceInfo& info = reader.info();
  FUZZ_CHECK(sink.events <= info.network_events);
  FUZZ_CHECK(info.damaged_network_events <= info.network_events);
  FUZZ_CHECK(info.damaged_packets == 0 || !info.first_time_damage.empty());
  return 0;
}
