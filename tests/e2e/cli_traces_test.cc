// SPDX-License-Identifier: EPL-2.0
// `tracesync sync TRACE_DIR...` end to end: the real LTTng 2.1 fixtures
// (when ../shared is present), and experiments written by `tracesync
// simulate`, checked against their ground truth.

#include <gtest/gtest.h>

#include <quadmath.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <utility>
#include <nlohmann/json.hpp>

#include "model/linear_transform.h"
#include "model/quad.h"
#include "support/run_command.h"
#include "support/sanitized.h"

namespace tracesync {
namespace {

using nlohmann::json;
using testing::CommandResult;
using testing::run_command;
using testing::run_command_with_signals;
using testing::tracesync_binary;
namespace fs = std::filesystem;

model::Quad decimal(const json& j) { return *model::parse_decimal(j.get<std::string>()); }

// Writes a simulated experiment into dir (quietly); fails the test if it cannot.
json simulate(const testing::TempDir& dir, std::vector<std::string> options) {
  std::vector<std::string> args = {"simulate", "--quiet", "--output", dir.path()};
  args.insert(args.end(), options.begin(), options.end());
  const auto r = run_command(tracesync_binary(), args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(testing::read_file(dir.file("truth.json")));
}

json sync(const std::vector<std::string>& paths, std::vector<std::string> extra = {}, int expected_exit = 0) {
  std::vector<std::string> args = {"sync", "--format", "json"};
  args.insert(args.end(), paths.begin(), paths.end());
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_command(tracesync_binary(), args);
  EXPECT_EQ(r.exit_code, expected_exit) << r.err;
  return r.out.empty() ? json() : json::parse(r.out);
}

model::LinearTransform to_host0(const json& host) {
  const json& t = host["transform_to_host0"];
  return {decimal(t["slope"]), decimal(t["offset"])};
}

// Every trace's reported transform agrees with the truth, at both ends of
// its span, within its reported uncertainty (+1 ns for the integer clocks).
void expect_truth_within_uncertainty(const json& report, const json& truth) {
  std::map<std::string, model::LinearTransform> truth_by_domain;
  for (const json& h : truth["hosts"]) truth_by_domain[h["domain"]] = to_host0(h);
  std::map<int, std::string> reference_of_island;
  for (const json& island : report["islands"]) reference_of_island[island["id"]] = island["reference"];
  ASSERT_EQ(report["traces"].size(), truth["hosts"].size());
  for (const json& t : report["traces"]) {
    const model::LinearTransform host_to_0 = truth_by_domain.at(t["domain"]);
    const model::LinearTransform reference_to_0 = truth_by_domain.at(reference_of_island.at(t["island"]));
    const model::LinearTransform true_transform = reference_to_0.inverse().after(host_to_0);
    const model::LinearTransform reported{decimal(t["slope"]), decimal(t["offset"])};
    for (const char* end : {"first_ns", "last_ns"}) {
      const int64_t local = t[end].get<int64_t>();
      EXPECT_LE(fabsq(reported.apply(local) - true_transform.apply(local)), t["uncertainty_ns"].get<double>() + 1)
          << t["hostname"] << " at " << end;
    }
  }
}

TEST(SyncTraces, SharedLttng21FixturesGiveAnAccurateLink) {
  const std::string fixtures = std::string(TRACESYNC_SHARED_DIR) + "/fixtures/lttng-modules-2.1-addons";
  if (!fs::exists(fixtures)) GTEST_SKIP() << "shared fixtures absent: " << fixtures;
  const json report = sync({fixtures});
  ASSERT_EQ(report["traces"].size(), 2u);
  ASSERT_EQ(report["links"].size(), 1u);
  const json& link = report["links"][0];
  EXPECT_EQ(link["quality"], "ACCURATE");
  EXPECT_EQ(link["messages"], 46);
  EXPECT_TRUE(link["in_tree"]);
  // Counted independently from babeltrace2 text dumps (see the ingest tests).
  EXPECT_EQ(report["matching"]["matches"], 46);
  EXPECT_EQ(report["matching"]["sends"], 49);
  EXPECT_EQ(report["matching"]["receives"], 51);
  EXPECT_EQ(report["matching"]["unmatched_sends"], 3);
  EXPECT_EQ(report["matching"]["unmatched_receives"], 5);
  std::set<std::string> hosts;
  for (const json& t : report["traces"]) hosts.insert(t["hostname"]);
  EXPECT_EQ(hosts, (std::set<std::string>{"VM1", "VM3"}));
  EXPECT_TRUE(report["complete"]);
}

TEST(SyncTraces, GeneratedExperimentsOfTwoToTwentyHosts) {
  struct Case {
    int hosts;
    const char* topology;
  };
  const Case cases[] = {{2, "pairs"}, {5, "chain"}, {8, "star"}, {12, "random"}, {16, "fat-tree"}, {20, "random"}};
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.hosts) + " hosts, " + c.topology);
    testing::TempDir dir;
    const json truth = simulate(dir, {"--hosts", std::to_string(c.hosts), "--topology", c.topology, "--duration", "4s",
                                      "--seed", std::to_string(c.hosts), "--filler-ratio", "1"});
    const json report = sync({dir.path()});
    EXPECT_TRUE(report["complete"]);
    // Every simulated link carries traffic both ways: all are ACCURATE.
    EXPECT_EQ(report["links"].size(), truth["links"].size());
    for (const json& link : report["links"]) EXPECT_EQ(link["quality"], "ACCURATE") << link["a"] << "-" << link["b"];
    EXPECT_EQ(report["islands"].size(), 1u);
    expect_truth_within_uncertainty(report, truth);
  }
}

TEST(SyncTraces, TheIndirectPathThroughBetterLinksIsChosen) {
  // A triangle (random topology on 3 hosts with every link) where the
  // direct link 0-2 has slow, noisy delays: the tree goes through host 1.
  testing::TempDir dir;
  const json truth = simulate(dir, {"--hosts", "3", "--topology", "random", "--random-degree", "2", "--duration", "4s",
                                    "--link-delay", "0-2:400:3000", "--loaded-hosts", "0", "--seed", "5"});
  ASSERT_EQ(truth["links"].size(), 3u) << "the topology must be a triangle";
  const json report = sync({dir.path()});
  std::map<std::string, std::string> host_of_domain;
  for (const json& h : truth["hosts"]) host_of_domain[h["domain"]] = h["name"];
  for (const json& link : report["links"]) {
    const std::set<std::string> ends = {host_of_domain[link["a"]], host_of_domain[link["b"]]};
    const bool direct = ends == std::set<std::string>{"host0", "host2"};
    EXPECT_EQ(link["in_tree"], !direct) << *ends.begin() << "-" << *ends.rbegin();
  }
  expect_truth_within_uncertainty(report, truth);
}

TEST(SyncTraces, OptionsThatMustNotChangeTheResult) {
  testing::TempDir dir;
  simulate(dir, {"--hosts", "4", "--topology", "star", "--duration", "3s", "--ipv6-fraction", "0.5"});
  const json base = sync({dir.path()});
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{"--jobs", "1"}, {"--match-key", "strict"}, {"--match-horizon", "30s"}}) {
    const json other = sync({dir.path()}, extra);
    EXPECT_EQ(other["traces"], base["traces"]) << extra[0];
    EXPECT_EQ(other["matching"]["matches"], base["matching"]["matches"]) << extra[0];
  }
}

// Readers run in parallel and hand their messages to the estimators as
// they settle; the estimators see them in one order whatever the threads
// did, so every figure of the report, down to how many messages moved a
// bound, is the same on every run and for any number of jobs.
TEST(SyncTraces, TheReportIsTheSameForAnyNumberOfJobs) {
  testing::TempDir dir;
  simulate(dir, {"--hosts", "8", "--topology", "random", "--duration", "4s", "--seed", "5"});
  json one_job = sync({dir.path()}, {"--jobs", "1"});
  ASSERT_EQ(one_job["options"]["jobs"], 1);
  one_job["options"].erase("jobs");
  for (const char* jobs : {"2", "3", "8", "8"}) {
    json other = sync({dir.path()}, {"--jobs", jobs});
    other["options"].erase("jobs");
    EXPECT_EQ(other, one_job) << jobs << " jobs";
  }
}

// A clock further ahead than the horizon (an hour): the horizon cuts the
// keys by time as recorded, the same way whatever the reading order, so the
// report is still one for any --jobs, in-process or not, run after run.
TEST(SyncTraces, AClockAheadByMoreThanTheHorizonStillGivesOneReport) {
  testing::TempDir dir;
  simulate(dir, {"--hosts", "4", "--topology", "chain", "--duration", "4s", "--seed", "9", "--clock",
                 "2:3600000000000:0"});
  for (const char* horizon : {"10min", "1s"}) {
    // host2's messages all expire: it is not synchronized with the rest (exit 4).
    json first = sync({dir.path()}, {"--jobs", "1", "--match-horizon", horizon}, 4);
    first.erase("options");
    EXPECT_GT(first["matching"]["expired"].get<int>(), 0) << horizon << ": host2's messages cannot pair";
    EXPECT_GT(first["matching"]["matches"].get<int>(), 0) << horizon;
    for (const std::vector<std::string>& extra :
         {std::vector<std::string>{"--jobs", "2"}, {"--jobs", "3"}, {"--jobs", "3"}, {"--jobs", "4", "--in-process"},
          {"--jobs", "1", "--in-process"}}) {
      std::vector<std::string> options = extra;
      options.insert(options.end(), {"--match-horizon", horizon});
      json other = sync({dir.path()}, options, 4);
      other.erase("options");
      EXPECT_EQ(other, first) << horizon << ", " << extra[0] << " " << extra[1] << (extra.size() > 2 ? " in-process" : "");
    }
  }
}

TEST(SyncTraces, DomainOverrideMergesTwoHostsIntoOneDomain) {
  testing::TempDir dir;
  simulate(dir, {"--hosts", "3", "--topology", "chain", "--duration", "2s"});
  // host0 and host1 declared one clock (a directory above a trace selects
  // it): their messages are then within one domain.
  const json report =
      sync({dir.path()}, {"--domain", dir.file("host0") + "=shared", "--domain", dir.file("host1/kernel") + "=shared"});
  std::set<std::string> domains;
  for (const json& t : report["traces"]) domains.insert(t["domain"]);
  EXPECT_EQ(domains.size(), 2u);
  EXPECT_TRUE(domains.contains("shared"));
  EXPECT_GT(report["matching"]["same_domain"].get<int>(), 0);
  EXPECT_EQ(report["links"].size(), 1u);
  EXPECT_EQ(report["options"].value("match_key", ""), "tc");
}

// Every trace being read holds descriptors (a reading process's socket and
// its standard-error file; in-process, its stream files), and all are opened
// at the start. Under a soft limit they would exceed, sync raises the soft
// limit to the hard one rather than skip traces; under a hard limit, the
// traces that do not fit are skipped, named, with the reason.
TEST(SyncTraces, ManyTracesFitUnderALowSoftOpenFileLimit) {
  // Out of descriptors, UBSan's vptr check cannot probe memory (it writes
  // to a pipe) and reports a valid object as having an invalid vptr.
  TRACESYNC_SKIP_UNDER_SANITIZERS("it runs tracesync out of file descriptors, which UBSan's own checks need");
  testing::TempDir dir;
  simulate(dir, {"--hosts", "40", "--topology", "chain", "--duration", "10s", "--rate", "50", "--cpus", "2"});
  for (const std::string mode : {"", "--in-process"}) {
    // 40 traces need 80 descriptors either way with babeltrace2, which holds
    // its stream files open, and the process a few more.
    const auto run_under = [&](const std::string& limit, const std::string& reader) {
      return run_command("/bin/sh", {"-c", "ulimit " + limit + " 48 && exec '" + tracesync_binary() +
                                               "' sync --reader " + reader + " --jobs 1 --format json " + mode + " '" +
                                               dir.path() + "'"});
    };
    const auto hard = run_under("-n", "babeltrace2");
    EXPECT_EQ(hard.exit_code, 3) << mode << "\n" << hard.err;
    EXPECT_NE(hard.err.find("Too many open files"), std::string::npos) << mode << "\n" << hard.err;
    const auto soft = run_under("-S -n", "babeltrace2");
    ASSERT_EQ(soft.exit_code, 0) << mode << "\n" << soft.err;
    EXPECT_EQ(json::parse(soft.out)["traces"].size(), 40u) << mode;
    // The scanner (the default) closes each stream file once mapped: they
    // fit under the hard limit.
    const auto scanned = run_under("-n", "auto");
    ASSERT_EQ(scanned.exit_code, 0) << mode << "\n" << scanned.err;
    EXPECT_EQ(json::parse(scanned.out)["traces"].size(), 40u) << mode;
  }
}

TEST(SyncTraces, DamagedTracesAreSkippedAndTheRestIsSynchronized) {
  testing::TempDir dir;
  const json truth = simulate(dir, {"--hosts", "4", "--topology", "star", "--duration", "3s", "--seed", "9"});
  // host3's metadata is garbage; host2's first stream is cut in the middle of a packet.
  testing::write_file(dir.file("host3/kernel/metadata"), "this is not CTF metadata\n");
  const std::string stream = dir.file("host2/kernel/channel0_0");
  fs::resize_file(stream, fs::file_size(stream) / 2 + 3);
  const auto r = run_command(tracesync_binary(), {"sync", "--format", "json", dir.path()});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("host3/kernel"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("host2/kernel"), std::string::npos) << r.err;
  const json report = json::parse(r.out);
  EXPECT_FALSE(report["complete"]);
  EXPECT_GE(report["problems"].size(), 2u);
  // host0 and host1 still synchronized, accurately.
  bool found = false;
  for (const json& link : report["links"]) {
    if (link["quality"] == "ACCURATE" && link["in_tree"]) found = true;
  }
  EXPECT_TRUE(found);
}

// Garbage in a packet's context makes babeltrace2 2.0 fail an assertion
// (abort) rather than report an error; the `babeltrace2` command dies the
// same way on these files. Runs tracesync with `extra` on host1's stream
// damaged at 7 offsets; returns the runs.
std::vector<CommandResult> runs_on_garbage_babeltrace2_aborts_on(testing::TempDir& dir,
                                                                  const std::vector<std::string>& extra) {
  simulate(dir, {"--hosts", "3", "--topology", "star", "--duration", "1s", "--rate", "50", "--cpus", "1"});
  const std::string stream = dir.file("host1/kernel/channel0_0");
  const std::string clean = testing::read_file(stream);
  const std::string garbage = "\x5b\x62\x90\x6a\xff\x8f\x1f\x83\xff\xf7\x11\xa0\x75\x2d\x46\x2e\x75\xb5\xe5\x6f\xb7";
  std::vector<CommandResult> runs;
  for (std::size_t at = 24; at <= 48; at += 4) {  // the packet header is 8 bytes, its context 40 more
    std::string damaged = clean;
    damaged.insert(at, garbage);
    testing::write_file(stream, damaged);
    // babeltrace2's own behaviour is under test (the default reader, the
    // scanner, names the damage and reads on).
    std::vector<std::string> arguments = {"sync", "--reader", "babeltrace2", "--format", "json", dir.path()};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    runs.push_back(run_command(tracesync_binary(), arguments));
  }
  testing::write_file(stream, clean);
  return runs;
}

// Each trace is read in a process of its own: babeltrace2 aborting costs
// that trace only. It is reported with how its reading ended, and the other
// hosts are synchronized (exit 3).
TEST(SyncTraces, ATraceBabeltrace2AbortsOnIsSkippedAndTheRestSynchronized) {
  testing::TempDir dir;
  int aborted = 0;
  for (const CommandResult& r : runs_on_garbage_babeltrace2_aborts_on(dir, {})) {
    ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 3) << "exit " << r.exit_code << "\n" << r.err;
    if (r.err.find("babeltrace2 aborted (SIGABRT) on damaged data") == std::string::npos) continue;
    ++aborted;
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("tracesync: skipped " + dir.file("host1/kernel") + ": cannot be opened: babeltrace2 aborted"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("Assertion `"), std::string::npos) << r.err;  // babeltrace2's own words, quoted
    const json report = json::parse(r.out);
    std::set<std::string> hosts;
    for (const json& trace : report["traces"]) hosts.insert(trace.value("hostname", ""));
    EXPECT_EQ(hosts, (std::set<std::string>{"host0", "host2"})) << r.out;
    bool synchronized = false;
    for (const json& link : report["links"]) synchronized = synchronized || link["quality"] == "ACCURATE";
    EXPECT_TRUE(synchronized) << r.out;
  }
  EXPECT_GT(aborted, 0) << "no insertion made babeltrace2 abort: the case under test did not occur";
}

// With --jobs 1 the three traces share one reading process, which
// babeltrace2's abort on host1 kills (twice: host1 is tried once more): the
// other two are resumed in a new process, and the report is the one of
// --jobs 3, where host1 has a process of its own.
TEST(SyncTraces, AnAbortInAProcessSharedWithOtherTracesCostsOnlyItsTrace) {
  testing::TempDir dir, same;  // the same simulation (the same seed: the same bytes)
  const std::vector<CommandResult> shared = runs_on_garbage_babeltrace2_aborts_on(dir, {"--jobs", "1"});
  const std::vector<CommandResult> apart = runs_on_garbage_babeltrace2_aborts_on(same, {"--jobs", "3"});
  ASSERT_EQ(shared.size(), apart.size());
  int aborted = 0;
  for (std::size_t i = 0; i < shared.size(); ++i) {
    ASSERT_TRUE(shared[i].exit_code == 0 || shared[i].exit_code == 3) << shared[i].err;
    EXPECT_EQ(shared[i].exit_code, apart[i].exit_code) << shared[i].err << apart[i].err;
    if (shared[i].err.find("babeltrace2 aborted (SIGABRT) on damaged data") != std::string::npos) ++aborted;
    json one = json::parse(shared[i].out);
    json three = json::parse(apart[i].out);
    for (json* report : {&one, &three}) {
      (*report)["options"].erase("jobs");
      // The experiment's directory, in paths, names and the problems' words.
      const fs::path root = report == &one ? dir.path() : same.path();
      std::string text = std::regex_replace(report->dump(), std::regex(root.string()), "DIR");
      *report = json::parse(std::regex_replace(text, std::regex(root.filename().string()), "DIR"));
    }
    EXPECT_TRUE(one == three) << "damage " << i << ": --jobs 1\n" << one.dump() << "\n--jobs 3\n" << three.dump();
  }
  EXPECT_GT(aborted, 0) << "no insertion made babeltrace2 abort: the case under test did not occur";
}

// With --in-process, nothing can go on after babeltrace2 aborts: tracesync
// says which trace it was reading and exits with the internal-error code
// instead of a core dump.
TEST(SyncTraces, InProcessATraceThatAbortsBabeltrace2IsNamed) {
  testing::TempDir dir;
  int aborted = 0;
  for (const CommandResult& r : runs_on_garbage_babeltrace2_aborts_on(dir, {"--in-process"})) {
    if (r.exit_code == 1) {
      ++aborted;
      EXPECT_NE(r.err.find("tracesync: aborted while reading " + dir.file("host1/kernel") + "\n"), std::string::npos)
          << r.err;
      EXPECT_NE(r.err.find("leave that trace out"), std::string::npos) << r.err;
    } else {
      EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 3) << "exit " << r.exit_code << "\n" << r.err;
    }
  }
  EXPECT_GT(aborted, 0) << "no insertion made babeltrace2 abort: the case under test did not occur";
}

// Random damage to one file of a small experiment (bit flips, zeroed runs,
// garbage inserted, cuts), seeded: tracesync never dies by a signal. It
// synchronizes (0), or skips or cuts short the damaged trace and says why
// (3); with --in-process it may also name the trace babeltrace2 aborted on
// (1). Round 143 of this seed makes babeltrace2 2.0.4 itself loop, taking
// memory without end, while it opens the trace (README, Damaged traces):
// in-process runs stop before it; the others pass it with --open-timeout.
void expect_random_damage_never_crashes(bool in_process, int rounds) {
  testing::TempDir dir;
  simulate(dir, {"--hosts", "3", "--duration", "1s", "--rate", "50", "--cpus", "2"});
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir.path())) {
    if (entry.is_regular_file() && entry.path().parent_path().filename() == "kernel") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files.size(), 9u);  // metadata and two streams per host
  std::mt19937_64 random(2026);
  const auto below = [&](std::size_t n) { return static_cast<std::size_t>(random() % n); };
  std::map<int, int> exits;
  int stopped_openings = 0;
  for (int round = 0; round < rounds; ++round) {
    const std::string& file = files[below(files.size())];
    const std::string clean = testing::read_file(file);
    std::string damaged = clean;
    const std::size_t at = below(damaged.size());
    switch (below(4)) {
      case 0:
        for (int flips = 1 + static_cast<int>(below(8)); flips > 0; --flips) {
          damaged[below(damaged.size())] ^= static_cast<char>(1 << below(8));
        }
        break;
      case 1: damaged.replace(at, std::min<std::size_t>(1 + below(64), damaged.size() - at), 1 + below(64), '\0'); break;
      case 2:
        for (std::size_t n = 1 + below(32); n > 0; --n) {
          damaged.insert(damaged.begin() + static_cast<std::ptrdiff_t>(at), static_cast<char>(below(256)));
        }
        break;
      default: damaged.resize(at); break;
    }
    testing::write_file(file, damaged);
    std::vector<std::string> arguments = {"sync", "--format", "json", dir.path()};
    if (in_process) {
      arguments.push_back("--in-process");
    } else {
      arguments.insert(arguments.end(), {"--open-timeout", "2s"});
    }
    const auto r = run_command(tracesync_binary(), arguments);
    testing::write_file(file, clean);
    ++exits[r.exit_code];
    if (r.err.find("babeltrace2 was still opening it after 2 s") != std::string::npos) ++stopped_openings;
    const std::string where = "round " + std::to_string(round) + ", " + file + ": exit " + std::to_string(r.exit_code);
    EXPECT_TRUE(r.exit_code == 0 || (in_process && r.exit_code == 1) || r.exit_code == 3) << where << "\n" << r.err;
    if (r.exit_code == 1) {
      EXPECT_NE(r.err.find("tracesync: aborted while reading " + fs::path(file).parent_path().string()), std::string::npos)
          << where << "\n" << r.err;
    }
    if (r.exit_code == 3) {
      EXPECT_NE(r.err.find(fs::path(file).parent_path().string()), std::string::npos) << where << "\n" << r.err;
    }
  }
  EXPECT_GT(exits[3], 0);  // the damage was seen, not only shrugged off
  ::testing::Test::RecordProperty("stopped_openings", stopped_openings);
}

TEST(SyncTraces, RandomDamageNeverCrashes) { expect_random_damage_never_crashes(false, 200); }
TEST(SyncTraces, InProcessRandomDamageNeverCrashes) { expect_random_damage_never_crashes(true, 140); }

// Ctrl-C stops the reading (the reading processes are killed) and the
// report of what was read is printed, marked incomplete (exit 130). How
// many traces were opened by then depends on the machine's speed (each
// needs its reading process started): at least one, each with its path.
TEST(SyncTraces, CtrlCReportsWhatWasRead) {
  testing::TempDir dir;
  simulate(dir, {"--hosts", "16", "--topology", "random", "--duration", "30s", "--rate", "300"});
  // A sanitized reading process takes seconds to start under load: at 250 ms
  // none had opened its trace yet.
  const std::chrono::milliseconds interrupt_after(testing::sanitized() ? 2000 : 250);
  const auto r = run_command_with_signals(tracesync_binary(), {"sync", "--jobs", "1", "--format", "json", dir.path()},
                                          {{interrupt_after, SIGINT}});
  if (r.exit_code == 0) GTEST_SKIP() << "the whole experiment was read before the interrupt came";
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.err.find("tracesync: interrupted: stopping the reading"), std::string::npos) << r.err;
  const json report = json::parse(r.out);
  EXPECT_FALSE(report["complete"]);
  ASSERT_GE(report["traces"].size(), 1u);
  EXPECT_LE(report["traces"].size(), 16u);
  for (const json& trace : report["traces"]) EXPECT_EQ(trace.value("path", "").rfind(dir.path(), 0), 0u) << trace;
  bool said_cancelled = false;
  for (const json& problem : report["problems"]) {
    said_cancelled = said_cancelled || problem.value("message", "").find("cancelled") != std::string::npos;
  }
  EXPECT_TRUE(said_cancelled) << report["problems"];
}

// A first packet whose packet_size and content_size are 0 makes babeltrace2
// 2.0.4 index it forever (the `babeltrace2` command hangs on it too).
// Damages host1 so (`alone`: removes host0), and runs tracesync with
// `extra`, sending `signals`.
CommandResult run_on_a_trace_babeltrace2_loops_on(testing::TempDir& dir, const std::vector<std::string>& extra,
                                                  std::vector<testing::TimedSignal> signals, bool alone = false) {
  simulate(dir, {"--hosts", "2", "--duration", "1s", "--cpus", "1"});
  if (alone) fs::remove_all(dir.file("host0"));
  // The simulated packet header is magic (4 bytes), uuid (16), stream_id (8)
  // and stream_instance_id (8); packet_size and content_size follow.
  const std::string metadata = testing::read_file(dir.file("host1/kernel/metadata"));
  EXPECT_NE(metadata.find("packet.context := struct {\n\t\tinteger { size = 64; align = 8; } packet_size;\n"
                          "\t\tinteger { size = 64; align = 8; } content_size;"),
            std::string::npos)
      << metadata;
  const std::string stream = dir.file("host1/kernel/channel0_0");
  std::string bytes = testing::read_file(stream);
  bytes.replace(36, 16, 16, '\0');
  testing::write_file(stream, bytes);
  // babeltrace2's own loop is under test (the scanner names the bad size).
  std::vector<std::string> arguments = {"sync", "--reader", "babeltrace2", "--format", "json", dir.path()};
  arguments.insert(arguments.end(), extra.begin(), extra.end());
  signals.push_back({std::chrono::seconds(20), SIGKILL});  // a failure, not a hang
  setenv("TRACESYNC_SLOW_OPEN_SECONDS", "0.2", 1);
  CommandResult r = run_command_with_signals(tracesync_binary(), arguments, signals);
  unsetenv("TRACESYNC_SLOW_OPEN_SECONDS");
  return r;
}

// tracesync says which trace it waits for (after 30 s; 0.2 s here), and
// one Ctrl-C kills the process reading it: the report covers what was read.
TEST(SyncTraces, CtrlCEndsATraceBabeltrace2LoopsOn) {
  testing::TempDir dir;
  const auto started = std::chrono::steady_clock::now();
  const CommandResult r = run_on_a_trace_babeltrace2_loops_on(dir, {}, {{std::chrono::milliseconds(900), SIGINT}});
  if (r.exit_code == 0 || r.exit_code == 3) GTEST_SKIP() << "babeltrace2 no longer loops on a zero-sized packet: " << r.err;
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.err.find("tracesync: babeltrace2 has been opening " + dir.file("host1/kernel") + " for "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("tracesync: interrupted: stopping the reading"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("interrupted again"), std::string::npos) << r.err;
  const json report = json::parse(r.out);
  EXPECT_FALSE(report["complete"]);
  ASSERT_EQ(report["traces"].size(), 1u) << r.out;
  EXPECT_EQ(report["traces"][0].value("hostname", ""), "host0");
  // host0 was read in full: the trace cancelled before it opened leaves its
  // events and extent alone.
  EXPECT_GT(report["traces"][0].value("events", 0), 0) << report["traces"][0];
  EXPECT_NE(report["traces"][0].value("first_ns", 0), 0) << report["traces"][0];
  EXPECT_GT(report["traces"][0].value("last_ns", 0), report["traces"][0].value("first_ns", 0));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
}

// Running out of memory is not damage. Under address-space limits from
// ample down to too little (prlimit --as), in-process and in reading
// processes, a run either succeeds or says it ran out of memory, with the
// exit code of a resource error (1); it never blames a trace and never dies
// of a signal. When GLib fails an allocation it aborts, stops at a
// breakpoint (g_error), or, formatting that error without memory, recurses
// until the stack overflows (GLib 2.74): in-process, each is named as out of
// memory. C++ throws std::bad_alloc: that trace fails, the others go on.
// Where in the reading memory runs out depends on the build, hence the
// sweep.
TEST(SyncTraces, RunningOutOfMemoryIsNamedWithTheExitCodeOfAResourceError) {
  TRACESYNC_SKIP_UNDER_SANITIZERS("AddressSanitizer reserves terabytes of address space for its shadow memory: no "
                                  "address-space limit leaves it room");
  if (access("/usr/bin/prlimit", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/prlimit (util-linux)";
  testing::TempDir dir;
  simulate(dir, {"--hosts", "4", "--duration", "1s"});
  const auto run = [&](int megabytes, bool in_process) {
    std::vector<std::string> arguments = {"--as=" + std::to_string(megabytes << 20), "--", tracesync_binary(), "sync",
                                          "--format", "json", dir.path()};
    if (in_process) arguments.push_back("--in-process");
    return run_command("/usr/bin/prlimit", arguments);
  };
  if (const CommandResult ample = run(1024, false); ample.exit_code != 0) {
    GTEST_SKIP() << "tracesync does not run within 1 GiB of address space: " << ample.err;
  }
  int in_process_out_of_memory = 0;
  int glibc_gave_up = 0;
  for (int megabytes = 30; megabytes <= 80; megabytes += 2) {
    for (const bool in_process : {true, false}) {
      const CommandResult r = run(megabytes, in_process);
      const std::string where = std::to_string(megabytes) + " MiB" + (in_process ? ", in-process" : "") + ": exit " +
                                std::to_string(r.exit_code) + "\n" + r.err;
      if (r.exit_code == 0) continue;
      // glibc itself, failing to allocate a thread's thread-local data,
      // prints this and exits with 127: nothing can run after it.
      if (r.exit_code == 127 && r.err.find("cannot allocate memory for thread-local data") != std::string::npos) {
        ++glibc_gave_up;
        continue;
      }
      EXPECT_EQ(r.exit_code, 1) << where;
      EXPECT_NE(r.err.find("out of memory"), std::string::npos) << where;
      EXPECT_EQ(r.err.find("damage"), std::string::npos) << where;
      EXPECT_EQ(r.err.find("internal error while reading"), std::string::npos) << where;
      if (in_process && r.err.find("out of memory while reading") != std::string::npos) ++in_process_out_of_memory;
    }
  }
  ::testing::Test::RecordProperty("glibc_gave_up", glibc_gave_up);
  EXPECT_GT(in_process_out_of_memory, 0) << "no in-process run ran out of memory while reading: the case under test "
                                            "did not occur";
}

// The process limit (`ulimit -u`) counts threads too. Under a limit that
// leaves no thread beside the main one, or a few, reading in-process falls
// back to the threads there are (the calling one at least) and reads
// everything; with reading processes, a trace whose process cannot start is
// skipped with the limit named. Never an internal error. The limit does not
// bind root, so the runs are made as nobody (who must run no other process).
TEST(SyncTraces, AProcessLimitIsNamedOrReadAround) {
  TRACESYNC_SKIP_UNDER_SANITIZERS("AddressSanitizer's own threads and shadow memory do not fit the process and memory limits it sets");
  if (geteuid() != 0) GTEST_SKIP() << "needs root, to run tracesync as nobody (RLIMIT_NPROC does not bind root)";
  if (access("/usr/bin/setpriv", X_OK) != 0 || access("/usr/bin/prlimit", X_OK) != 0) {
    GTEST_SKIP() << "needs /usr/bin/setpriv and /usr/bin/prlimit (util-linux)";
  }
  testing::TempDir dir;
  simulate(dir, {"--hosts", "3", "--duration", "1s"});
  // Readable by nobody (the stream files are written 0640).
  const auto readable = fs::perms::group_read | fs::perms::others_read;
  const auto enterable = readable | fs::perms::group_exec | fs::perms::others_exec;
  fs::permissions(dir.path(), enterable, fs::perm_options::add);
  for (const auto& entry : fs::recursive_directory_iterator(dir.path())) {
    fs::permissions(entry.path(), entry.is_directory() ? enterable : readable, fs::perm_options::add);
  }
  // A copy of the program nobody can reach, wherever the build is (a
  // clone under /root, say); its own libraries are linked in.
  testing::TempDir bin;
  const std::string program = bin.file("tracesync");
  fs::copy_file(tracesync_binary(), program);
  fs::permissions(bin.path(), enterable, fs::perm_options::add);
  fs::permissions(program, enterable, fs::perm_options::add);
  const auto run = [&](int processes, bool in_process) {
    std::vector<std::string> arguments = {"--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/prlimit",
                                          "--nproc=" + std::to_string(processes), "--", program, "sync",
                                          "--format", "json", dir.path()};
    if (in_process) arguments.push_back("--in-process");
    return run_command("/usr/bin/setpriv", arguments);
  };
  if (const CommandResult free = run(10'000, false); free.exit_code != 0) {
    GTEST_SKIP() << "nobody cannot run tracesync on these traces here: exit " << free.exit_code << "\n" << free.err;
  }
  for (const int processes : {1, 5}) {
    const CommandResult in_process = run(processes, true);
    const std::string where = "--nproc=" + std::to_string(processes) + ": ";
    EXPECT_EQ(in_process.exit_code, 0) << where << in_process.err;
    EXPECT_EQ(json::parse(in_process.out)["traces"].size(), 3u) << where << in_process.out;
    const CommandResult r = run(processes, false);
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << where << r.err;
    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 2 || r.exit_code == 3) << where << "exit " << r.exit_code << r.err;
    if (r.exit_code != 0) {
      EXPECT_NE(r.err.find("raise `ulimit -u`"), std::string::npos) << where << r.err;
    }
  }
}

// SIGTERM (a kill, a service manager) and SIGHUP (the terminal closed) are
// handled as Ctrl-C is: the report covers what was read, and the exit code
// is 128 + the signal's number, as a shell reports a process it killed.
TEST(SyncTraces, SigtermAndSighupReportWhatWasRead) {
  for (const auto& [signal, name] : {std::pair{SIGTERM, "terminated (SIGTERM)"}, std::pair{SIGHUP, "hung up (SIGHUP)"}}) {
    testing::TempDir dir;
    const CommandResult r = run_on_a_trace_babeltrace2_loops_on(dir, {}, {{std::chrono::milliseconds(900), signal}});
    if (r.exit_code == 0 || r.exit_code == 3) GTEST_SKIP() << "babeltrace2 no longer loops on a zero-sized packet: " << r.err;
    EXPECT_EQ(r.exit_code, 128 + signal) << r.err;
    EXPECT_NE(r.err.find(std::string("tracesync: ") + name + ": stopping the reading"), std::string::npos) << r.err;
    const json report = json::parse(r.out);
    EXPECT_FALSE(report["complete"]);
    ASSERT_EQ(report["traces"].size(), 1u) << r.out;
    EXPECT_EQ(report["traces"][0].value("hostname", ""), "host0");
    EXPECT_GT(report["traces"][0].value("events", 0), 0) << report["traces"][0];
  }
}

// The same with that trace alone: one Ctrl-C while it opens reports no
// trace, and says the reading was cancelled (it used to crash).
TEST(SyncTraces, CtrlCWhileTheOnlyTraceOpensReportsNoTrace) {
  testing::TempDir dir;
  const CommandResult r =
      run_on_a_trace_babeltrace2_loops_on(dir, {}, {{std::chrono::milliseconds(600), SIGINT}}, /*alone=*/true);
  if (r.exit_code == 0 || r.exit_code == 3) GTEST_SKIP() << "babeltrace2 no longer loops on a zero-sized packet: " << r.err;
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.err.find("tracesync: interrupted: stopping the reading"), std::string::npos) << r.err;
  const json report = json::parse(r.out);
  EXPECT_FALSE(report["complete"]);
  EXPECT_EQ(report["traces"].size(), 0u) << r.out;
  bool said_not_opened = false;
  for (const json& problem : report["problems"]) {
    said_not_opened = said_not_opened || problem.value("message", "").find("1 trace was not opened yet") != std::string::npos;
  }
  EXPECT_TRUE(said_not_opened) << report["problems"];
}

// With --open-timeout, no Ctrl-C is needed: the trace babeltrace2 is still
// opening when the time is up is skipped, the rest synchronized (exit 3).
TEST(SyncTraces, AnOpeningTimeLimitSkipsATraceBabeltrace2LoopsOn) {
  testing::TempDir dir;
  const auto started = std::chrono::steady_clock::now();
  const CommandResult r = run_on_a_trace_babeltrace2_loops_on(dir, {"--open-timeout", "800ms"}, {});
  if (r.exit_code == 0) GTEST_SKIP() << "babeltrace2 no longer loops on a zero-sized packet: " << r.err;
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("tracesync: skipped " + dir.file("host1/kernel") +
                       ": cannot be opened: babeltrace2 was still opening it after 0.8 s, the time allowed"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("it is skipped after --open-timeout 800ms"), std::string::npos) << r.err;  // the slow-open note
  const json report = json::parse(r.out);
  ASSERT_EQ(report["traces"].size(), 1u) << r.out;
  EXPECT_EQ(report["traces"][0].value("hostname", ""), "host0");
  EXPECT_EQ(report["options"]["open_timeout_ns"], 800'000'000);
  EXPECT_EQ(report["options"]["reading_program"], fs::canonical(tracesync_binary()).string());
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
}

// With --in-process the reading never reaches the end of a step, so the
// first Ctrl-C cannot stop it; the second quits at once.
TEST(SyncTraces, InProcessASecondCtrlCQuitsWhileBabeltrace2IsStuck) {
  testing::TempDir dir;
  const auto started = std::chrono::steady_clock::now();
  const CommandResult r = run_on_a_trace_babeltrace2_loops_on(
      dir, {"--in-process"}, {{std::chrono::milliseconds(900), SIGINT}, {std::chrono::milliseconds(1300), SIGINT}});
  if (r.exit_code == 0 || r.exit_code == 3) GTEST_SKIP() << "babeltrace2 no longer loops on a zero-sized packet: " << r.err;
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.err.find("tracesync: interrupted: stopping the reading"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("tracesync: interrupted again: quitting without a report"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("tracesync: babeltrace2 has been opening " + dir.file("host1/kernel") + " for "),
            std::string::npos)
      << r.err;
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
}

TEST(SyncTraces, MissingAndEmptyPaths) {
  testing::TempDir dir;
  auto r = run_command(tracesync_binary(), {"sync", "/nonexistent/traces"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'/nonexistent/traces' does not exist"), std::string::npos) << r.err;
  r = run_command(tracesync_binary(), {"sync", dir.path()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(dir.path()), std::string::npos) << r.err;
  r = run_command(tracesync_binary(), {"sync", dir.path(), "--domain", "nonsense"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--domain 'nonsense' is not TRACE=ID"), std::string::npos) << r.err;
  simulate(dir, {"--hosts", "2", "--duration", "1s"});
  r = run_command(tracesync_binary(), {"sync", dir.path(), "--domain", "elsewhere=x"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("selects no trace"), std::string::npos) << r.err;
  EXPECT_FALSE(r.out.empty());  // the report of the traces is still printed
}

}  // namespace
}  // namespace tracesync

namespace tracesync {
namespace {

TEST(SyncTraces, ProgressBarOnlyWhenStderrIsATerminal) {
  if (!std::filesystem::exists("/usr/bin/script")) GTEST_SKIP() << "script(1) from bsdutils is not installed";
  testing::TempDir dir;
  const auto sim = run_command(tracesync_binary(), {"simulate", "-q", "-o", dir.file("exp"), "--hosts", "3",
                                                    "--duration", "20s"});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  // Without a terminal: nothing but the report.
  auto r = run_command(tracesync_binary(), {"sync", dir.file("exp")});
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_TRUE(r.err.empty()) << r.err;
  // On a pseudo-terminal (script(1)), stdout still redirected to a file.
  const std::string command = tracesync_binary() + " sync " + dir.file("exp") + " > " + dir.file("report.txt");
  r = run_command("/usr/bin/script", {"-qfec", command, dir.file("tty.log")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string tty = testing::read_file(dir.file("tty.log"));
  EXPECT_NE(tty.find("reading traces ["), std::string::npos) << tty;
  EXPECT_NE(tty.find("100%"), std::string::npos);
  EXPECT_NE(tty.find(" MB/s"), std::string::npos) << tty;  // the rate
  EXPECT_NE(testing::read_file(dir.file("report.txt")).find("Islands"), std::string::npos);
}

}  // namespace
}  // namespace tracesync

namespace tracesync {
namespace {

TEST(BenchIngest, ComparesBothReadersPerJobCountAndPinsOneJobToOneCpu) {
  testing::TempDir dir;
  simulate(dir, {"--hosts", "3", "--duration", "2s"});
  auto r = run_command(tracesync_binary(), {"bench", "ingest", dir.path(), "--jobs", "1,2", "--repeat", "1", "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["format"], "tracesync-bench-ingest/1");
  EXPECT_EQ(j["traces"], 3);
  ASSERT_EQ(j["rows"].size(), 2u);
  for (const json& row : j["rows"]) {
    EXPECT_GT(row["events"].get<uint64_t>(), 0u);
    EXPECT_GT(row["sync_over_babeltrace2_wall"].get<double>(), 0);
  }
  // One job runs on one CPU, named on stderr and in the row; two jobs keep every core.
  ASSERT_TRUE(j["rows"][0]["pinned_cpu"].is_number_integer()) << j["rows"][0];
  EXPECT_NE(r.err.find("1 job measured on CPU " + std::to_string(j["rows"][0]["pinned_cpu"].get<int>()) + " only"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(j["rows"][1]["pinned_cpu"].is_null());

  EXPECT_FALSE(j["sync_in_process"]);  // sync as it runs by default: a reading process per trace

  r = run_command(tracesync_binary(), {"bench", "ingest", dir.path(), "--jobs", "1", "--repeat", "1", "--no-pin", "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(json::parse(r.out)["rows"][0]["pinned_cpu"].is_null());
  EXPECT_EQ(r.err.find("measured on CPU"), std::string::npos) << r.err;

  r = run_command(tracesync_binary(), {"bench", "ingest", dir.path(), "--jobs", "1", "--repeat", "1", "--in-process", "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json in_process = json::parse(r.out);
  EXPECT_TRUE(in_process["sync_in_process"]);
  EXPECT_EQ(in_process["rows"][0]["events"], j["rows"][0]["events"]);
  r = run_command(tracesync_binary(), {"bench", "ingest", dir.path(), "--jobs", "1", "--repeat", "1", "--in-process"});
  EXPECT_NE(r.out.find("; sync --in-process\n"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tracesync
