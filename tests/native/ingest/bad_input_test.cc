// SPDX-License-Identifier: EPL-2.0
// Bad traces: each gives one clear problem naming the trace, never a crash,
// and the other traces of the experiment are still read and matched.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <sys/stat.h>

#include "ctf_test_writer.h"
#include "ingest/experiment_matching.h"
#include "recording_sink.h"

namespace tracesync::ingest {
namespace {

namespace fs = std::filesystem;
using testing::NetEvent;

NetEvent event(const std::string& name, uint64_t time, uint32_t seq) { return testing::tcp_segment(name, time, seq); }

testing::TraceShape host(const std::string& name, const std::string& uuid) {
  testing::TraceShape shape;
  shape.hostname = name;
  shape.clock_uuid = uuid;
  return shape;
}

// Two good hosts exchanging `messages` messages both ways.
void write_good_pair(const fs::path& root, int messages) {
  std::vector<NetEvent> a, b;
  for (int i = 0; i < messages; ++i) {
    const uint64_t t = 1000 + 1000 * static_cast<uint64_t>(i);
    const uint32_t seq = static_cast<uint32_t>(i);
    if (i % 2 == 0) {
      a.push_back(event("net_dev_queue", t, seq));
      b.push_back(event("net_if_receive_skb", t + 300, seq));
    } else {
      b.push_back(event("net_dev_queue", t, seq));
      a.push_back(event("net_if_receive_skb", t + 300, seq));
    }
  }
  testing::write_trace(root / "good_a", host("A", "aaaaaaaa-0000-0000-0000-000000000001"), a);
  testing::write_trace(root / "good_b", host("B", "bbbbbbbb-0000-0000-0000-000000000002"), b);
}

struct Outcome {
  ExperimentResult result;
  std::vector<match::MatchedMessage> messages;
};

// Reads the good pair plus `bad` (its path named `bad`), returns what came out.
// `jobs` 0: one per core.
Outcome read_with(const fs::path& root, const fs::path& bad, const ReadOptions& read) {
  std::vector<TraceSource> traces = {{(root / "good_a").string(), "good_a", std::nullopt},
                                     {bad.string(), "bad", std::nullopt},
                                     {(root / "good_b").string(), "good_b", std::nullopt}};
  Outcome out;
  std::mutex mutex;
  ExperimentOptions options;
  options.read = read;
  out.result = match_experiment(traces, options, {nullptr, [&](const match::MatchedMessage& m) {
                                               const std::lock_guard lock(mutex);
                                               out.messages.push_back(m);
                                             }});
  return out;
}

// The good pair was read and matched in full despite the bad trace.
void expect_good_pair_intact(const Outcome& out, int messages) {
  EXPECT_EQ(out.result.read.traces[0].status, TraceStatus::kComplete) << out.result.read.traces[0].problem;
  EXPECT_EQ(out.result.read.traces[2].status, TraceStatus::kComplete) << out.result.read.traces[2].problem;
  std::size_t between_good = 0;
  for (const auto& m : out.messages) between_good += (m.send_trace != 1 && m.receive_trace != 1) ? 1 : 0;
  EXPECT_EQ(between_good, static_cast<std::size_t>(messages));
}

// Each case runs twice: traces read in this process (CtfTraceReader), and
// each in a reading process of its own (ProcessTraceReader), which must say
// the same about every bad trace.
class BadInput : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { write_good_pair(dir_.path(), kMessages); }
  const fs::path& root() const { return dir_.path(); }
  static constexpr int kMessages = 20;

  ReadOptions read_options(unsigned jobs = 0) const {
    ReadOptions options;
    options.jobs = jobs;
    if (GetParam()) options.reading_command = {TRACESYNC_TEST_READ_TRACE};
    return options;
  }
  Outcome read(const fs::path& bad, unsigned jobs = 0) const { return read_with(root(), bad, read_options(jobs)); }

 private:
  testing::TempDir dir_{"bad"};
};

TEST_P(BadInput, AMissingDirectory) {
  const Outcome out = read(root() / "nowhere");
  expect_good_pair_intact(out, kMessages);
  const TraceReport& bad = out.result.read.traces[1];
  EXPECT_EQ(bad.status, TraceStatus::kSkipped);
  EXPECT_EQ(bad.info.path, (root() / "nowhere").string());
  EXPECT_EQ(bad.problem, "does not exist");
  EXPECT_TRUE(out.result.read.any_skipped());
}

TEST_P(BadInput, ADirectoryWithoutMetadata) {
  fs::create_directories(root() / "empty");
  const Outcome out = read(root() / "empty");
  expect_good_pair_intact(out, kMessages);
  EXPECT_EQ(out.result.read.traces[1].status, TraceStatus::kSkipped);
  EXPECT_EQ(out.result.read.traces[1].problem, "has no `metadata` file");
}

TEST_P(BadInput, MetadataThatIsNotCtf) {
  testing::write_trace(root() / "garbage", host("G", "cccccccc-0000-0000-0000-000000000003"), {event("net_dev_queue", 1, 5001)});
  testing::write_file(root() / "garbage" / "metadata", "this is not metadata {\n");
  const Outcome out = read(root() / "garbage");
  expect_good_pair_intact(out, kMessages);
  EXPECT_EQ(out.result.read.traces[1].status, TraceStatus::kSkipped);
  EXPECT_EQ(out.result.read.traces[1].problem,
            "cannot be opened: its `metadata` file is not CTF metadata (neither packetized nor text starting with "
            "`/* CTF`)");
}

TEST_P(BadInput, MetadataTextThatDoesNotParse) {
  testing::write_trace(root() / "broken", host("G", "cccccccc-0000-0000-0000-000000000003"), {event("net_dev_queue", 1, 5001)});
  testing::write_file(root() / "broken" / "metadata", "/* CTF 1.8 */\ntrace { major = 1; minor = 8; byte_order = ;\n");
  const Outcome out = read(root() / "broken");
  expect_good_pair_intact(out, kMessages);
  EXPECT_EQ(out.result.read.traces[1].status, TraceStatus::kSkipped);
  EXPECT_FALSE(out.result.read.traces[1].problem.empty());
  EXPECT_EQ(out.result.read.traces[1].problem.find("0x"), std::string::npos) << out.result.read.traces[1].problem;
}

TEST_P(BadInput, ATruncatedStreamFile) {
  std::vector<NetEvent> events;
  for (uint32_t i = 0; i < 50; ++i) events.push_back(event("net_dev_queue", 10 + i, 5000 + i));
  testing::write_trace(root() / "truncated", host("T", "dddddddd-0000-0000-0000-000000000004"), events);
  const fs::path stream = root() / "truncated" / "channel0_0";
  fs::resize_file(stream, fs::file_size(stream) / 2);
  // Each reader in its words: the scanner (the default) and babeltrace2.
  for (const ReaderChoice reader : {ReaderChoice::kAuto, ReaderChoice::kBabeltrace2}) {
    ReadOptions options = read_options();
    options.reader.reader = reader;
    const Outcome out = read_with(root(), root() / "truncated", options);
    expect_good_pair_intact(out, kMessages);
    const TraceReport& bad = out.result.read.traces[1];
    EXPECT_EQ(bad.status, TraceStatus::kSkipped);
    EXPECT_NE(bad.problem.find(stream.string()), std::string::npos) << bad.problem;  // names the file
    EXPECT_NE(bad.problem.find(reader == ReaderChoice::kAuto ? "runs past the end of the file" : "truncated or corrupt"),
              std::string::npos)
        << bad.problem;
  }
}

TEST_P(BadInput, ACorruptEventMidStreamKeepsWhatCameBefore) {
  std::vector<NetEvent> events;
  for (uint32_t i = 0; i < 10; ++i) events.push_back(event("net_dev_queue", 10 + i, 1000 + i));
  events.push_back(event("timer_init", 100, 0));  // 4 + 8 bytes of header, 8 of payload, last in the packet
  testing::write_trace(root() / "corrupt", host("C", "eeeeeeee-0000-0000-0000-000000000005"), events);
  const fs::path stream = root() / "corrupt" / "channel0_0";
  {
    std::fstream file(stream, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(static_cast<std::streamoff>(fs::file_size(stream) - 20));
    const char no_such_class[4] = {99, 0, 0, 0};
    file.write(no_such_class, 4);
  }
  const Outcome out = read(root() / "corrupt");
  expect_good_pair_intact(out, kMessages);
  const TraceReport& bad = out.result.read.traces[1];
  EXPECT_EQ(bad.status, TraceStatus::kPartial);
  EXPECT_EQ(bad.info.events, 10u);
  EXPECT_EQ(out.result.per_trace[1].sends, 10u);  // delivered before the failure
  EXPECT_EQ(bad.problem.rfind("reading stopped after 10 events: ", 0), 0u) << bad.problem;
  EXPECT_NE(bad.problem.find("event class"), std::string::npos) << bad.problem;
  EXPECT_EQ(bad.problem.find("addr=0x"), std::string::npos) << bad.problem;
}

// Zeroed bytes at the end of a stream make its last events of class 0,
// whose payload runs past the packet. babeltrace2's src.ctf.fs records that
// as an error and may still answer that the stream has ended; a babeltrace2
// call made while the error is pending aborts the process (a precondition),
// as the next reading step did. The trace now fails with that error and keeps
// what came before; the thread goes on with the other traces.
TEST_P(BadInput, AnEventRunningPastItsPacketFailsOnlyItsTrace) {
  std::vector<NetEvent> events;
  for (uint32_t i = 0; i < 10; ++i) events.push_back(event("net_dev_queue", 10 + i, 1000 + i));
  for (uint32_t i = 0; i < 4; ++i) events.push_back(event("timer_init", 100 + i, 0));  // 20 bytes each
  int failed = 0;
  for (const std::size_t tail : {8u, 12u, 16u, 20u, 24u, 32u, 40u, 48u, 60u}) {
    const fs::path trace = root() / ("zeroed_" + std::to_string(tail));
    testing::write_trace(trace, host("Z", "ffffffff-0000-0000-0000-000000000006"), events);
    const fs::path stream = trace / "channel0_0";
    {
      std::fstream file(stream, std::ios::in | std::ios::out | std::ios::binary);
      file.seekp(static_cast<std::streamoff>(fs::file_size(stream) - tail));
      const std::string zeros(tail, '\0');
      file.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
    }
    for (const unsigned jobs : {1u, 2u}) {
      const std::string where = std::to_string(tail) + " bytes zeroed, " + std::to_string(jobs) + " jobs";
      const Outcome out = read(trace, jobs);
      expect_good_pair_intact(out, kMessages);
      const TraceReport& bad = out.result.read.traces[1];
      EXPECT_EQ(out.result.per_trace[1].sends, 10u) << where;  // the damage is past them
      if (bad.status == TraceStatus::kComplete) continue;       // the zeros happened to decode
      ++failed;
      EXPECT_EQ(bad.status, TraceStatus::kPartial) << where;
      EXPECT_EQ(bad.problem.rfind("reading stopped after ", 0), 0u) << where << ": " << bad.problem;
    }
  }
  EXPECT_GT(failed, 0);  // the case this test is about did occur
}

testing::TraceShape clockless() {
  testing::TraceShape shape = host("N", "ffffffff-0000-0000-0000-000000000006");
  shape.with_clock = false;
  shape.timestamps = false;
  return shape;
}

TEST_P(BadInput, ATraceWithoutClock) {
  testing::write_trace(root() / "clockless", clockless(), {event("net_dev_queue", 1, 5001)});
  const Outcome out = read(root() / "clockless");
  expect_good_pair_intact(out, kMessages);
  const TraceReport& bad = out.result.read.traces[1];
  EXPECT_EQ(bad.status, TraceStatus::kSkipped);
  EXPECT_NE(bad.problem.find("has no clock"), std::string::npos) << bad.problem;
}

// babeltrace2 reads every regular, non-empty file of a trace directory as
// a stream file and leaves out the rest without a word (it checks with stat,
// never opening them). Each such entry is named, with what it is; the rest
// of the trace is read as if it were not there.
TEST_P(BadInput, AnOddEntryInPlaceOfAStreamFileIsNamedAndTheRestIsRead) {
  std::vector<NetEvent> events;
  for (uint32_t i = 0; i < 10; ++i) events.push_back(event("net_dev_queue", 10 + i, 5000 + i));
  testing::TraceShape shape = host("O", "dddddddd-0000-0000-0000-000000000004");
  shape.streams = 2;  // the events are dealt to channel0_0 and channel0_1 in turn
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"empty", "is empty: a stream file with no packet"},
      {"directory", "is a directory, not a stream file"},
      {"fifo", "is a FIFO, not a stream file (not opened: that could block)"},
      {"/dev/zero", "is a symbolic link to /dev/zero, a character device, not a stream file (not opened)"},
      {"/dev/null", "is a symbolic link to /dev/null, a character device, not a stream file (not opened)"},
      {"/nonexistent/stream", "is a symbolic link to /nonexistent/stream, which does not exist"},
      {"channel0_1", "cannot be examined: Too many levels of symbolic links"},  // a link to itself
  };
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const std::string& kind = cases[c].first;
    const fs::path trace = root() / ("odd-" + std::to_string(c));
    testing::write_trace(trace, shape, events);
    const fs::path odd = trace / "channel0_1";
    fs::remove(odd);
    if (kind == "empty") {
      testing::write_file(odd, "");
    } else if (kind == "directory") {
      fs::create_directory(odd);
    } else if (kind == "fifo") {
      ASSERT_EQ(mkfifo(odd.c_str(), 0600), 0);
    } else {
      fs::create_symlink(kind, odd);
    }
    const Outcome out = read(trace);
    expect_good_pair_intact(out, kMessages);
    const TraceReport& bad = out.result.read.traces[1];
    EXPECT_EQ(bad.status, TraceStatus::kComplete) << kind << ": " << bad.problem;
    EXPECT_EQ(bad.info.events, 5u) << kind;  // channel0_0's, all of them
    EXPECT_EQ(out.result.per_trace[1].sends, 5u) << kind;
    ASSERT_EQ(bad.left_out.size(), 1u) << kind;
    EXPECT_EQ(bad.left_out[0].source, odd.string());
    EXPECT_EQ(bad.left_out[0].message, cases[c].second + "; the rest of the trace is read without it");
    // The good traces have no such entry.
    EXPECT_TRUE(out.result.read.traces[0].left_out.empty());
  }
}

// A trace whose only stream file is odd has nothing left to read: skipped,
// and the entry named.
TEST_P(BadInput, ATraceWhoseOnlyStreamFileIsOddIsSkippedAndTheEntryNamed) {
  testing::write_trace(root() / "fifo_only", host("F", "dddddddd-0000-0000-0000-000000000004"),
                       {event("net_dev_queue", 1, 5001)});
  fs::remove(root() / "fifo_only" / "channel0_0");
  ASSERT_EQ(mkfifo((root() / "fifo_only" / "channel0_0").c_str(), 0600), 0);
  const Outcome out = read(root() / "fifo_only");
  expect_good_pair_intact(out, kMessages);
  const TraceReport& bad = out.result.read.traces[1];
  EXPECT_EQ(bad.status, TraceStatus::kSkipped);
  EXPECT_EQ(bad.problem, "holds no stream file (nothing but metadata)");
  ASSERT_EQ(bad.left_out.size(), 1u);
  EXPECT_EQ(bad.left_out[0].source, (root() / "fifo_only" / "channel0_0").string());
}

// What LTTng itself puts in a trace directory is no problem: its index/
// directory; nor are hidden files, or a directory that is a trace of its own.
TEST_P(BadInput, LttngsIndexDirectoryAndHiddenFilesAreNoProblem) {
  testing::write_trace(root() / "indexed", host("I", "dddddddd-0000-0000-0000-000000000004"),
                       {event("net_dev_queue", 1, 5001)});
  fs::create_directory(root() / "indexed" / "index");
  testing::write_file(root() / "indexed" / "index" / "channel0_0.idx", "");
  testing::write_file(root() / "indexed" / ".hidden", "");
  testing::write_trace(root() / "indexed" / "nested", host("N", "dddddddd-0000-0000-0000-000000000005"),
                       {event("net_dev_queue", 1, 5002)});
  const Outcome out = read(root() / "indexed");
  expect_good_pair_intact(out, kMessages);
  EXPECT_EQ(out.result.read.traces[1].status, TraceStatus::kComplete) << out.result.read.traces[1].problem;
  EXPECT_TRUE(out.result.read.traces[1].left_out.empty());
}

// A `metadata` that is a directory or a link to itself, given to the reader
// directly (discovery names them first, DiscoveryTest): the trace is skipped
// with a problem that says so, not "has no metadata".
TEST_P(BadInput, AMetadataThatIsNoFileIsSaidSo) {
  fs::create_directories(root() / "dir_metadata" / "metadata");
  fs::create_directories(root() / "loop");
  fs::create_symlink("metadata", root() / "loop" / "metadata");
  const Outcome directory = read(root() / "dir_metadata");
  expect_good_pair_intact(directory, kMessages);
  EXPECT_EQ(directory.result.read.traces[1].status, TraceStatus::kSkipped);
  EXPECT_EQ(directory.result.read.traces[1].problem, "its `metadata` is not a regular file: not a trace's metadata");
  const Outcome loop = read(root() / "loop");
  expect_good_pair_intact(loop, kMessages);
  EXPECT_EQ(loop.result.read.traces[1].status, TraceStatus::kSkipped);
  EXPECT_EQ(loop.result.read.traces[1].problem, "its `metadata` cannot be read: Too many levels of symbolic links");
}

TEST_P(BadInput, AClockOfAnImpossibleFrequencyIsAProblem) {
  testing::write_trace(root() / "fast", host("F", "eeeeeeee-0000-0000-0000-000000000005"), {event("net_dev_queue", 1, 5001)});
  std::string metadata;
  {
    std::ifstream in(root() / "fast" / "metadata");
    metadata.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::size_t at = metadata.find("freq = 1000000000;");
  ASSERT_NE(at, std::string::npos);
  metadata.replace(at, 18, "freq = 1000000000000000000;");
  testing::write_file(root() / "fast" / "metadata", metadata);
  const Outcome out = read(root() / "fast");
  expect_good_pair_intact(out, kMessages);
  const TraceReport& bad = out.result.read.traces[1];
  EXPECT_EQ(bad.status, TraceStatus::kSkipped);
  EXPECT_NE(bad.problem.find("runs at 1000000000000000000 Hz, over a thousand ticks a nanosecond"), std::string::npos)
      << bad.problem;
}

TEST_P(BadInput, TimestampsWithoutAClockBlockGetADefaultClock) {
  // babeltrace2 gives such streams a 1 GHz clock of unknown origin: readable,
  // though its times only mean something relative to each other.
  testing::TraceShape shape = host("U", "ffffffff-0000-0000-0000-000000000006");
  shape.with_clock = false;
  testing::write_trace(root() / "unmapped", shape, {event("net_dev_queue", 7, 5001)});
  const Outcome out = read(root() / "unmapped");
  expect_good_pair_intact(out, kMessages);
  const TraceReport& trace = out.result.read.traces[1];
  ASSERT_EQ(trace.status, TraceStatus::kComplete) << trace.problem;
  ASSERT_TRUE(trace.info.clock.has_value());
  EXPECT_FALSE(trace.info.clock->origin_is_unix_epoch);
  EXPECT_FALSE(trace.info.clock->uuid.has_value());
  EXPECT_EQ(trace.info.domain_id, "U");  // no clock UUID: the hostname
  EXPECT_EQ(trace.info.first_event, 7);
}

TEST_P(BadInput, MetadataWithoutStreams) {
  testing::write_trace(root() / "hollow", host("H", "12345678-0000-0000-0000-000000000007"), {});
  fs::remove(root() / "hollow" / "channel0_0");
  const Outcome out = read(root() / "hollow");
  expect_good_pair_intact(out, kMessages);
  EXPECT_EQ(out.result.read.traces[1].status, TraceStatus::kSkipped);
  EXPECT_FALSE(out.result.read.traces[1].problem.empty());
}

TEST_P(BadInput, EveryBadTraceAtOnce) {
  fs::create_directories(root() / "empty");
  testing::write_trace(root() / "clockless", clockless(), {event("net_dev_queue", 1, 5001)});
  std::vector<TraceSource> traces = {{(root() / "nowhere").string(), "nowhere", std::nullopt},
                                     {(root() / "good_a").string(), "good_a", std::nullopt},
                                     {(root() / "empty").string(), "empty", std::nullopt},
                                     {(root() / "clockless").string(), "clockless", std::nullopt},
                                     {(root() / "good_b").string(), "good_b", std::nullopt}};
  for (unsigned jobs : {1u, 3u}) {
    ExperimentOptions options;
    options.read = read_options(jobs);
    const ExperimentResult result = match_experiment(traces, options, {});
    EXPECT_EQ(result.total.matches, static_cast<uint64_t>(kMessages));
    int skipped = 0;
    for (const auto& trace : result.read.traces) skipped += trace.status == TraceStatus::kSkipped ? 1 : 0;
    EXPECT_EQ(skipped, 3);
  }
}

// A sink that fails on the events of one trace.
class ThrowingSink final : public EventSink {
 public:
  explicit ThrowingSink(match::TraceIndex victim) : victim_(victim) {}
  void trace_opened(match::TraceIndex trace, const TraceInfo& info) override { inner.trace_opened(trace, info); }
  void trace_events(match::TraceIndex trace, std::span<const match::PacketEvent> events,
                    model::Nanoseconds progress) override {
    if (trace == victim_ && !events.empty()) throw std::runtime_error("sink is full");
    inner.trace_events(trace, events, progress);
  }
  void trace_closed(match::TraceIndex trace) override { inner.trace_closed(trace); }
  testing::RecordingSink inner;

 private:
  match::TraceIndex victim_;
};

TEST_P(BadInput, ASinkThatThrowsFailsOnlyItsTrace) {
  const std::vector<TraceSource> traces = {{(root() / "good_a").string(), "good_a", std::nullopt},
                                           {(root() / "good_b").string(), "good_b", std::nullopt}};
  ThrowingSink sink(1);
  const ExperimentReport report = read_experiment(traces, read_options(), sink);
  EXPECT_EQ(report.traces[0].status, TraceStatus::kComplete);
  EXPECT_NE(report.traces[1].status, TraceStatus::kComplete);
  EXPECT_NE(report.traces[1].problem.find("sink is full"), std::string::npos) << report.traces[1].problem;
  EXPECT_EQ(sink.inner.closed.count(1), 1u);
}

// Readers on one worker share its batch buffer: the events a failing trace
// left in it must not reach the sink as another trace's.
TEST_P(BadInput, AnAbandonedTraceLeavesNothingBehindForTheNextReaderOfItsThread) {
  const TraceSource good{(root() / "good_a").string(), "good_a", std::nullopt};
  testing::RecordingSink alone;
  read_experiment({good}, read_options(), alone);
  ASSERT_FALSE(alone.events.empty());

  ReadOptions one_worker = read_options(1);
  one_worker.rounds_per_step = 1;  // the two traces take turns on the one thread
  ThrowingSink sink(1);
  const ExperimentReport report =
      read_experiment({good, {(root() / "good_b").string(), "good_b", std::nullopt}}, one_worker, sink);
  EXPECT_EQ(report.traces[0].status, TraceStatus::kComplete);
  EXPECT_NE(report.traces[1].status, TraceStatus::kComplete);
  // Every event the sink took is trace 0's (RecordingSink checks each
  // batch's trace), and they are exactly those of trace 0 read alone.
  ASSERT_EQ(sink.inner.events.size(), alone.events.size());
  for (std::size_t i = 0; i < alone.events.size(); ++i) {
    EXPECT_EQ(sink.inner.events[i].time, alone.events[i].time) << "event " << i;
    EXPECT_EQ(sink.inner.events[i].tcp.seq, alone.events[i].tcp.seq) << "event " << i;
  }
}

TEST_P(BadInput, AProgressCallbackThatThrowsStopsTheReadingCleanly) {
  const std::vector<TraceSource> traces = {{(root() / "good_a").string(), "good_a", std::nullopt},
                                           {(root() / "good_b").string(), "good_b", std::nullopt}};
  testing::RecordingSink sink;
  EXPECT_THROW(read_experiment(traces, read_options(), sink, [](const ReadProgress&) -> bool { throw std::runtime_error("no"); }),
               std::runtime_error);
}

INSTANTIATE_TEST_SUITE_P(Readers, BadInput, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& reader) {
                           return reader.param ? "InAReadingProcess" : "InProcess";
                         });

}  // namespace
}  // namespace tracesync::ingest
