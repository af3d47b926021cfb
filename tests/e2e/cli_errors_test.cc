// SPDX-License-Identifier: EPL-2.0
// Bad input and bad usage: a clear message, a stable non-zero exit code, and
// whatever was computed before the problem still reported.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "support/run_command.h"

namespace tracesync {
namespace {

using nlohmann::json;
using testing::run_command;
using testing::TempDir;
using testing::tracesync_binary;

std::string fixture(const std::string& name) { return std::string(TRACESYNC_FIXTURES_DIR) + "/matches/" + name; }

TEST(CliErrors, MalformedLineNamesTheLineAndKeepsWhatWasRead) {
  const auto r = run_command(tracesync_binary(), {"sync", "--matches", fixture("malformed.txt"), "--format", "json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("malformed.txt:5: SEND_NS '12x' is not a whole number of nanoseconds"), std::string::npos)
      << r.err;
  const json report = json::parse(r.out);
  EXPECT_FALSE(report["complete"]);
  EXPECT_EQ(report["messages"], 3);
  EXPECT_EQ(report["links"][0]["quality"], "ACCURATE");
  ASSERT_EQ(report["problems"].size(), 1u);
  EXPECT_EQ(report["problems"][0]["line"], 5);
}

TEST(CliErrors, EveryKindOfMalformedLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"a 1 b\n", "expected 4 fields"},
      {"a 1 b 2 extra\n", "found 5"},
      {"a 1 b 99999999999999999999\n", "outside the signed 64-bit range"},
      {"a 1.5 b 2\n", "SEND_NS '1.5' is not a whole number"},
      {"a 1 b -\n", "RECV_NS '-' is not a whole number"},
  };
  for (const auto& [line, message] : cases) {
    const auto r = run_command(tracesync_binary(), {"sync", "--matches", "-"}, "# header\n\n" + line);
    EXPECT_EQ(r.exit_code, 2) << line;
    EXPECT_NE(r.err.find("<stdin>:3: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
}

TEST(CliErrors, NegativeAndExtremeTimesAreValid) {
  const auto r = run_command(tracesync_binary(), {"sync", "--matches", "-", "--format", "json"},
                             "a -9223372036854775808 b -9223372036854775000\nb 9223372036854775807 a 9223372036854775000\n");
  // One message each way, the second after the first, bounds no slope: the
  // link is INCOMPLETE and b is not synchronized with a (exit 4).
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_EQ(json::parse(r.out)["messages"], 2);
}

TEST(CliErrors, MissingMatchFile) {
  const auto r = run_command(tracesync_binary(), {"sync", "--matches", "/nonexistent/m.txt"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cannot open match file '/nonexistent/m.txt'"), std::string::npos) << r.err;
}

TEST(CliErrors, MatchesFromAPipeOrAFifo) {
  // `--matches <(cmd)`: a pipe, which cannot seek.
  const auto piped = run_command("/bin/bash", {"-c", "exec \"$0\" sync --matches <(cat \"$1\") --format json",
                                               tracesync_binary(), fixture("two_hosts_hand.txt")});
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(json::parse(piped.out)["complete"], true);
  const TempDir dir;
  const std::string fifo = dir.path() + "/matches";
  const auto fed = run_command("/bin/bash", {"-c", "mkfifo \"$2\" && { cat \"$1\" > \"$2\" & } && exec \"$0\" sync --matches \"$2\" --format json",
                                             tracesync_binary(), fixture("two_hosts_hand.txt"), fifo});
  EXPECT_EQ(fed.exit_code, 0) << fed.err;
  EXPECT_EQ(json::parse(fed.out)["messages"], json::parse(piped.out)["messages"]);
}

TEST(CliErrors, AMatchFileThatIsADirectory) {
  const TempDir dir;
  const auto r = run_command(tracesync_binary(), {"sync", "--matches", dir.path()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--matches '" + dir.path() + "' is a directory"), std::string::npos) << r.err;
}

TEST(CliErrors, InputWithoutNewlinesIsRefusedAtTheLineLimit) {
  const auto r = run_command(tracesync_binary(), {"sync", "--matches", "-", "--format", "json"},
                             "a 1 b 2\n" + std::string(200'000, 'x'));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("<stdin>:2: the line is longer than 65536 bytes, the limit"), std::string::npos) << r.err;
  EXPECT_EQ(json::parse(r.out)["messages"], 1);  // what came before is kept
}

TEST(CliErrors, AHugeBadNumberIsQuotedInPart) {
  const std::string huge(60'000, '7');
  const auto r = run_command(tracesync_binary(), {"sync", "--matches", "-", "--format", "json"},
                             "a 1 b 2\nb 3 a " + huge + "x\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("<stdin>:2: RECV_NS '7777777"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("...' (60001 bytes) is "), std::string::npos) << r.err;
  EXPECT_LT(r.err.size(), 500u);
  const json report = json::parse(r.out);
  ASSERT_EQ(report["problems"].size(), 1u);
  EXPECT_LT(report["problems"][0]["message"].get<std::string>().size(), 200u);
}

TEST(CliErrors, BadOptionsAreUsageErrors) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--algorithm", "magic"}, "unknown algorithm 'magic'"},
      {{"--format", "xml"}, "--format must be text, json, protobuf or html"},
      {{"--window", "0s"}, "--window '0s' is not a positive duration"},
      {{"--window", "0"}, "--window '0' has no unit"},
      {{"--window", "3 parsecs"}, "is not a positive duration"},
      {{"--confidence", "50"}, "90, 95 or 99"},
      {{"--network", "magic"}, "--network must be 'incremental' or 'baseline'"},
      {{"--no-such-option"}, "unrecognised option"},
      {{"--history", "--format", "protobuf"}, "--history prints text or json"},
      {{"--history", "--format", "html"}, "--history prints text or json, not html"},
      {{"--jobs", "-1"}, "--jobs takes a whole number of 0 or more, not '-1'"},
      {{"--jobs=-2"}, "--jobs takes a whole number of 0 or more, not '-2'"},
      {{"-j", " -3"}, "--jobs takes a whole number of 0 or more, not ' -3'"},
      {{"--jobs", "1.5"}, "the argument ('1.5') for option '--jobs' is invalid"},
      {{"--open-timeout", "0ms"}, "--open-timeout '0ms' is not a positive duration"},
      {{"--open-timeout", "soon"}, "--open-timeout 'soon' is not a positive duration"},
      {{"--open-timeout", "1s", "--in-process"}, "--open-timeout needs each trace read in a process of its own"},
  };
  for (const auto& [extra, message] : cases) {
    std::vector<std::string> args = {"sync", "--matches", fixture("two_hosts_hand.txt")};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_command(tracesync_binary(), args);
    EXPECT_EQ(r.exit_code, 2) << extra[0];
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
}

// `read-trace` is the reading process `sync` starts; by hand (no socket on
// descriptor 3) it says so instead of waiting, and it is not in the usage.
TEST(CliErrors, ReadTraceIsNotForPeople) {
  const auto r = run_command(tracesync_binary(), {"read-trace"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is not meant to be run by hand"), std::string::npos) << r.err;
  EXPECT_EQ(run_command(tracesync_binary(), {"--help"}).out.find("read-trace"), std::string::npos);
}

TEST(CliErrors, UnknownReferenceIsReportedButTheResultIsKept) {
  const auto r = run_command(tracesync_binary(),
                             {"sync", "--matches", fixture("two_hosts_hand.txt"), "--reference", "zz", "-f", "json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--reference 'zz' names no clock domain"), std::string::npos) << r.err;
  EXPECT_EQ(json::parse(r.out)["islands"][0]["reference"], "a");
}

TEST(CliErrors, NothingToDo) {
  const auto r = run_command(tracesync_binary(), {"sync"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("nothing to synchronize"), std::string::npos);
}

TEST(CliErrors, HelpAndUnknownCommands) {
  auto r = run_command(tracesync_binary(), {"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("usage: tracesync <command>"), std::string::npos);
  r = run_command(tracesync_binary(), {"sync", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--matches"), std::string::npos);
  EXPECT_NE(r.out.find("exit codes"), std::string::npos);
  r = run_command(tracesync_binary(), {"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown command 'frobnicate'"), std::string::npos);
  r = run_command(tracesync_binary(), {});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(CliErrors, UnwritableOutput) {
  const auto r = run_command(tracesync_binary(), {"sync", "--matches", fixture("two_hosts_hand.txt"), "--output",
                                                  "/nonexistent/dir/report.json"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("could not write the report to '/nonexistent/dir/report.json': No such file or directory"),
            std::string::npos)
      << r.err;
  testing::TempDir dir;
  const auto into_directory =
      run_command(tracesync_binary(), {"sync", "--matches", fixture("two_hosts_hand.txt"), "--output", dir.path()});
  EXPECT_EQ(into_directory.exit_code, 1);
  EXPECT_NE(into_directory.err.find("could not write the report to '" + dir.path() + "': Is a directory"),
            std::string::npos)
      << into_directory.err;
  const auto full = run_command(tracesync_binary(), {"sync", "--matches", fixture("two_hosts_hand.txt"), "--output",
                                                     "/dev/full", "--format", "json"});
  EXPECT_EQ(full.exit_code, 1);
  EXPECT_NE(full.err.find("could not write the report to '/dev/full': No space left on device"), std::string::npos)
      << full.err;
}

// A report or certificate (or an extract, or to-ctf2's metadata) whose
// writing fails midway (here at a file size limit of a block or two, as a
// disk filling up would: each is far longer) leaves the file it was to
// replace as it was, and nothing beside it; the exit code is any unwritable
// output's. Written whole, it replaces the old file, and nothing is left
// beside it either.
TEST(CliErrors, AnOutputThatFailsMidwayLeavesTheOldFileAsItWas) {
  TempDir dir;
  const std::string report = dir.file("report.json");
  const std::string certificate = dir.file("certificate.json");
  const std::string old_text = "the report of an earlier run\n";
  const auto files_in_dir = [&] {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  };
  const std::vector<std::string> both = {"certificate.json", "report.json"};
  // The shell ignores SIGXFSZ (so that a write past the limit fails with
  // EFBIG instead of killing the program), limits the size of any file
  // written, and runs the command.
  const std::string limited = "trap '' XFSZ; ulimit -f 2; exec \"$0\" \"$@\"";
  for (const std::string format : {"json", "text"}) {
    testing::write_file(report, old_text);
    testing::write_file(certificate, old_text);
    const auto r = run_command("/bin/sh", {"-c", limited, tracesync_binary(), "sync", "--matches",
                                           fixture("chain_three_hosts.txt"), "--format", format, "--output", report});
    EXPECT_EQ(r.exit_code, 1) << format << ": " << r.err;
    EXPECT_NE(r.err.find("could not write the report to '" + report + "': File too large"), std::string::npos)
        << format << ": " << r.err;
    EXPECT_EQ(testing::read_file(report), old_text) << format;
    EXPECT_EQ(files_in_dir(), both) << format;
  }
  // (The report to /dev/null, written in place: the tests' standard output is a file.)
  const auto r = run_command("/bin/sh", {"-c", limited, tracesync_binary(), "sync", "--matches",
                                         fixture("chain_three_hosts.txt"), "--format", "json", "--output",
                                         "/dev/null", "--certificate", certificate});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("could not write the certificate to '" + certificate + "': File too large"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(testing::read_file(certificate), old_text);
  EXPECT_EQ(files_in_dir(), both);

  const auto whole = run_command(tracesync_binary(), {"sync", "--matches", fixture("chain_three_hosts.txt"), "--format",
                                                      "json", "--output", report, "--certificate", certificate});
  EXPECT_EQ(whole.exit_code, 0) << whole.err;
  EXPECT_GT(json::parse(testing::read_file(report))["messages"].get<int>(), 0);
  EXPECT_NO_THROW(json::parse(testing::read_file(certificate)));
  EXPECT_EQ(files_in_dir(), both);

  // tracesync extract writes as it reads; to-ctf2 writes the metadata it made.
  TempDir traces;
  const auto simulated = run_command(tracesync_binary(), {"simulate", "--quiet", "--output", traces.file("sim"),
                                                          "--hosts", "2", "--duration", "2s"});
  ASSERT_EQ(simulated.exit_code, 0) << simulated.err;
  const std::string extract = dir.file("sim.tsx");
  const std::string metadata = dir.file("metadata");
  const std::string host_metadata = [&] {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(traces.file("sim"))) {
      if (entry.path().filename() == "metadata") return entry.path().string();
    }
    return std::string();
  }();
  ASSERT_FALSE(host_metadata.empty());
  const std::vector<std::string> all = {"certificate.json", "metadata", "report.json", "sim.tsx"};
  testing::write_file(extract, old_text);
  testing::write_file(metadata, old_text);
  const auto cut_extract =
      run_command("/bin/sh", {"-c", limited, tracesync_binary(), "extract", traces.file("sim"), "-o", extract});
  EXPECT_EQ(cut_extract.exit_code, 1) << cut_extract.err;
  EXPECT_NE(cut_extract.err.find("cannot write " + extract + ": File too large"), std::string::npos) << cut_extract.err;
  EXPECT_EQ(testing::read_file(extract), old_text);
  const auto cut_metadata =
      run_command("/bin/sh", {"-c", limited, tracesync_binary(), "to-ctf2", host_metadata, "-o", metadata});
  EXPECT_EQ(cut_metadata.exit_code, 1) << cut_metadata.err;
  EXPECT_NE(cut_metadata.err.find(metadata + ": cannot be written: File too large"), std::string::npos)
      << cut_metadata.err;
  EXPECT_EQ(testing::read_file(metadata), old_text);
  EXPECT_EQ(files_in_dir(), all);

  const auto whole_extract = run_command(tracesync_binary(), {"extract", traces.file("sim"), "-o", extract});
  EXPECT_EQ(whole_extract.exit_code, 0) << whole_extract.err;
  EXPECT_EQ(testing::read_file(extract).substr(0, 8), std::string("TSYNCX\r\n", 8));
  EXPECT_GT(std::filesystem::file_size(extract), 4096u) << "too short to be cut by the limit above";
  const auto whole_metadata = run_command(tracesync_binary(), {"to-ctf2", host_metadata, "-o", metadata});
  EXPECT_EQ(whole_metadata.exit_code, 0) << whole_metadata.err;
  EXPECT_GT(std::filesystem::file_size(metadata), 4096u) << "too short to be cut by the limit above";
  EXPECT_EQ(files_in_dir(), all);
}

}  // namespace
}  // namespace tracesync

namespace tracesync {
namespace {

TEST(CliBench, SmallRunsPrintTheirFiguresAsJson) {
  auto r = run_command(tracesync_binary(), {"bench", "hull", "--messages", "20000", "--repeat", "1", "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = json::parse(r.out);
  EXPECT_EQ(j["format"], "tracesync-bench-hull/1");
  EXPECT_EQ(j["messages"], 20000);
  EXPECT_GT(j["incremental_messages_per_s"].get<double>(), 0);
  r = run_command(tracesync_binary(), {"bench", "network", "--sizes", "200", "--operations", "2000", "--repeat", "1",
                                       "--baseline-budget", "1s", "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = json::parse(r.out);
  ASSERT_EQ(j["rows"].size(), 1u);
  EXPECT_EQ(j["rows"][0]["vertices"], 200);
  EXPECT_LT(j["rows"][0]["max_transform_error_ns"].get<double>(), 1e-6);
  // Single-threaded figures come from one CPU unless --no-pin.
  EXPECT_NE(r.err.find("measuring on CPU"), std::string::npos) << r.err;
  r = run_command(tracesync_binary(), {"bench", "network", "--sizes", "200", "--operations", "2000", "--repeat", "1",
                                       "--no-baseline", "--no-pin", "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("measuring on CPU"), std::string::npos) << r.err;
}

TEST(CliBench, UsageErrors) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"bench"}, "say what to measure"},
      {{"bench", "frob"}, "unknown benchmark 'frob'"},
      {{"bench", "ingest"}, "ingest needs trace directories"},
      {{"bench", "ingest", "/nonexistent"}, "no trace to read"},
      {{"bench", "network", "--sizes", "10,x"}, "--sizes takes N,N"},
      {{"bench", "network", "--sizes", "-5"}, "--sizes takes N,N"},
      {{"bench", "network", "--sizes", "10,"}, "--sizes takes N,N"},
      {{"bench", "network", "--sizes", "10,18446744073709551617"}, "--sizes takes N,N"},
      {{"bench", "network", "--operations", "0"}, "--operations must be at least 1"},
      {{"bench", "ingest", "/nonexistent", "--jobs", "1,-1"}, "--jobs takes N,N"},
      {{"bench", "ingest", "/nonexistent", "--jobs", "99999999999"}, "--jobs takes N,N"},
      {{"bench", "hull", "--repeat", "0"}, "--repeat must be at least 1"},
      {{"bench", "hull", "extra"}, "unexpected argument 'extra'"},
      // Unsigned options would read these as 2^64 - 5 and the like.
      {{"bench", "hull", "--messages", "-5"}, "--messages takes a whole number of 0 or more, not '-5'"},
      {{"bench", "network", "--operations", "-1"}, "--operations takes a whole number of 0 or more"},
      {{"bench", "hull", "--seed", "-1"}, "--seed takes a whole number of 0 or more"},
      {{"simulate", "-o", "unused", "--hosts", "-1"}, "--hosts takes a whole number of 0 or more, not '-1'"},
      {{"simulate", "-o", "unused", "--cpus", "-4"}, "--cpus takes a whole number of 0 or more"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = run_command(tracesync_binary(), args);
    EXPECT_EQ(r.exit_code, 2) << args.back();
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace tracesync
