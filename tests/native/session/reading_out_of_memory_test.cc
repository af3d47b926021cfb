// SPDX-License-Identifier: EPL-2.0
// Memory running out while a trace is read in this process (std::bad_alloc)
// is not damage: the run reports that trace as out of memory, in a list of
// its own (never among the damaged or unreadable traces: the command-line
// exits 1 for it, not 3), and the other traces are read in full. No crash,
// wherever the allocation fails: every allocation made while the victim is
// read is made to fail in turn. This binary replaces the
// global operator new to inject the failures; the thread reading a trace is
// marked (ingest::trace_being_read), which aims them.

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "ingest/ctf_test_writer.h"
#include "ingest/trace_being_read.h"
#include "session/synchronization.h"
#include "support/failing_operator_new.h"
#include "support/sanitized.h"

namespace {

// The trace whose reading fails an allocation; allocations made reading it
// so far, and which one fails (negative: none).
const char* victim = nullptr;
std::atomic<long> victim_allocations{0};
std::atomic<long> fail_at{-1};

bool victim_veto() {
  const char* reading = tracesync::ingest::trace_being_read();
  if (reading == nullptr || victim == nullptr || std::strcmp(reading, victim) != 0) return false;
  return victim_allocations.fetch_add(1) == fail_at.load();
}
const bool veto_installed = (tracesync::testing::set_allocation_veto(&victim_veto), true);

}  // namespace

namespace tracesync::session {
namespace {

namespace fs = std::filesystem;

// A small trace of `host`: TCP sends and receives, and filler events.
void write_host(const fs::path& root, const std::string& host) {
  ingest::testing::write_host_trace(root, host, 400);
}

struct ReadingRun {
  RunOutcome outcome;
  v1::Snapshot snapshot;
};

// Reads the experiment in this process, the `fail`-th allocation made
// reading the victim failing (negative: none).
ReadingRun run(const fs::path& experiment, long fail) {
  IngestOptions ingest;
  ingest.jobs = 1;  // the same allocations, in the same order, every run
  Synchronization sync({}, ingest);
  EXPECT_EQ(sync.add_trace_path(experiment.string()), "");
  victim_allocations = 0;
  fail_at = fail;
  ReadingRun r;
  r.outcome = sync.run({});
  fail_at = -1;
  r.snapshot = sync.snapshot();
  return r;
}

uint64_t events_of(const v1::Snapshot& snapshot, const std::string& path) {
  for (const v1::Trace& t : snapshot.traces()) {
    if (t.path() == path) return t.events();
  }
  return 0;
}

TEST(ReadingOutOfMemory, InProcessTheTraceIsReportedAsOutOfMemoryAndTheOthersAreRead) {
  TRACESYNC_SKIP_UNDER_SANITIZERS("AddressSanitizer owns operator new, which this test replaces to make allocations fail");
  ingest::testing::TempDir dir("reading-oom");
  for (const char* host : {"host0", "host1", "host2"}) write_host(dir.path(), host);
  const std::string victim_path = (dir.path() / "host1").string();
  const std::vector<std::string> others = {(dir.path() / "host0").string(), (dir.path() / "host2").string()};
  victim = victim_path.c_str();

  const ReadingRun whole = run(dir.path(), -1);
  const long allocations = victim_allocations.load();
  ASSERT_GT(allocations, 0) << "no allocation while reading the victim: the test aims at nothing";
  RecordProperty("allocations_while_reading", static_cast<int>(allocations));
  EXPECT_TRUE(whole.outcome.out_of_memory.empty());
  ASSERT_EQ(whole.snapshot.traces_size(), 3);
  EXPECT_EQ(events_of(whole.snapshot, victim_path), 800u);

  // Each in turn (86 of them when written: babeltrace2 allocates with
  // GLib, whose failures abort, named by the command's signal handler).
  ASSERT_LT(allocations, 10'000) << "too many to fail each in turn: fail a spread of them";
  long read_by_babeltrace2 = 0;
  for (long k = 0; k < allocations; ++k) {
    const std::string where = "allocation " + std::to_string(k) + " of " + std::to_string(allocations);
    const ReadingRun r = run(dir.path(), k);
    if (r.outcome.out_of_memory.empty()) {
      // The default reader (`auto`) could not open the trace's metadata
      // for the scanner (a stream's buffer not allocated reads as a file
      // that cannot be opened) and read it with babeltrace2: whole.
      ++read_by_babeltrace2;
      EXPECT_TRUE(r.outcome.skipped.empty() && r.outcome.damaged.empty()) << where;
      EXPECT_EQ(events_of(r.snapshot, victim_path), 800u) << where;
      continue;
    }
    ASSERT_EQ(r.outcome.out_of_memory.size(), 1u) << where;
    const v1::Problem& problem = r.outcome.out_of_memory[0];
    EXPECT_EQ(problem.source(), victim_path) << where;
    EXPECT_EQ(problem.message().rfind("out of memory while reading", 0), 0u) << where << ": " << problem.message();
    EXPECT_TRUE(r.outcome.skipped.empty()) << where << ": " << r.outcome.skipped[0].message();
    EXPECT_TRUE(r.outcome.damaged.empty()) << where << ": " << r.outcome.damaged[0].message();
    // In the report's problems too, as the run's lists say.
    bool reported = false;
    for (const v1::Problem& p : r.snapshot.problems()) reported = reported || p.source() == victim_path;
    EXPECT_TRUE(reported) << where;
    for (const std::string& other : others) {
      EXPECT_EQ(events_of(r.snapshot, other), events_of(whole.snapshot, other)) << where << ": " << other;
    }
  }
  RecordProperty("read_by_babeltrace2", static_cast<int>(read_by_babeltrace2));
  EXPECT_LT(read_by_babeltrace2, allocations / 10) << "the scanner's failures were not reported";
  victim = nullptr;
}

}  // namespace
}  // namespace tracesync::session
