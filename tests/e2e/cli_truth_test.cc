// SPDX-License-Identifier: EPL-2.0
// End-to-end truth tests: `tracesync simulate` writes an experiment,
// `tracesync sync` synchronizes it, and `tracesync check-truth` must find
// the truth inside the reported bound at every instant it checks (>= 1,000
// per trace, every segment end, rate change and gap; every message when the
// truth lists them), with zero violations, for every clock model, several
// durations and topologies, with asymmetric delays, loss, outliers and gaps.
//
// Until the piecewise clock model is in, only linear clocks can pass: a
// single line cannot follow a clock that changes rate (issue 19). These
// tests are the acceptance test of that model; they are not skipped.

#include <sys/stat.h>

#include <iostream>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <thread>
#include <vector>
#include <nlohmann/json.hpp>

#include "support/run_command.h"
#include "support/sanitized.h"

namespace tracesync {
namespace {

using nlohmann::json;
using testing::run_command;
using testing::tracesync_binary;

std::string number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

// Runs `tracesync sync` with `extra`; when this build does not know
// --clock-model (before the piecewise model), runs it without: that build's
// only model is the linear one.
testing::CommandResult sync_matches(const testing::TempDir& dir, std::vector<std::string> extra) {
  std::vector<std::string> args = {"sync", "--format", "json", "--matches", dir.file("matches.txt")};
  std::vector<std::string> with = args;
  with.insert(with.end(), extra.begin(), extra.end());
  testing::CommandResult r = run_command(tracesync_binary(), with);
  if (r.exit_code == 2 && r.out.empty() && r.err.find("clock-model") != std::string::npos && extra.size() == 2 &&
      extra[0] == "--clock-model" && extra[1] == "linear") {
    r = run_command(tracesync_binary(), args);
  }
  return r;
}

// check-truth's JSON verdict on a report; fails the test on a usage error.
json check_truth(const testing::TempDir& dir, const std::string& report, const std::string& truth = "truth.json") {
  testing::write_file(dir.file("report.json"), report);
  const auto r = run_command(tracesync_binary(),
                             {"check-truth", "--format", "json", dir.file("report.json"), dir.file(truth)});
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 5) << r.err;
  // Exit 0 exactly when no violation is silent (outside the breaches the report flags).
  EXPECT_EQ(r.exit_code == 0, !r.out.empty() && json::parse(r.out)["violations"].get<int64_t>() ==
                                                    json::parse(r.out).value("violations_in_breaches", int64_t{0}))
      << r.out;
  return r.out.empty() ? json() : json::parse(r.out);
}

struct TruthCase {
  std::string model;
  double duration_s;
  std::string topology;
  int hosts;
  std::string name;
};

void PrintTo(const TruthCase& c, std::ostream* out) { *out << c.name; }

std::string duration_name(double s) {
  if (s >= 3600) return number(s / 3600) + "h";
  if (s >= 60) return number(s / 60) + "min";
  return number(s) + "s";
}

std::vector<TruthCase> truth_cases() {
  std::vector<TruthCase> cases;
  for (const std::string model : {"linear", "steps", "slews", "wander", "combined"}) {
    for (const double duration : {60.0, 600.0, 3600.0}) {
      for (const auto& [topology, hosts, name] : {std::tuple<std::string, int, std::string>{"pairs", 2, "pair"},
                                                  {"chain", 10, "chain10"},
                                                  {"star", 6, "star6"},
                                                  {"random", 50, "random50"}}) {
        // An hour of 50 hosts (15-20 s each) under linear clocks and the
        // combined model, whose steps, slews and wander are each the other
        // models' alone: their minute and ten minutes of 50 hosts run too.
        const bool covered_by_combined = model != "linear" && model != "combined";
        if (duration >= 3600 && hosts >= 50 && covered_by_combined) continue;
        cases.push_back({model, duration, topology, hosts, model + "_" + duration_name(duration) + "_" + name});
      }
    }
    // The long runs, on a pair at a low rate.
    for (const double duration : {21'600.0, 86'400.0}) {
      cases.push_back({model, duration, "pairs", 2, model + "_" + duration_name(duration) + "_pair"});
    }
  }
  return cases;
}

class TruthInsideTheBound : public ::testing::TestWithParam<TruthCase> {};

TEST_P(TruthInsideTheBound, AtEveryInstantChecked) {
  const TruthCase& c = GetParam();
  // The sanitized command is run for memory errors, which the 1 min and 10 min
  // runs of these topologies reach by the same code: an hour of 10 and 50
  // hosts takes 15 to 90 s each under ASan.
  if (c.duration_s >= 3600 && c.hosts >= 10) {
    TRACESYNC_SKIP_UNDER_SANITIZERS("an hour of 10 or 50 hosts: its 1 min and 10 min runs reach the same code");
  }
  testing::TempDir dir;
  // About 600 segments per link, whatever the duration: enough for a hull,
  // little enough to keep the whole suite quick.
  const double rate = std::min(100.0, 600 / c.duration_s);
  const auto sim = run_command(
      tracesync_binary(),
      {"simulate", "--quiet", "--no-traces", "--write-matches", "--output", dir.path(), "--clock-model", c.model,
       "--duration", number(c.duration_s) + "s", "--topology", c.topology, "--hosts", std::to_string(c.hosts),
       "--random-degree", "3", "--rate", number(rate), "--seed", "7",
       // asymmetric delays, loss, outliers (loaded hosts) and a gap of a tenth of the run
       "--asymmetry", "2.5", "--loss", "0.03", "--loaded-hosts", "0.3", "--load-rate", number(5 / c.duration_s),
       "--gap", number(0.4 * c.duration_s) + "s:" + number(0.1 * c.duration_s) + "s"});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  const auto sync = sync_matches(dir, {});
  ASSERT_TRUE(sync.exit_code == 0 || sync.exit_code == 3) << sync.err;
  const json verdict = check_truth(dir, sync.out);
  ASSERT_TRUE(verdict.is_object());
  EXPECT_EQ(verdict["checked"].get<int>() + verdict["skipped"].get<int>(), c.hosts);
  EXPECT_GE(verdict["checked"].get<int>(), 2);
  for (const json& t : verdict["traces"]) {
    if (t["skipped"].get<bool>()) continue;
    EXPECT_GE(t["instants"].get<int>(), 1000) << t["name"];
    EXPECT_EQ(t["violations"], 0) << t.dump();
  }
  EXPECT_EQ(verdict["violations"], 0) << "worst error " << verdict["worst_error_ns"] << " ns, largest bound "
                                      << verdict["largest_bound_ns"] << " ns";
}

INSTANTIATE_TEST_SUITE_P(Simulated, TruthInsideTheBound, ::testing::ValuesIn(truth_cases()),
                         [](const ::testing::TestParamInfo<TruthCase>& p) { return p.param.name; });

// Dense traffic, where the local bands make the map (docs/local-band.md):
// asymmetric delays, loss, load episodes and a gap, each clock model, two
// seeds; the truth inside every bound. Short, so the suite stays quick.
TEST(TruthDense, LocalBandsHoldOnEveryModel) {
  for (const std::string model : {"steps", "wander", "combined", "slews"}) {
    for (const std::string seed : {"1", "2"}) {
      SCOPED_TRACE(model + " seed " + seed);
      testing::TempDir dir;
      const auto sim = run_command(
          tracesync_binary(),
          {"simulate", "--quiet", "--no-traces", "--write-matches", "--output", dir.path(), "--clock-model", model,
           "--duration", "180s", "--topology", "pairs", "--hosts", "2", "--rate", "200", "--seed", seed,
           // rate changes far above the defaults, so that one line does not fit 3 minutes
           "--step-size", "50", "--step-interval", "60s", "--wander-amplitude", "30", "--wander-period", "300s",
           "--slew-rate", "80", "--slew-interval", "60s", "--asymmetry", "3", "--loss", "0.03", "--loaded-hosts", "0.5",
           "--gap", "100s:10s"});
      ASSERT_EQ(sim.exit_code, 0) << sim.err;
      const auto sync = sync_matches(dir, {});
      ASSERT_EQ(sync.exit_code, 0) << sync.err;
      const json report = json::parse(sync.out);
      EXPECT_GT(report["links"][0]["segments"].size(), 1u) << "one line fits: the local bands were not used";
      const json verdict = check_truth(dir, sync.out);
      ASSERT_TRUE(verdict.is_object());
      EXPECT_EQ(verdict["checked"], 2);
      EXPECT_EQ(verdict["violations"], 0) << "worst error " << verdict["worst_error_ns"] << " ns, largest bound "
                                          << verdict["largest_bound_ns"] << " ns";
    }
  }
}

// One segment on bending clocks (docs/local-band.md, "One segment on
// bending clocks"): a wander of 1 ppm over 3 minutes that one line fits
// (the link has one segment), whose line, the exact hull's bisector, runs
// 28-39 us from the truth. The local bands' centres follow no line, so the
// trace's map comes from them: within a few microseconds, 0 violations.
TEST(TruthDense, OneSegmentOnBendingClocksTakesTheLocalBands) {
  const std::vector<std::string> seeds =
      testing::sanitized() ? std::vector<std::string>{"1"} : std::vector<std::string>{"1", "2", "3"};
  for (const std::string& seed : seeds) {
    SCOPED_TRACE("seed " + seed);
    testing::TempDir dir;
    const auto sim = run_command(
        tracesync_binary(),
        {"simulate", "--quiet", "--no-traces", "--write-matches", "--output", dir.path(), "--clock-model", "wander",
         "--duration", "3min", "--wander-period", "3min", "--wander-amplitude", "1", "--hosts", "2", "--topology",
         "pairs", "--rate", "200", "--seed", seed});
    ASSERT_EQ(sim.exit_code, 0) << sim.err;
    const auto sync = sync_matches(dir, {});
    ASSERT_EQ(sync.exit_code, 0) << sync.err;
    const json report = json::parse(sync.out);
    ASSERT_EQ(report["links"][0]["segments"].size(), 1u) << "one line no longer fits: not the case tested";
    std::size_t pieces = 0;
    for (const json& t : report["traces"]) pieces = std::max(pieces, t["segments"].size());
    EXPECT_GT(pieces, 2u) << "the line was kept";
    const json verdict = check_truth(dir, sync.out);
    ASSERT_TRUE(verdict.is_object());
    EXPECT_EQ(verdict["violations"], 0);
    EXPECT_LT(verdict["worst_error_ns"].get<double>(), 8'000) << "the line errs by 28-39 us here";
    EXPECT_LT(verdict["largest_bound_ns"].get<double>(), 1.5 * 40'000);
  }
}

// Linear clocks keep the linear model's answer in the piecewise model, byte
// for byte, with asymmetric delays, load episodes, loss and a gap: the one
// segment's local bands' centres follow a line, so its map is the line's.
TEST(TruthDense, LinearClocksKeepTheLinearModelsAnswer) {
  for (const std::string seed : {"1", "2"}) {
    SCOPED_TRACE("seed " + seed);
    testing::TempDir dir;
    const auto sim = run_command(
        tracesync_binary(), {"simulate", "--quiet", "--no-traces", "--write-matches", "--output", dir.path(),
                             "--duration", "3min", "--hosts", "2", "--topology", "pairs", "--rate", "200", "--seed",
                             seed, "--asymmetry", "3", "--loaded-hosts", "0.5", "--loss", "0.03", "--gap", "60s:10s"});
    ASSERT_EQ(sim.exit_code, 0) << sim.err;
    const auto piecewise = sync_matches(dir, {});
    const auto linear = sync_matches(dir, {"--clock-model", "linear"});
    ASSERT_EQ(piecewise.exit_code, 0) << piecewise.err;
    ASSERT_EQ(linear.exit_code, 0) << linear.err;
    const json p = json::parse(piecewise.out);
    const json l = json::parse(linear.out);
    ASSERT_EQ(p["links"][0]["segments"].size(), 1u);
    EXPECT_EQ(p["traces"], l["traces"]);
    EXPECT_EQ(p["links"][0]["alpha"], l["links"][0]["alpha"]);
    EXPECT_EQ(p["links"][0]["beta"], l["links"][0]["beta"]);
  }
}

// Through real CTF traces, with every message in the truth: the check
// covers every send and receive too.
TEST(TruthThroughTraces, LinearClocksHoldAtEveryMessage) {
  testing::TempDir dir;
  const auto sim = run_command(tracesync_binary(), {"simulate", "--quiet", "--truth-messages", "--output", dir.path(),
                                                    "--hosts", "3", "--duration", "20s", "--rate", "100",
                                                    "--asymmetry", "2", "--gap", "8s:4s", "--seed", "3"});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  const auto sync = run_command(tracesync_binary(), {"sync", "--format", "json", dir.file("host0/kernel"),
                                                     dir.file("host1/kernel"), dir.file("host2/kernel")});
  ASSERT_EQ(sync.exit_code, 0) << sync.err;
  const json verdict = check_truth(dir, sync.out);
  EXPECT_EQ(verdict["checked"], 3);
  EXPECT_EQ(verdict["violations"], 0);
  for (const json& t : verdict["traces"]) EXPECT_GT(t["instants"].get<int>(), 2000) << "messages are instants too";
}

// The check bites: one line over a 1 ppm step (as in issue 19's table,
// "5 min around a 1 ppm step") is reported ACCURATE with a bound the truth
// breaks. --clock-model linear with --clock-stability 0 (no stability term:
// exactly the single line of Trace Compass) keeps that behaviour by design.
TEST(TruthCheckBites, ALineOverARateStepBreaksItsBound) {
  testing::TempDir dir;
  const auto sim = run_command(tracesync_binary(),
                               {"simulate", "--quiet", "--no-traces", "--write-matches", "--output", dir.path(),
                                "--hosts", "2", "--duration", "300s", "--rate", "200", "--loaded-hosts", "0",
                                "--clock", "1:0:5:150:6"});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  const auto sync = sync_matches(dir, {"--clock-model", "linear", "--clock-stability", "0"});
  ASSERT_EQ(sync.exit_code, 0) << sync.err;
  const json verdict = check_truth(dir, sync.out);
  EXPECT_GT(verdict["violations"].get<int>(), 0) << verdict.dump();
  const auto text = run_command(tracesync_binary(), {"check-truth", dir.file("report.json"), dir.file("truth.json")});
  EXPECT_EQ(text.exit_code, 5);
  EXPECT_NE(text.out.find("OUTSIDE"), std::string::npos) << text.out;
}

// Issue 19's goal: on 1 h of traffic with a 1 ppm step, the default model's
// worst true error under 50 us and largest bound under 300 us, the truth
// always inside (today's single line: 1.69 ms, outside its bound). 50
// messages a second is sparse traffic: the envelope's bound grows with the
// widest gap between messages (docs/clock-model.md).
TEST(TruthGoal, AOnePpmStepInAnHour) {
  testing::TempDir dir;
  const auto sim = run_command(tracesync_binary(),
                               {"simulate", "--quiet", "--no-traces", "--write-matches", "--output", dir.path(),
                                "--hosts", "2", "--duration", "1h", "--rate", "50", "--clock", "1:250000:20:1800:21"});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  const auto sync = sync_matches(dir, {});
  ASSERT_EQ(sync.exit_code, 0) << sync.err;
  const json verdict = check_truth(dir, sync.out);
  EXPECT_EQ(verdict["violations"], 0);
  EXPECT_LT(verdict["worst_error_ns"].get<double>(), 50'000);
  EXPECT_LT(verdict["largest_bound_ns"].get<double>(), 300'000);
  std::cout << "issue 19 goal, 1 h with a 1 ppm step at 50 messages/s: worst error "
            << verdict["worst_error_ns"].get<double>() << " ns (goal < 50000), largest bound "
            << verdict["largest_bound_ns"].get<double>() << " ns (goal < 300000)\n";
}

// The accuracy benchmark runs end to end and says what it measured (its
// figures are for people; here only that linear clocks keep the hull honest).
TEST(TruthCommands, AccuracyBenchmarkPrintsARowPerModelAndDuration) {
  const auto r = run_command(tracesync_binary(), {"bench", "accuracy", "--format", "json", "--models", "linear,steps",
                                                  "--durations", "1min", "--link-messages", "2000"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json rows = json::parse(r.out);
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_EQ(rows[0]["model"], "linear");
  EXPECT_EQ(rows[1]["model"], "steps");
  for (const json& row : rows) {
    EXPECT_EQ(row["duration_s"], 60);
    EXPECT_GT(row["matches"].get<int>(), 1000);
    for (const char* variant : {"piecewise", "linear", "linreg"}) ASSERT_TRUE(row.contains(variant)) << variant;
    EXPECT_TRUE(row["linear"]["available"].get<bool>());
    EXPECT_FALSE(row["linear"].contains("problem")) << row["linear"].dump();
  }
  EXPECT_EQ(rows[0]["linear"]["violations"], 0);
  EXPECT_GT(rows[0]["linear"]["largest_bound_ns"].get<double>(), 0);
  EXPECT_EQ(run_command(tracesync_binary(), {"bench", "accuracy", "--models", "sine"}).exit_code, 2);
  // Every duration needs its unit (a bare number once meant seconds here, and ns elsewhere).
  for (const std::string bad : {"60", "0", "1min,600", "0s", "500ms", "31d", "1min,,1h"}) {
    const auto refused = run_command(tracesync_binary(), {"bench", "accuracy", "--durations", bad});
    EXPECT_EQ(refused.exit_code, 2) << bad;
    EXPECT_NE(refused.err.find("--durations"), std::string::npos) << bad << ": " << refused.err;
  }
  const auto bare = run_command(tracesync_binary(), {"bench", "accuracy", "--durations", "60"});
  EXPECT_NE(bare.err.find("has no unit: write it with one of ns, us, ms, s, min or h (e.g. 60s)"), std::string::npos)
      << bare.err;
  EXPECT_NE(run_command(tracesync_binary(), {"bench", "accuracy", "--durations", "1min,600"}).err.find("'600' has no unit"),
            std::string::npos);
}

TEST(TruthCommands, BadOptionsAndInputsAreNamed) {
  testing::TempDir dir;
  const auto simulate = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"simulate", "--quiet", "--no-traces", "--output", dir.file("out")};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_command(tracesync_binary(), args);
  };
  for (const auto& [args, named] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--clock-model", "sine"}, "--clock-model"},
           {{"--clock-model", "steps", "--step-size", "-1"}, "--step-size"},
           {{"--step-interval", "0s"}, "--step-interval"},
           {{"--slew-interval", "8s", "--slew-length", "5s"}, "--slew-interval"},
           {{"--slew-rate", "nan"}, "--slew-rate"},
           {{"--wander-amplitude", "-0.1"}, "--wander-amplitude"},
           {{"--wander-step", "2000s"}, "--wander-step"},
           {{"--clock-model", "wander", "--duration", "864000s", "--wander-step", "500ms"}, "--clock-model wander"},
           {{"--gap", "5s"}, "--gap"},
           {{"--gap", "50s:1s"}, "--gap"},
       }) {
    const auto r = simulate(args);
    EXPECT_EQ(r.exit_code, 2) << named;
    EXPECT_NE(r.err.find(named), std::string::npos) << r.err;
  }
  EXPECT_EQ(run_command(tracesync_binary(), {"check-truth", dir.file("none.json")}).exit_code, 2);
  const auto missing = run_command(tracesync_binary(), {"check-truth", dir.file("r.json"), dir.file("t.json")});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("r.json"), std::string::npos) << missing.err;
  testing::write_file(dir.file("r.json"), R"({"traces": []})");
  testing::write_file(dir.file("t.json"), R"({"format": "tracesync-truth/2", "start_ns": 0, "end_ns": 1, "hosts": "x"})");
  const auto bad = run_command(tracesync_binary(), {"check-truth", dir.file("r.json"), dir.file("t.json")});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("t.json: \"hosts\""), std::string::npos) << bad.err;
}

// Issue 31: a day at 5,000 messages a second each way is a 45 GB match file;
// streamed (`--matches-output -` or a pipe) it needs no disk. The stream is
// the file's bytes, standard output holds nothing else, and `sync` reads it
// from standard input or from the pipe to the same report.
TEST(TruthCommands, MatchesStreamToStandardOutputOrAPipeAsTheFileHoldsThem) {
  testing::TempDir dir;
  const std::vector<std::string> experiment = {"--no-traces", "--hosts", "3", "--duration", "20s", "--rate", "300",
                                               "--clock-model", "wander"};
  const auto simulate = [&](const std::string& out, std::vector<std::string> extra) {
    std::vector<std::string> args = {"simulate", "--output", dir.file(out)};
    args.insert(args.end(), experiment.begin(), experiment.end());
    args.insert(args.end(), extra.begin(), extra.end());
    return run_command(tracesync_binary(), args);
  };
  const auto file = simulate("file", {"--quiet", "--write-matches"});
  ASSERT_EQ(file.exit_code, 0) << file.err;
  const std::string matches = testing::read_file(dir.file("file/matches.txt"));
  ASSERT_GT(matches.size(), 100'000u);

  const auto streamed = simulate("streamed", {"--matches-output", "-"});
  ASSERT_EQ(streamed.exit_code, 0) << streamed.err;
  EXPECT_EQ(streamed.out, matches);  // nothing but the matches, byte for byte
  EXPECT_NE(streamed.err.find("matches: standard output"), std::string::npos) << streamed.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("streamed/matches.txt")));

  const auto report = [&](const std::string& matches_argument, const std::string& input) {
    return run_command(tracesync_binary(), {"sync", "--matches", matches_argument, "--format", "json"}, input);
  };
  const auto from_file = report(dir.file("file/matches.txt"), "");
  ASSERT_EQ(from_file.exit_code, 0) << from_file.err;
  const auto from_stdin = report("-", streamed.out);
  ASSERT_EQ(from_stdin.exit_code, 0) << from_stdin.err;
  EXPECT_EQ(from_stdin.out, from_file.out);

  // A named pipe: simulate writes into it as sync reads from it.
  const std::string pipe = dir.file("matches.fifo");
  ASSERT_EQ(::mkfifo(pipe.c_str(), 0600), 0);
  testing::CommandResult writer;
  std::thread writing([&] { writer = simulate("piped", {"--quiet", "--matches-output", pipe}); });
  const auto from_pipe = report(pipe, "");
  writing.join();
  EXPECT_EQ(writer.exit_code, 0) << writer.err;
  ASSERT_EQ(from_pipe.exit_code, 0) << from_pipe.err;
  EXPECT_EQ(from_pipe.out, from_file.out);

  const auto empty = simulate("bad", {"--matches-output", ""});
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_NE(empty.err.find("--matches-output"), std::string::npos) << empty.err;
}

// Issue 33: where the messages contradict --clock-stability the report says
// so: a problem naming the link and the span, the link APPROXIMATE, in JSON,
// text and HTML; check-truth counts a violation there as flagged. A 500 ppm
// slew at 2 messages a second is such a breach.
TEST(TruthBreaches, AFastSlewIsAProblemNamingTheLinkAndItsSpan) {
  testing::TempDir dir;
  const auto sim = run_command(tracesync_binary(),
                               {"simulate", "--quiet", "--no-traces", "--write-matches", "--output", dir.path(),
                                "--clock-model", "slews", "--slew-rate", "500", "--slew-interval", "60s", "--rate", "2",
                                "--duration", "5min", "--topology", "pairs", "--hosts", "2", "--seed", "1"});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  const auto sync = sync_matches(dir, {});
  ASSERT_EQ(sync.exit_code, 0) << sync.err;  // an APPROXIMATE link is usable: every trace synchronized
  const json report = json::parse(sync.out);
  const json& link = report["links"][0];
  EXPECT_EQ(link["quality"], "APPROXIMATE");
  ASSERT_TRUE(link.contains("breaches"));
  ASSERT_FALSE(link["breaches"].empty());
  // One problem per breach (at most five, then one counting the rest), each
  // naming the link and its span as the breaches list gives it.
  std::vector<std::string> breach_problems;
  for (const json& p : report["problems"]) {
    const std::string text = p["message"];
    if (text.find("contradict --clock-stability") != std::string::npos) breach_problems.push_back(text);
  }
  ASSERT_EQ(breach_problems.size(), std::min<std::size_t>(link["breaches"].size(), 5) + (link["breaches"].size() > 5));
  const json& first = link["breaches"][0];
  const std::string span = "from " + std::to_string(first["from_ns"].get<int64_t>()) + " to " +
                           std::to_string(first["to_ns"].get<int64_t>()) + " ns of host0";  // HTML escapes the ' after
  EXPECT_NE(breach_problems[0].find("link host0 / host1 is APPROXIMATE: " + span + "'s clock"), std::string::npos)
      << breach_problems[0];
  // The text and HTML reports print the same problems.
  for (const std::string format : {"text", "html"}) {
    const auto other = run_command(tracesync_binary(), {"sync", "--format", format, "--matches", dir.file("matches.txt")});
    ASSERT_EQ(other.exit_code, 0) << other.err;
    EXPECT_NE(other.out.find(span), std::string::npos) << format;
  }
  // Whatever the truth does inside the flagged spans, nothing is silent.
  const json verdict = check_truth(dir, sync.out);
  EXPECT_EQ(verdict["violations"], verdict["violations_in_breaches"]) << verdict.dump();
}

// A 500 ppm slew at 0.2 messages a second: too few messages within the
// stability horizon to contradict a 100 ppm band (a slew of 5 s falls
// between two messages), so there the band rests on the rate limit alone,
// what the data prove without the assumption; before that, its bounds
// missed the truth with nothing flagged (14 silent violations on seed 1).
TEST(TruthBreaches, AFastSlewAtFewMessagesIsNeverSilent) {
  // CI time: the sanitizers slow the local bands several times.
  const std::vector<std::string> seeds =
      testing::sanitized() ? std::vector<std::string>{"1"} : std::vector<std::string>{"1", "2", "3"};
  for (const std::string& seed : seeds) {
    SCOPED_TRACE("seed " + seed);
    testing::TempDir dir;
    const auto sim = run_command(tracesync_binary(),
                                 {"simulate", "--quiet", "--no-traces", "--write-matches", "--output", dir.path(),
                                  "--clock-model", "slews", "--slew-rate", "500", "--rate", "0.2", "--duration", "1h",
                                  "--topology", "pairs", "--hosts", "2", "--seed", seed});
    ASSERT_EQ(sim.exit_code, 0) << sim.err;
    const auto sync = sync_matches(dir, {});
    ASSERT_EQ(sync.exit_code, 0) << sync.err;
    const json verdict = check_truth(dir, sync.out);
    EXPECT_EQ(verdict["violations"], verdict["violations_in_breaches"]) << verdict.dump();
  }
}

// A trace that outlasts the traffic of the link that maps it toward the
// reference: on the chain host0 - host1 - host2, host0 / host1 falls silent
// after 20 s while host1 / host2 talks on, and host1's clock bends there,
// its rate changing by 500 ppm (docs/local-band.md, "Beyond the first and
// last knots"). No message checks the stability assumption past the link's
// last one, so host1's map continued there may only lean on the rate limit:
// grown by the stability (100 ppm a ns), it missed the truth with nothing
// flagged (228 violations). host2 sees the bend through host1 / host2 and
// flags it; violations there are within breaches. Both clock models, and
// verify re-derives every trace bound.
TEST(TruthBeyondTraffic, AMapContinuedPastItsLinksTrafficRestsOnTheRateLimit) {
  testing::TempDir dir;
  const auto sim = run_command(tracesync_binary(),
                               {"simulate", "--quiet", "--no-traces", "--write-matches", "--output", dir.path(),
                                "--hosts", "3", "--topology", "chain", "--duration", "30s", "--rate", "200", "--seed",
                                "1", "--clock", "1:1000000:3:20:503"});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  const int64_t silent_from = json::parse(testing::read_file(dir.file("truth.json")))["start_ns"].get<int64_t>() +
                              20'000'000'000;
  // host0 / host1's messages from then on left out (host0's clock is the truth).
  std::istringstream in(testing::read_file(dir.file("matches.txt")));
  std::ostringstream out;
  std::size_t left_out = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string sender, receiver;
    int64_t send = 0, receive = 0;
    if (fields >> sender >> send >> receiver >> receive &&
        ((sender == "host0" && receiver == "host1" && send >= silent_from) ||
         (sender == "host1" && receiver == "host0" && receive >= silent_from))) {
      ++left_out;
      continue;
    }
    out << line << '\n';
  }
  ASSERT_GT(left_out, 1000u);
  testing::write_file(dir.file("matches.txt"), out.str());
  for (const std::string model : {"piecewise", "linear"}) {
    SCOPED_TRACE(model);
    const auto sync = sync_matches(dir, {"--clock-model", model, "--reference", "host0", "--certificate",
                                         dir.file("certificate.json")});
    ASSERT_EQ(sync.exit_code, 0) << sync.err;
    const json verdict = check_truth(dir, sync.out);
    ASSERT_TRUE(verdict.is_object());
    EXPECT_EQ(verdict["checked"], 3);
    EXPECT_EQ(verdict["violations"], verdict["violations_in_breaches"]) << verdict.dump();
    for (const json& t : verdict["traces"]) {
      if (t["name"] == "host1") {
        EXPECT_EQ(t["violations"], 0) << t.dump();
      }
    }
    const auto verify = run_command(tracesync_binary(), {"verify", dir.file("report.json"),
                                                         dir.file("certificate.json"), "--matches",
                                                         dir.file("matches.txt")});
    EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;
    // A certificate that does not say how continued maps grow is an older
    // engine's, checked by its rule (the stability): host1's bound past its
    // link's traffic is then not the one the report prints.
    json certificate = json::parse(testing::read_file(dir.file("certificate.json")));
    ASSERT_EQ(certificate["assumptions"]["continued_maps_grow_by"], "rate_limit");
    certificate["assumptions"].erase("continued_maps_grow_by");
    testing::write_file(dir.file("older-certificate.json"), certificate.dump());
    const auto older = run_command(tracesync_binary(), {"verify", dir.file("report.json"),
                                                        dir.file("older-certificate.json")});
    EXPECT_EQ(older.exit_code, 6) << older.out << older.err;
    EXPECT_NE(older.out.find("host1"), std::string::npos) << older.out;
  }
}

}  // namespace
}  // namespace tracesync
