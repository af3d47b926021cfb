// SPDX-License-Identifier: EPL-2.0
// `--reader`: sync's reports are byte for byte the same whichever reader
// read the traces (the real fixtures, a simulated experiment, both keys,
// both formats), but for the lines that name the reader; check and sync
// say which reader read each trace and why; a bad choice is a usage error.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/run_command.h"
#include "support/without_readers.h"

namespace tracesync {
namespace {

using testing::run_command;
using testing::tracesync_binary;
using testing::without_readers;
namespace fs = std::filesystem;

const std::string kFixtures = std::string(TRACESYNC_SHARED_DIR) + "/fixtures";

std::string sync_output(const std::vector<std::string>& paths, const std::string& reader,
                        const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"sync", "--reader", reader};
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), paths.begin(), paths.end());
  const auto r = run_command(tracesync_binary(), args);
  EXPECT_EQ(r.exit_code, 0) << reader << ": " << r.err;
  EXPECT_FALSE(r.out.empty());
  return r.out;
}

void expect_same_reports(const std::vector<std::string>& paths, const std::vector<std::string>& options = {}) {
  for (std::vector<std::string> extra :
       std::vector<std::vector<std::string>>{{"--format", "json"}, {"--format", "text"},
                                             {"--format", "json", "--match-key", "strict"},
                                             {"--format", "json", "--in-process"}}) {
    extra.insert(extra.begin(), options.begin(), options.end());
    const std::string babeltrace2 = without_readers(sync_output(paths, "babeltrace2", extra), "babeltrace2");
    EXPECT_EQ(without_readers(sync_output(paths, "scanner", extra), "scanner"), babeltrace2)
        << paths.front() << " " << extra.back();
    EXPECT_EQ(without_readers(sync_output(paths, "auto", extra), "scanner"), babeltrace2)
        << paths.front() << " " << extra.back();
  }
}

TEST(CliReader, EveryFixtureSyncsToTheSameReportWithEitherReader) {
  if (!fs::is_directory(kFixtures)) GTEST_SKIP() << "shared fixtures not found at " << kFixtures;
  expect_same_reports({kFixtures + "/lttng-modules-2.1-addons"});
  expect_same_reports({kFixtures + "/lttng-modules-2.4-addons/django-vote-v1"});
  expect_same_reports({kFixtures + "/lttng-modules-2.4-addons/django-vote-v2"});
}

TEST(CliReader, ASimulatedExperimentSyncsToTheSameReportWithEitherReader) {
  const testing::TempDir dir;
  const auto r = run_command(tracesync_binary(), {"simulate", "--quiet", "--output", dir.path(), "--hosts", "5",
                                                  "--topology", "star", "--duration", "3s", "--clock-model", "combined"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_same_reports({dir.path()});
}

TEST(CliReader, ApplicationMessagesSyncToTheSameReportWithEitherReader) {
  const testing::TempDir dir;
  const auto r = run_command(tracesync_binary(), {"simulate", "--quiet", "--user-space", "--output", dir.path(),
                                                  "--hosts", "3", "--duration", "2s"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_same_reports({dir.path()}, {"--messages", "send=tsapp:msg_send,recv=tsapp:msg_recv,key=channel+msg_id"});
}

TEST(CliReader, CheckSaysWhichReaderReadEachTraceAndWhy) {
  const testing::TempDir dir;
  ASSERT_EQ(run_command(tracesync_binary(), {"simulate", "--quiet", "--output", dir.path(), "--hosts", "2",
                                             "--duration", "1s"}).exit_code, 0);
  const auto json = run_command(tracesync_binary(), {"check", "--format", "json", "--reader", "auto", dir.path()});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto report = nlohmann::json::parse(json.out);
  ASSERT_EQ(report["traces"].size(), 2u);
  for (const auto& trace : report["traces"]) {
    EXPECT_EQ(trace["reader"], "scanner");
    EXPECT_EQ(trace["reader_reason"], "--reader auto: the scanner's plans cover the trace");
  }
  const auto text = run_command(tracesync_binary(), {"check", "--reader", "babeltrace2", dir.path()});
  EXPECT_NE(text.out.find("read by babeltrace2 (--reader babeltrace2)"), std::string::npos) << text.out;
}

TEST(CliReader, AutoFallsBackToBabeltrace2AndSaysWhy) {
  // A metadata the scanner's plans do not cover: a sequence whose length
  // names no integer before it (babeltrace2 refuses it too, in its words).
  const testing::TempDir dir;
  fs::create_directories(dir.file("t"));
  {
    std::ofstream out(dir.file("t/metadata"));
    out << "/* CTF 1.8 */\ntypealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
           "trace { major = 1; minor = 8; byte_order = le; };\n"
           "clock { name = c; freq = 1000000000; };\n"
           "typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := u64c;\n"
           "stream { event.header := struct { uint8_t id; u64c timestamp; }; };\n"
           "event { name = e; id = 0; fields := struct { uint8_t _v[_nothing]; }; };\n";
  }
  const auto r = run_command(tracesync_binary(), {"check", "--format", "json", "--reader", "auto", dir.file("t")});
  const auto report = nlohmann::json::parse(r.out);
  ASSERT_EQ(report["traces"].size(), 1u);
  EXPECT_EQ(report["traces"][0]["reader"], "babeltrace2") << r.out;
  EXPECT_EQ(report["traces"][0]["reader_reason"],
            "--reader auto: the scanner cannot read it (event `e`: sequence `_v`: `_nothing` names no integer before "
            "it)")
      << r.out;
}

TEST(CliReader, AnUnknownReaderIsAUsageError) {
  for (const std::string command : {"sync", "check", "live"}) {
    const auto r = run_command(tracesync_binary(), {command, "--reader", "fast", "/nonexistent"});
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
    EXPECT_NE(r.err.find("--reader must be auto, scanner or babeltrace2, not 'fast'"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace tracesync
