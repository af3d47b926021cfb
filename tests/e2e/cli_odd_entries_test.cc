// SPDX-License-Identifier: EPL-2.0
// `tracesync sync` on trace directories holding what is not a trace's file
// (issue 20, item 11): a stream file replaced by an empty file, a FIFO,
// /dev/zero or /dev/null through a link, a link to nothing or a directory;
// a `metadata` that is a directory or a link loop. Each is named as a
// problem; the rest is synchronized; exit 3. In reading processes and
// --in-process alike. The traces are written by `tracesync simulate` into a
// temporary directory.

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>
#include <nlohmann/json.hpp>

#include "support/run_command.h"

namespace tracesync {
namespace {

using nlohmann::json;
using testing::CommandResult;
using testing::run_command;
using testing::tracesync_binary;
namespace fs = std::filesystem;

void simulate(const testing::TempDir& dir, const std::vector<std::string>& options) {
  std::vector<std::string> args = {"simulate", "--quiet", "--output", dir.path()};
  args.insert(args.end(), options.begin(), options.end());
  const CommandResult r = run_command(tracesync_binary(), args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

// `tracesync sync --format json DIR` (and --in-process); the report, with
// what stderr said on failure. A FIFO opened for reading would block: the
// run would never end, and the test with it.
CommandResult sync(const std::string& dir, bool in_process) {
  std::vector<std::string> args = {"sync", "--format", "json", dir};
  if (in_process) args.push_back("--in-process");
  return run_command(tracesync_binary(), args);
}

// What must not change when an odd entry takes a stream file's place: each
// trace's reading and transform, the links, the matching.
json what_was_synchronized(const json& report) {
  return {{"traces", report["traces"]}, {"links", report["links"]}, {"matching", report["matching"]}};
}

const char* mode(bool in_process) { return in_process ? "in-process" : "in reading processes"; }

// babeltrace2 leaves these out without a word (it checks with stat, never
// opening them); tracesync names each, and reads the rest of the trace
// exactly as it would without that entry.
TEST(OddEntries, InPlaceOfAStreamFileAreNamedAndTheRestOfTheTraceIsRead) {
  testing::TempDir dir;
  // Two CPUs: host1 keeps channel0_0 (its receives from host0 are on it).
  simulate(dir, {"--hosts", "2", "--duration", "1s", "--cpus", "2"});
  const std::string odd = dir.file("host1/kernel/channel0_1");
  fs::rename(odd, dir.file("channel0_1.saved"));  // out of any trace directory
  std::vector<json> without(2);
  for (const bool in_process : {false, true}) {
    const CommandResult r = sync(dir.path(), in_process);
    ASSERT_EQ(r.exit_code, 0) << mode(in_process) << ": " << r.err;
    without[in_process ? 1 : 0] = json::parse(r.out);
  }
  ASSERT_EQ(without[0]["traces"].size(), 2u);
  EXPECT_TRUE(without[0]["traces"][1]["synchronized"].get<bool>()) << without[0]["traces"][1];

  const std::vector<std::pair<std::string, std::string>> cases = {
      {"empty", "is empty: a stream file with no packet"},
      {"directory", "is a directory, not a stream file"},
      {"fifo", "is a FIFO, not a stream file (not opened: that could block)"},
      {"/dev/zero", "is a symbolic link to /dev/zero, a character device, not a stream file (not opened)"},
      {"/dev/null", "is a symbolic link to /dev/null, a character device, not a stream file (not opened)"},
      {"/nonexistent/channel0_1", "is a symbolic link to /nonexistent/channel0_1, which does not exist"},
  };
  for (const auto& [kind, what] : cases) {
    if (kind == "empty") {
      testing::write_file(odd, "");
    } else if (kind == "directory") {
      fs::create_directory(odd);
    } else if (kind == "fifo") {
      ASSERT_EQ(mkfifo(odd.c_str(), 0600), 0);
    } else {
      fs::create_symlink(kind, odd);
    }
    for (const bool in_process : {false, true}) {
      const std::string where = kind + ", " + mode(in_process);
      const CommandResult r = sync(dir.path(), in_process);
      EXPECT_EQ(r.exit_code, 3) << where << ": " << r.err;
      const std::string problem = what + "; the rest of the trace is read without it";
      EXPECT_NE(r.err.find("tracesync: " + odd + ": " + problem + "\n"), std::string::npos) << where << ": " << r.err;
      const json report = json::parse(r.out);
      ASSERT_EQ(report["problems"].size(), 1u) << where << ": " << report["problems"];
      EXPECT_EQ(report["problems"][0]["source"], odd) << where;
      EXPECT_EQ(report["problems"][0]["message"], problem) << where;
      EXPECT_FALSE(report["problems"][0]["skipped"].get<bool>()) << where;
      EXPECT_FALSE(report["complete"].get<bool>()) << where;  // a problem was met
      EXPECT_EQ(what_was_synchronized(report), what_was_synchronized(without[in_process ? 1 : 0])) << where;
    }
    fs::remove(odd);
  }
}

// A `metadata` that is a directory, or a link to itself: that trace is
// skipped with its metadata named, and the others are synchronized.
TEST(OddEntries, AMetadataThatIsNoFileSkipsItsTraceAndTheRestIsSynchronized) {
  testing::TempDir dir;
  simulate(dir, {"--hosts", "3", "--duration", "1s"});  // a chain: host2 at its end
  const std::string metadata = dir.file("host2/kernel/metadata");
  fs::remove(metadata);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"directory", "is not a regular file: not a trace's metadata"},
      {"loop", "cannot be read: Too many levels of symbolic links"},
  };
  for (const auto& [kind, problem] : cases) {
    if (kind == "directory") {
      fs::create_directory(metadata);
    } else {
      fs::create_symlink("metadata", metadata);
    }
    for (const bool in_process : {false, true}) {
      const std::string where = kind + ", " + mode(in_process);
      const CommandResult r = sync(dir.path(), in_process);
      EXPECT_EQ(r.exit_code, 3) << where << ": " << r.err;
      EXPECT_NE(r.err.find("tracesync: skipped " + metadata + ": " + problem + "\n"), std::string::npos)
          << where << ": " << r.err;
      const json report = json::parse(r.out);
      ASSERT_EQ(report["problems"].size(), 1u) << where << ": " << report["problems"];
      EXPECT_EQ(report["problems"][0]["source"], metadata) << where;
      EXPECT_TRUE(report["problems"][0]["skipped"].get<bool>()) << where;
      ASSERT_EQ(report["traces"].size(), 2u) << where;
      for (const json& trace : report["traces"]) {
        EXPECT_NE(trace["hostname"], "host2") << where;
        EXPECT_TRUE(trace["synchronized"].get<bool>()) << where << ": " << trace;
      }
    }
    fs::remove_all(metadata);
  }
}

}  // namespace
}  // namespace tracesync
