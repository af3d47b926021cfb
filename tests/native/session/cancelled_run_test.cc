// SPDX-License-Identifier: EPL-2.0
// A run cancelled before some of its traces were opened: those traces are
// left out of the session (they have no index in it), the others keep what
// was read of them, and nothing crashes. Deterministic: the traces that are
// not to open have a reading process that never answers its opening.

#include <chrono>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ingest/ctf_test_writer.h"
#include "session/synchronization.h"

namespace tracesync::session {
namespace {

namespace fs = std::filesystem;

// A small healthy trace of `host`: 2000 events, network and filler.
fs::path write_host(const fs::path& root, const std::string& host) {
  return ingest::testing::write_host_trace(root, host, 1000);
}

const std::string kReadTrace = TRACESYNC_TEST_READ_TRACE;

std::string cancellation_problem(const v1::Snapshot& snapshot) {
  for (const v1::Problem& p : snapshot.problems()) {
    if (p.message().find("cancelled") != std::string::npos) return p.message();
  }
  return {};
}

// One Ctrl-C while babeltrace2 loops opening the only trace: no trace in the
// report, the cancellation said, no crash (it wrote trace 0 of an empty
// session).
TEST(CancelledRun, BeforeTheOnlyTraceOpensLeavesNoTrace) {
  ingest::testing::TempDir dir("cancel-before-open");
  write_host(dir.path(), "host0");
  IngestOptions ingest;
  ingest.reading_command = {"/bin/sh", "-c", "exec sleep 60"};  // never answers the opening
  Synchronization sync({}, ingest);
  ASSERT_EQ(sync.add_trace_path(dir.path().string()), "");
  int calls = 0;
  const RunOutcome outcome = sync.run([&](const RunProgress&) { return ++calls > 1; });  // cancel on the first call
  EXPECT_TRUE(outcome.cancelled);
  EXPECT_EQ(outcome.traces_read, 0u);
  EXPECT_TRUE(outcome.skipped.empty());
  const v1::Snapshot snapshot = sync.snapshot();
  EXPECT_EQ(snapshot.traces_size(), 0);
  EXPECT_FALSE(snapshot.complete());
  EXPECT_EQ(cancellation_problem(snapshot),
            "reading was cancelled before the end of the traces; 1 trace was not opened yet");
}

// A trace opened beside one cancelled before it opened keeps its own place
// (the unopened one used to overwrite session trace 0). The first reading
// process to start reads; the other never answers. A trace still opening
// holds the others back (memory stays bounded with a horizon), so the run is
// cancelled while it waits, not after the first trace is read in full.
TEST(CancelledRun, BeforeATraceOpensKeepsTheTracesRead) {
  ingest::testing::TempDir dir("cancel-beside-read");
  write_host(dir.path(), "host0");
  write_host(dir.path(), "host1");
  const std::string first_only = (dir.path() / "first-reader").string();
  IngestOptions ingest;
  ingest.jobs = 2;
  ingest.reading_command = {"/bin/sh", "-c", "mkdir \"$1\" 2>/dev/null && exec \"$0\"; exec sleep 60", kReadTrace,
                            first_only};
  Synchronization sync({}, ingest);
  ASSERT_EQ(sync.add_trace_path(dir.path().string()), "");
  const auto start = std::chrono::steady_clock::now();
  const RunOutcome outcome = sync.run([&](const RunProgress&) {
    return std::chrono::steady_clock::now() - start < std::chrono::seconds(2);
  });
  EXPECT_TRUE(outcome.cancelled);
  EXPECT_EQ(outcome.traces_read, 1u);
  const v1::Snapshot snapshot = sync.snapshot();
  ASSERT_EQ(snapshot.traces_size(), 1);  // the opened trace only, under its own name
  EXPECT_NE(snapshot.traces(0).name().find("host"), std::string::npos);
  EXPECT_EQ(cancellation_problem(snapshot),
            "reading was cancelled before the end of the traces; 1 trace was not opened yet");
}

}  // namespace
}  // namespace tracesync::session
