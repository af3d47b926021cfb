// SPDX-License-Identifier: EPL-2.0
// Unix manners of the `tracesync` command: --version, help COMMAND, "did you
// mean", durations with units, exit codes that --help and the docs agree on,
// no binary on a terminal, colour only on a terminal.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/run_command.h"

namespace tracesync {
namespace {

using nlohmann::json;
using testing::run_command;
using testing::tracesync_binary;

std::string fixture(const std::string& name) { return std::string(TRACESYNC_FIXTURES_DIR) + "/matches/" + name; }
std::string source_file(const std::string& path) { return std::string(TRACESYNC_FIXTURES_DIR) + "/../" + path; }
bool has_script() { return std::filesystem::exists("/usr/bin/script"); }

TEST(CliManners, VersionInBothSpellings) {
  for (const std::string flag : {"--version", "-V"}) {
    const auto r = run_command(tracesync_binary(), {flag});
    EXPECT_EQ(r.exit_code, 0) << flag;
    EXPECT_TRUE(std::regex_match(r.out, std::regex("tracesync [0-9]+\\.[0-9]+\\.[0-9]+\n"))) << r.out;
  }
}

TEST(CliManners, HelpCommandPrintsThatCommandsUsage) {
  for (const std::string command : {"sync", "check", "simulate", "bench"}) {
    const auto help = run_command(tracesync_binary(), {"help", command});
    const auto flag = run_command(tracesync_binary(), {command, "--help"});
    EXPECT_EQ(help.exit_code, 0) << command;
    EXPECT_EQ(help.out, flag.out) << command;
    EXPECT_NE(help.out.find("usage: tracesync " + command), std::string::npos) << help.out;
  }
  const auto r = run_command(tracesync_binary(), {"help", "snyc"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown command 'snyc'; did you mean 'sync'?"), std::string::npos) << r.err;
}

TEST(CliManners, MistypedCommandGetsASuggestion) {
  auto r = run_command(tracesync_binary(), {"snyc", "--matches", fixture("two_hosts_hand.txt")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("tracesync: unknown command 'snyc'; did you mean 'sync'?"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
  r = run_command(tracesync_binary(), {"simulat"});
  EXPECT_NE(r.err.find("did you mean 'simulate'?"), std::string::npos) << r.err;
  // Nothing near: no suggestion, just the usage.
  r = run_command(tracesync_binary(), {"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("usage: tracesync <command>"), std::string::npos) << r.err;
}

TEST(CliManners, MistypedOptionGetsASuggestion) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"sync", "--fromat", "json"}, "did you mean '--format'?"},
      {{"sync", "--matchs", "x"}, "did you mean '--matches'?"},
      {{"sync", "--open-timout=3s"}, "did you mean '--open-timeout'?"},
      {{"simulate", "--hots", "3"}, "did you mean '--hosts'?"},
  };
  for (const auto& [arguments, suggestion] : cases) {
    const auto r = run_command(tracesync_binary(), arguments);
    EXPECT_EQ(r.exit_code, 2) << arguments[1];
    EXPECT_NE(r.err.find(suggestion), std::string::npos) << r.err;
  }
}

// A bare number in a duration option once meant nanoseconds, silently.
TEST(CliManners, DurationsRequireAUnit) {
  const std::vector<std::vector<std::string>> cases = {
      {"sync", "--matches", fixture("two_hosts_hand.txt"), "--window", "3"},
      {"sync", "--matches", fixture("two_hosts_hand.txt"), "--match-horizon", "600"},
      {"sync", "/tmp", "--open-timeout", "300"},
      {"simulate", "--output", "/tmp/never-written", "--duration", "4"},
      {"simulate", "--output", "/tmp/never-written", "--min-delay", "40"},
      {"bench", "network", "--baseline-budget", "1"},
      {"bench", "accuracy", "--durations", "60"},
  };
  for (const auto& arguments : cases) {
    const std::string& value = arguments.back();
    const std::string& option = arguments[arguments.size() - 2];
    const auto r = run_command(tracesync_binary(), arguments);
    EXPECT_EQ(r.exit_code, 2) << option;
    EXPECT_NE(r.err.find(option + " '" + value + "' has no unit: write it with one of ns, us, ms, s, min or h (e.g. " +
                         value + "s)"),
              std::string::npos)
        << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  EXPECT_FALSE(std::filesystem::exists("/tmp/never-written"));
  // With a unit, each unit means what it says.
  const std::vector<std::pair<std::string, int64_t>> windows = {
      {"3000000000ns", 3'000'000'000}, {"3000000us", 3'000'000'000}, {"3000ms", 3'000'000'000},
      {"3s", 3'000'000'000},           {"0.05min", 3'000'000'000},   {"0.001h", 3'600'000'000}};
  for (const auto& [window, ns] : windows) {
    const auto r = run_command(tracesync_binary(), {"sync", "--matches", fixture("two_hosts_hand.txt"), "--algorithm",
                                                    "window-independent", "--window", window, "--format", "json"});
    // (Windows never close on a match stream, so the hosts stay apart: exit 4.)
    ASSERT_NE(r.exit_code, 2) << window << r.err;
    EXPECT_EQ(json::parse(r.out)["options"]["window_ns"], ns) << window;
  }
}

// The list in --help is the list in docs/exit-codes.md, line for line.
TEST(CliManners, ExitCodesInHelpAgreeWithTheDocs) {
  const auto r = run_command(tracesync_binary(), {"--help"});
  ASSERT_EQ(r.exit_code, 0);
  std::ifstream doc_file(source_file("docs/exit-codes.md"));
  ASSERT_TRUE(doc_file) << "docs/exit-codes.md";
  std::stringstream doc;
  doc << doc_file.rdbuf();
  const std::regex help_line("^  ([0-9]+) +(.+)$");
  std::istringstream lines(r.out.substr(r.out.find("exit codes")));
  std::string line;
  int listed = 0;
  std::getline(lines, line);
  while (std::getline(lines, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, help_line)) break;
    ++listed;
    EXPECT_NE(doc.str().find("| " + m[1].str() + " | " + m[2].str() + " |"), std::string::npos) << line;
  }
  EXPECT_EQ(listed, 8) << r.out;  // 0-6 and 130
  // Each command's help lists the same codes.
  const auto sync_help = run_command(tracesync_binary(), {"sync", "--help"});
  EXPECT_NE(sync_help.out.find(r.out.substr(r.out.find("exit codes"))), std::string::npos) << sync_help.out;
}

TEST(CliManners, ProtobufToATerminalIsRefusedAsBadUsage) {
  if (!has_script()) GTEST_SKIP() << "script(1) from bsdutils is not installed";
  testing::TempDir dir;
  const std::string command = tracesync_binary() + " sync --matches " + fixture("two_hosts_hand.txt") + " --format protobuf";
  const auto r = run_command("/usr/bin/script", {"-qfec", command, dir.file("tty.log")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(testing::read_file(dir.file("tty.log")).find("refusing to write binary protobuf to a terminal"),
            std::string::npos);
}

TEST(CliManners, MatchesOnADirectorySaysSo) {
  testing::TempDir dir;
  const auto r = run_command(tracesync_binary(), {"sync", "--matches", dir.path()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--matches '" + dir.path() + "' is a directory"), std::string::npos) << r.err;
}

// one_direction.txt leaves y not synchronized: its words are painted red on
// a terminal, never in a pipe, never with NO_COLOR.
TEST(CliManners, ColourOnlyOnATerminalWithoutNoColor) {
  const std::vector<std::string> arguments = {"sync", "--matches", fixture("one_direction.txt")};
  const auto piped = run_command(tracesync_binary(), arguments);
  EXPECT_EQ(piped.exit_code, 4);
  EXPECT_NE(piped.out.find("not synchronized"), std::string::npos) << piped.out;
  EXPECT_EQ(piped.out.find('\033'), std::string::npos);
  EXPECT_EQ(piped.err.find('\033'), std::string::npos);
  if (!has_script()) GTEST_SKIP() << "script(1) from bsdutils is not installed";
  testing::TempDir dir;
  const std::string command = tracesync_binary() + " sync --matches " + fixture("one_direction.txt");
  auto r = run_command("/usr/bin/script", {"-qfec", "env -u NO_COLOR TERM=xterm " + command, dir.file("colour.log")});
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_NE(testing::read_file(dir.file("colour.log")).find("\033[1;31mnot synchronized\033[0m"), std::string::npos);
  r = run_command("/usr/bin/script", {"-qfec", "env NO_COLOR=1 TERM=xterm " + command, dir.file("plain.log")});
  EXPECT_EQ(r.exit_code, 4);
  const std::string plain = testing::read_file(dir.file("plain.log"));
  EXPECT_NE(plain.find("not synchronized"), std::string::npos);
  EXPECT_EQ(plain.find("\033[1;31m"), std::string::npos);
}

}  // namespace
}  // namespace tracesync
