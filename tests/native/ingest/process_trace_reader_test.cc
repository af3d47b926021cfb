// SPDX-License-Identifier: EPL-2.0
// ProcessTraceReader: a trace read in a reading process gives the sink what
// it gives read in this process; a reading process that dies, lies, cannot
// start or never answers costs its trace only, with a problem that says how.

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <limits>
#include <thread>

#include "ctf_test_writer.h"
#include "ingest/experiment_reader.h"
#include "ingest/frame_channel.h"
#include "ingest/output_tail.h"
#include "ingest/process_trace_reader.h"
#include "ingest/reader_protocol.h"
#include "ingest/reading_process.h"
#include "recording_sink.h"
#include "support/peak_sampler.h"

namespace tracesync::ingest {
namespace {

namespace fs = std::filesystem;
using testing::NetEvent;
using Clock = std::chrono::steady_clock;

const std::vector<std::string> kReadTrace = {TRACESYNC_TEST_READ_TRACE};

// Ports too, so that the endpoints cross the channel.
NetEvent event(const std::string& name, uint64_t time, uint32_t seq) {
  NetEvent e = testing::tcp_segment(name, time, seq, seq * 3);
  e.source_port = 4000;
  e.dest_port = 80;
  return e;
}

// Two hosts, three streams each, small packets, filler events between the
// network events: enough for several reading steps.
std::vector<TraceSource> write_pair(const fs::path& root) {
  std::vector<TraceSource> traces;
  for (int host = 0; host < 2; ++host) {
    std::vector<NetEvent> events;
    for (uint32_t i = 0; i < 3000; ++i) {
      const uint64_t t = 10'000 + 1000 * static_cast<uint64_t>(i) + 300 * static_cast<uint64_t>(host);
      const bool sends = (i + static_cast<uint32_t>(host)) % 2 == 0;
      events.push_back(event(sends ? "net_dev_queue" : "netif_receive_skb", t, i));
      events.push_back(event("timer_init", t + 10, 0));
    }
    testing::TraceShape shape;
    shape.hostname = "host" + std::to_string(host);
    shape.clock_uuid = "aaaaaaaa-0000-0000-0000-00000000000" + std::to_string(host);
    shape.streams = 3;
    shape.events_per_packet = 50;
    const fs::path dir = root / ("host" + std::to_string(host));
    testing::write_trace(dir, shape, events);
    traces.push_back({dir.string(), "host" + std::to_string(host), std::nullopt});
  }
  return traces;
}

TEST(ProcessTraceReader, GivesTheSinkWhatTheInProcessReaderGives) {
  testing::TempDir dir("process-same");
  const std::vector<TraceSource> traces = write_pair(dir.path());
  for (const unsigned jobs : {1u, 2u}) {
    ReadOptions in_process;
    in_process.jobs = jobs;
    in_process.rounds_per_step = 2;  // many turns, so many steps cross the channel
    ReadOptions in_children = in_process;
    in_children.reading_command = kReadTrace;
    in_children.rounds_per_process_step = 3;
    testing::RecordingSink expected_sink, sink;
    const ExperimentReport expected = read_experiment(traces, in_process, expected_sink);
    const ExperimentReport report = read_experiment(traces, in_children, sink);
    ASSERT_EQ(report.traces.size(), 2u);
    for (match::TraceIndex t = 0; t < 2; ++t) {
      const TraceReport& a = expected.traces[t];
      const TraceReport& b = report.traces[t];
      EXPECT_EQ(b.status, TraceStatus::kComplete) << b.problem;
      EXPECT_EQ(b.info.events, a.info.events);
      EXPECT_EQ(b.info.events, 6000u);
      EXPECT_EQ(b.info.network_events, 3000u);
      EXPECT_EQ(b.info.streams, 3u);
      EXPECT_EQ(b.info.hostname, "host" + std::to_string(t));
      EXPECT_EQ(b.info.domain_id, a.info.domain_id);
      EXPECT_EQ(b.info.domain_source, DomainSource::kClockUuid);
      EXPECT_EQ(b.info.first_event, a.info.first_event);
      EXPECT_EQ(b.info.last_event, a.info.last_event);
      EXPECT_EQ(b.info.bytes, a.info.bytes);
      ASSERT_TRUE(b.info.clock.has_value());
      EXPECT_EQ(b.info.clock->uuid, a.info.clock->uuid);
      EXPECT_EQ(sink.opened.at(t).hostname, expected_sink.opened.at(t).hostname);
      EXPECT_EQ(sink.closed.count(t), 1u);
      const auto want = expected_sink.events_of(t);
      const auto got = sink.events_of(t);
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].time, want[i].time);
        EXPECT_EQ(got[i].direction, want[i].direction);
        EXPECT_EQ(got[i].layout, want[i].layout);
        EXPECT_EQ(got[i].tcp.seq, want[i].tcp.seq);
        EXPECT_EQ(got[i].tcp.ack_seq, want[i].tcp.ack_seq);
        EXPECT_EQ(got[i].tcp.flags, want[i].tcp.flags);
        EXPECT_EQ(got[i].endpoints, want[i].endpoints);
      }
    }
    EXPECT_EQ(sink.broken_promises, 0);
  }
}

// What a reading process (or a library in it) prints goes to a file, not
// into its channel: the trace is read as if nothing had been printed.
TEST(ProcessTraceReader, WhatAReadingProcessPrintsDoesNotDisturbItsChannel) {
  testing::TempDir dir("process-noise");
  const std::vector<TraceSource> traces = write_pair(dir.path());
  ReadOptions options;
  options.reading_command = {"/bin/sh", "-c", "echo noise; echo more noise >&2; exec \"$0\"", TRACESYNC_TEST_READ_TRACE};
  testing::RecordingSink sink;
  const ExperimentReport report = read_experiment(traces, options, sink);
  for (const TraceReport& trace : report.traces) {
    EXPECT_EQ(trace.status, TraceStatus::kComplete) << trace.problem;
    EXPECT_EQ(trace.info.network_events, 3000u);
  }
  EXPECT_EQ(sink.events.size(), 6000u);
}

// Reads one trace (any directory: the program given never looks) with
// `command` as its reading process.
TraceReport read_with_program(const std::vector<std::string>& command, testing::RecordingSink& sink,
                              const std::atomic<bool>* cancel = nullptr) {
  ReadOptions options;
  options.reading_command = command;
  return read_experiment({{"/some/trace", "trace", std::nullopt}}, options, sink, {}, cancel).traces.at(0);
}

TEST(ProcessTraceReader, AReadingProcessThatAbortsFailsItsTraceWithItsLastWords) {
  testing::RecordingSink sink;
  const TraceReport trace = read_with_program(
      {"/bin/sh", "-c",
       // babeltrace2's decoration of a failed assertion, then its words.
       "echo ' (\u256f\u00b0\u25a1\u00b0)\u256f\ufe35 \u253b\u2501\u253b  msg-iter.c:1111: f(): Assertion `a >= 0` "
       "failed.' >&2; kill -ABRT $$"},
      sink);
  EXPECT_EQ(trace.status, TraceStatus::kSkipped);
  EXPECT_EQ(trace.problem,
            "cannot be opened: babeltrace2 aborted (SIGABRT) on damaged data: msg-iter.c:1111: f(): Assertion `a >= 0` "
            "failed.");
  EXPECT_EQ(sink.closed.count(0), 1u);  // the sink is never left waiting
}

// GLib aborts when malloc fails (babeltrace2 allocates through it): that is
// running out of memory, not damage.
TEST(ProcessTraceReader, AReadingProcessThatRanOutOfMemoryIsNotBlamedOnItsTrace) {
  testing::RecordingSink sink;
  const TraceReport trace = read_with_program(
      {"/bin/sh", "-c",
       "echo \"GLib (gthread-posix.c): Unexpected error from C library during 'malloc': Cannot allocate memory.  "
       "Aborting.\" >&2; kill -ABRT $$"},
      sink);
  EXPECT_EQ(trace.status, TraceStatus::kSkipped);
  EXPECT_EQ(trace.problem,
            "cannot be opened: the reading process ran out of memory (SIGABRT): GLib (gthread-posix.c): Unexpected "
            "error from C library during 'malloc': Cannot allocate memory.  Aborting.");
}

TEST(ProcessTraceReader, AReadingProcessThatExitsOrDiesIsDescribed) {
  testing::RecordingSink sink;
  EXPECT_EQ(read_with_program({"/bin/sh", "-c", "exit 7"}, sink).problem,
            "cannot be opened: the reading process exited with status 7 before answering (is /bin/sh a tracesync "
            "of this version, with its read-trace command?)");
  testing::RecordingSink sink2;
  EXPECT_EQ(read_with_program({"/bin/sh", "-c", "kill -SEGV $$"}, sink2).problem,
            "cannot be opened: the reading process died of signal 11 (Segmentation fault)");
}

// The machine's shared memory now (kB): the reading processes' output once
// went to in-memory files, which count there and in no process.
int64_t shared_memory_kb() {
  std::ifstream meminfo("/proc/meminfo");
  std::string name;
  int64_t kb = 0;
  while (meminfo >> name >> kb) {
    if (name == "Shmem:") return kb;
    meminfo.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return -1;
}

// A reading process that prints 512 MiB (babeltrace2 does, with
// LIBBABELTRACE2_INIT_LOG_LEVEL=T) costs a bounded tail of it, not the
// whole: neither this process's memory nor the machine's shared memory
// grows with it. Its last line still names the problem when it dies.
TEST(ProcessTraceReader, WhatAChattyReadingProcessPrintsIsKeptAsABoundedTail) {
  const int64_t before = shared_memory_kb();
  ASSERT_GE(before, 0) << "no Shmem in /proc/meminfo";
  tracesync::testing::PeakSampler<int64_t> shared_memory(shared_memory_kb, std::chrono::milliseconds(5), before);
  const auto started = Clock::now();
  testing::RecordingSink sink;
  const TraceReport trace = read_with_program(
      {"/bin/sh", "-c", "yes 'babeltrace2 says a lot' | head -c 512M >&2; echo >&2; echo 'the last words' >&2; kill -ABRT $$"},
      sink);
  const int64_t peak = shared_memory.stop();
  const auto seconds = std::chrono::duration<double>(Clock::now() - started).count();
  ::testing::Test::RecordProperty("seconds", std::to_string(seconds));
  ::testing::Test::RecordProperty("shared_memory_growth_kb", std::to_string(peak - before));
  EXPECT_EQ(trace.status, TraceStatus::kSkipped);
  EXPECT_EQ(trace.problem, "cannot be opened: babeltrace2 aborted (SIGABRT) on damaged data: the last words");
  // Other programs on the machine may take some shared memory meanwhile;
  // the whole output would take 512 MiB.
  EXPECT_LT(peak - before, 64 * 1024) << "kB of shared memory taken while the reading process printed 512 MiB";
  EXPECT_LT(seconds, 120);  // a hang guard, not a time budget
}

TEST(OutputTail, KeepsTheLastLineOfWhatWasWritten) {
  OutputTail tail;
  ASSERT_TRUE(tail.open());
  EXPECT_EQ(tail.last_line(), "");
  std::string line = "an early line of many\n";
  for (int i = 0; i < 10000; ++i) {
    ASSERT_EQ(::write(tail.write_end(), line.data(), line.size()), static_cast<ssize_t>(line.size()));
    if (i % 1000 == 0) {
      EXPECT_TRUE(tail.drain());  // the pipe holds 64 KiB; drain before it is full
    }
  }
  const std::string last = "** (process): msg-iter.c:1111: f(): Assertion `a >= 0` failed.\n";
  ASSERT_EQ(::write(tail.write_end(), last.data(), last.size()), static_cast<ssize_t>(last.size()));
  EXPECT_TRUE(tail.drain());  // the writer is still there
  tail.close_write_end();
  EXPECT_FALSE(tail.drain());  // and now gone
  EXPECT_EQ(tail.last_line(), "process): msg-iter.c:1111: f(): Assertion `a >= 0` failed.");
}

TEST(ProcessTraceReader, AProgramWithoutTheReadingCommandIsSuspectedAndQuoted) {
  // What an older tracesync, which has no read-trace command, does with one.
  testing::RecordingSink sink;
  const TraceReport trace = read_with_program(
      {"/bin/sh", "-c", "echo 'usage: tracesync COMMAND ...' >&2; echo 'tracesync: unknown command read-trace' >&2; exit 2"},
      sink);
  EXPECT_EQ(trace.status, TraceStatus::kSkipped);
  EXPECT_EQ(trace.problem,
            "cannot be opened: the reading process exited with status 2 before answering (is /bin/sh a tracesync of "
            "this version, with its read-trace command?): tracesync: unknown command read-trace");
  EXPECT_EQ(sink.closed.count(0), 1u);
}

TEST(ProcessTraceReader, AMissingProgramIsNamed) {
  testing::RecordingSink sink;
  const TraceReport trace = read_with_program({"/nonexistent/tracesync-read-trace"}, sink);
  EXPECT_EQ(trace.status, TraceStatus::kSkipped);
  EXPECT_EQ(trace.problem,
            "cannot start the reading process /nonexistent/tracesync-read-trace: No such file or directory");
  EXPECT_EQ(sink.closed.count(0), 1u);
}

TEST(ProcessTraceReader, AReadingProcessThatWritesGarbageIsStoppedAndDescribed) {
  testing::RecordingSink sink;
  const auto started = Clock::now();
  // 'XXXX' as a size is 1.4 GB: refused before it is read, and the writer,
  // which would sleep on, is killed.
  const TraceReport trace = read_with_program({"/bin/sh", "-c", "printf XXXXXXXXXXXX >&3; exec sleep 60"}, sink);
  EXPECT_EQ(trace.status, TraceStatus::kSkipped);
  EXPECT_EQ(trace.problem, "cannot be opened: the reading process wrote what tracesync cannot read (a frame claims " +
                               std::to_string(0x58585858u) + " bytes)");
  EXPECT_LT(Clock::now() - started, std::chrono::seconds(30));
}

TEST(ProcessTraceReader, CancellingKillsAReadingProcessThatNeverAnswers) {
  testing::RecordingSink sink;
  std::atomic<bool> cancel{false};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancel = true;
  });
  const auto started = Clock::now();
  // `sleep` holds its end of the socket and never answers; the child of a
  // shell that is killed would hold it even after: the wait ends anyway.
  const TraceReport trace = read_with_program({"/bin/sh", "-c", "sleep 60; true"}, sink, &cancel);
  canceller.join();
  EXPECT_EQ(trace.status, TraceStatus::kCancelled);
  EXPECT_EQ(trace.problem, "");
  EXPECT_EQ(sink.closed.count(0), 0u);  // unfinished, not failed
  EXPECT_LT(Clock::now() - started, std::chrono::seconds(30));
}

TEST(ProcessTraceReader, AnOpeningPastItsTimeLimitFailsItsTrace) {
  testing::RecordingSink sink;
  ReadOptions options;
  options.reading_command = {"/bin/sh", "-c", "sleep 60; true"};  // never answers the opening step
  options.open_timeout = std::chrono::milliseconds(300);
  const auto started = Clock::now();
  const TraceReport trace = read_experiment({{"/some/trace", "trace", std::nullopt}}, options, sink).traces.at(0);
  EXPECT_EQ(trace.status, TraceStatus::kSkipped);
  EXPECT_EQ(trace.problem,
            "cannot be opened: babeltrace2 was still opening it after 0.3 s, the time allowed: a damaged trace it "
            "never finishes, or one large enough to need more time");
  EXPECT_EQ(sink.closed.count(0), 1u);
  EXPECT_GE(Clock::now() - started, std::chrono::milliseconds(300));
  EXPECT_LT(Clock::now() - started, std::chrono::seconds(30));
}

TEST(ProcessTraceReader, AnOpeningWithinItsTimeLimitIsNotStopped) {
  testing::TempDir dir("process-in-time");
  const std::vector<TraceSource> traces = write_pair(dir.path());
  ReadOptions options;
  options.reading_command = kReadTrace;
  options.open_timeout = std::chrono::milliseconds(20'000);
  testing::RecordingSink sink;
  const ExperimentReport report = read_experiment(traces, options, sink);
  for (const TraceReport& trace : report.traces) EXPECT_EQ(trace.status, TraceStatus::kComplete) << trace.problem;
}

// The reading process's side, in this process: a request from another build
// is refused with a problem the parent can show.
TEST(ReadingProcess, RefusesAnotherProtocolVersionWithAProblem) {
  int ends[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends), 0);
  int served = -1;
  std::thread child([&] { served = serve_trace_reading(ends[1], ends[1]); });
  FrameChannel parent(ends[0], ends[0]);
  reader_protocol::OpenRequest request;
  request.version = reader_protocol::kVersion + 1;
  ASSERT_TRUE(parent.send(reader_protocol::kOpen, reader_protocol::encode(request)));
  ASSERT_TRUE(parent.send(reader_protocol::kStep, reader_protocol::addressed(0, reader_protocol::encode_rounds(0))));
  ASSERT_TRUE(parent.flush());
  uint32_t type = 0;
  std::vector<std::byte> payload;
  ASSERT_TRUE(parent.receive(type, payload)) << parent.error();
  EXPECT_EQ(type, reader_protocol::kStepDone);
  std::span<const std::byte> addressed_payload(payload);
  EXPECT_EQ(reader_protocol::take_address(addressed_payload), std::optional<match::TraceIndex>(0));
  const auto report = reader_protocol::decode_step_report(addressed_payload);
  ASSERT_TRUE(report);
  EXPECT_EQ(report->state, TraceReader::State::kFailed);
  EXPECT_EQ(report->problem, "the reading program is from another build of tracesync (protocol " +
                                 std::to_string(reader_protocol::kVersion + 1) + ", expected " +
                                 std::to_string(reader_protocol::kVersion) + ")");
  child.join();
  EXPECT_EQ(served, 1);
  close(ends[0]);
  close(ends[1]);
}

TEST(ReadingProcess, AnythingButAnOpenRequestFirstEndsIt) {
  int ends[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends), 0);
  FrameChannel parent(ends[0], ends[0]);
  ASSERT_TRUE(parent.send(reader_protocol::kStep, reader_protocol::addressed(0, reader_protocol::encode_rounds(1))) &&
              parent.flush());
  EXPECT_EQ(serve_trace_reading(ends[1], ends[1]), 1);
  shutdown(ends[0], SHUT_WR);
  close(ends[0]);
  close(ends[1]);
}

}  // namespace
}  // namespace tracesync::ingest
