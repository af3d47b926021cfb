// SPDX-License-Identifier: EPL-2.0
// Simultaneous signals end to end (issue 37, docs/signals.md): `tracesync
// simulate --signal-rate` writes a PPS line every host records (as
// irq_handler_entry irq=199) with jitter, missed and extra pulses, and the
// truth; `tracesync sync --simultaneous` pairs its occurrences and
// `tracesync check-truth` must find the truth inside every bound. Specs the
// traces cannot serve are named, with exit code 2.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <map>
#include <string>
#include <vector>

#include "support/run_command.h"

namespace tracesync {
namespace {

using nlohmann::json;
using testing::run_command;
using testing::tracesync_binary;

constexpr const char* kPps = "event=irq_handler_entry,filter=irq==199,jitter=1us";

void simulate(const testing::TempDir& dir, std::vector<std::string> more, const std::string& duration = "120s") {
  std::vector<std::string> args = {"simulate", "--quiet", "--output", dir.path(), "--hosts", "3", "--seed", "37",
                                   "--duration", duration, "--signal-rate", "1", "--signal-jitter", "1",
                                   "--filler-ratio", "1"};
  args.insert(args.end(), more.begin(), more.end());
  const auto sim = run_command(tracesync_binary(), args);
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
}

json check_truth(const testing::TempDir& dir, const std::string& report) {
  testing::write_file(dir.file("report.json"), report);
  const auto r = run_command(tracesync_binary(), {"check-truth", "--format", "json", dir.file("report.json"),
                                                  dir.file("truth.json")});
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 5) << r.err;
  return r.out.empty() ? json() : json::parse(r.out);
}

TEST(Signals, AloneTheyPinWanderingClocksWithinTwoMicroseconds) {
  testing::TempDir dir;
  simulate(dir, {"--rate", "0", "--offset-max", "100ms", "--clock-model", "wander"});
  const std::string spec = std::string(kPps) + ",clocks-within=250ms";
  const auto sync = run_command(tracesync_binary(), {"sync", "--format", "json", "--simultaneous", spec, dir.path()});
  ASSERT_EQ(sync.exit_code, 0) << sync.err;
  const json report = json::parse(sync.out);
  ASSERT_EQ(report["traces"].size(), 3u);
  for (const json& t : report["traces"]) EXPECT_TRUE(t["synchronized"].get<bool>()) << t["name"];
  EXPECT_EQ(report["matching"]["matches"], 0) << "no message at all: the links are the signal's";
  ASSERT_EQ(report["links"].size(), 3u) << "every two hosts are paired";
  for (const json& link : report["links"]) {
    ASSERT_EQ(link["evidence"]["signals"].size(), 1u) << link;
    const json& s = link["evidence"]["signals"][0];
    EXPECT_EQ(s["pairs"], 120) << s;
    EXPECT_EQ(s["aligned_by"], "clocks-within");
    EXPECT_EQ(s["pair_jitter_ns"], 2002);
    EXPECT_EQ(link["quality"], "ACCURATE");
  }
  const json verdict = check_truth(dir, sync.out);
  EXPECT_EQ(verdict["checked"], 3);
  EXPECT_EQ(verdict["violations"], 0) << verdict.dump(2);
  EXPECT_LE(verdict["worst_error_ns"].get<double>(), 2000.0) << "issue 37's goal: 2 us at 1 Hz with 1 us of jitter";
}

TEST(Signals, MissedAndExtraPulsesBesideMessagesKeepTheTruthInside) {
  testing::TempDir dir;
  simulate(dir, {"--rate", "5", "--clock-model", "wander", "--signal-missed", "0.05", "--signal-extra", "0.05"});
  const auto sync = run_command(tracesync_binary(), {"sync", "--format", "json", "--simultaneous", kPps, dir.path()});
  ASSERT_EQ(sync.exit_code, 0) << sync.err;
  const json report = json::parse(sync.out);
  for (const json& t : report["traces"]) EXPECT_TRUE(t["synchronized"].get<bool>()) << t["name"];
  uint64_t left_out = 0, aligned_by_messages = 0;
  for (const json& link : report["links"]) {
    ASSERT_TRUE(link.contains("evidence")) << link;
    const json& s = link["evidence"]["signals"][0];
    EXPECT_GT(s["pairs"].get<uint64_t>(), 90u) << s;
    left_out += s["unpaired_a"].get<uint64_t>() + s["unpaired_b"].get<uint64_t>();
    aligned_by_messages += s["aligned_by"] == "messages" ? 1 : 0;
  }
  EXPECT_EQ(aligned_by_messages, report["links"].size()) << "a chain: its links have messages";
  EXPECT_GT(left_out, 0u) << "missed and extra pulses are left out, and said";
  EXPECT_NE(sync.err.find("without a partner"), std::string::npos) << sync.err;
  // The pair of hosts with no message between them: a periodic signal and no
  // alignment: nothing paired, and said.
  EXPECT_NE(sync.err.find("too regular to align"), std::string::npos) << sync.err;
  const json verdict = check_truth(dir, sync.out);
  EXPECT_EQ(verdict["violations"], 0) << verdict.dump(2);

  // An extract carries the occurrences: the same report.
  const auto extract = run_command(tracesync_binary(), {"extract", "--simultaneous", kPps, "-o", dir.file("x.tsx"), dir.path()});
  ASSERT_EQ(extract.exit_code, 0) << extract.err;
  const auto again = run_command(tracesync_binary(), {"sync", "--format", "json", "--simultaneous", kPps, dir.file("x.tsx")});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const json replayed = json::parse(again.out);
  ASSERT_EQ(replayed["links"].size(), report["links"].size());
  for (std::size_t i = 0; i < report["links"].size(); ++i) {
    EXPECT_EQ(replayed["links"][i]["alpha"], report["links"][i]["alpha"]);
    EXPECT_EQ(replayed["links"][i]["evidence"], report["links"][i]["evidence"]);
  }
}

// Beside messages, a host that misses pulses leaves the link pinned by
// its messages alone for seconds; under the default stability assumption
// (100 ppm) the band there is the messages' and its centre errs as theirs
// do (11 us on this experiment; docs/signals.md, "Why signals beside
// messages err by 11 us"). Stating the clocks' stability brings the goal
// back; the truth stays inside every bound under both.
TEST(Signals, BesideMessagesAStatedStabilityKeepsTwoMicrosecondsAcrossMissedPulses) {
  testing::TempDir dir;
  const auto sim = run_command(tracesync_binary(),
                               {"simulate", "--quiet", "--output", dir.path(), "--hosts", "2", "--seed", "37",
                                "--duration", "10min", "--signal-rate", "1", "--signal-jitter", "1", "--filler-ratio",
                                "1", "--rate", "5", "--clock-model", "wander", "--signal-missed", "0.05",
                                "--signal-extra", "0.05"});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  for (const std::string stability : {"100", "10"}) {
    const auto sync = run_command(tracesync_binary(), {"sync", "--format", "json", "--clock-stability", stability,
                                                       "--simultaneous", kPps, dir.path()});
    ASSERT_EQ(sync.exit_code, 0) << sync.err;
    const json verdict = check_truth(dir, sync.out);
    EXPECT_EQ(verdict["checked"], 2) << stability;
    EXPECT_EQ(verdict["violations"], 0) << stability << " ppm: " << verdict.dump(2);
    if (stability == "10") {
      EXPECT_LE(verdict["worst_error_ns"].get<double>(), 2000.0) << "issue 37's goal, the clocks' stability stated";
    }
  }
}

// The signal in a match stream (docs/signals.md, "Simulated signals"):
// `simulate --write-matches` writes each host's records as `signal pps HOST
// TIME_NS` lines, and `sync --matches --simultaneous event=pps` pairs them
// as it pairs the traces' irq_handler_entry: the same pairs, link by link,
// and the truth inside every bound; --no-traces needs no CTF at all.
TEST(Signals, AMatchStreamCarriesThemAsTheTracesDo) {
  testing::TempDir dir;
  simulate(dir, {"--rate", "5", "--offset-max", "100ms", "--clock-model", "wander", "--signal-missed", "0.05",
                 "--signal-extra", "0.05", "--write-matches"});
  const std::string matches = dir.file("matches.txt");
  EXPECT_NE(testing::read_file(matches).find("\nsignal pps host0 "), std::string::npos);
  const auto from_traces = run_command(tracesync_binary(), {"sync", "--format", "json", "--simultaneous",
                                                            std::string(kPps) + ",clocks-within=250ms", dir.path()});
  ASSERT_EQ(from_traces.exit_code, 0) << from_traces.err;
  const auto from_stream = run_command(tracesync_binary(), {"sync", "--format", "json", "--matches", matches,
                                                            "--simultaneous", "event=pps,jitter=1us,clocks-within=250ms"});
  ASSERT_EQ(from_stream.exit_code, 0) << from_stream.err;
  // Per pair of hosts, what the signal gave (the sides as the hostnames sort).
  const auto signals_by_hosts = [](const json& report) {
    std::map<std::string, std::vector<uint64_t>> out;
    for (const json& link : report["links"]) {
      if (!link.contains("evidence") || !link["evidence"].contains("signals")) continue;
      const json& s = link["evidence"]["signals"][0];
      std::string a = link["a_hostname"], b = link["b_hostname"];
      uint64_t unpaired_a = s["unpaired_a"], unpaired_b = s["unpaired_b"];
      if (b < a) {
        std::swap(a, b);
        std::swap(unpaired_a, unpaired_b);
      }
      out[a + " " + b] = {s["pairs"], unpaired_a, unpaired_b, s["ambiguous"], s["cuts"], s["not_aligned"]};
    }
    return out;
  };
  const json traces_report = json::parse(from_traces.out), stream_report = json::parse(from_stream.out);
  const auto expected = signals_by_hosts(traces_report);
  EXPECT_EQ(expected.size(), 3u) << from_traces.out;
  EXPECT_EQ(signals_by_hosts(stream_report), expected);
  EXPECT_EQ(stream_report["messages"], traces_report["messages"]) << "the same messages, and the same pairs";
  EXPECT_NE(from_stream.err.find("without a partner"), std::string::npos) << from_stream.err;
  EXPECT_EQ(check_truth(dir, from_stream.out)["violations"], 0);
  // The HTML report's table of what each signal gave each link.
  const auto html = run_command(tracesync_binary(), {"sync", "--format", "html", "--matches", matches, "--simultaneous",
                                                     "event=pps,jitter=1us,clocks-within=250ms"});
  ASSERT_EQ(html.exit_code, 0) << html.err;
  EXPECT_NE(html.out.find("<h3>Simultaneous signals</h3><table id=\"signals\">"), std::string::npos);
  EXPECT_NE(html.out.find("<td>pps</td>"), std::string::npos);

  // --no-traces: the same match stream, no CTF.
  testing::TempDir bare;
  const auto sim = run_command(tracesync_binary(),
                               {"simulate", "--quiet", "--no-traces", "--write-matches", "--output", bare.path(),
                                "--hosts", "3", "--seed", "37", "--duration", "120s", "--signal-rate", "1",
                                "--signal-jitter", "1", "--rate", "5", "--offset-max", "100ms", "--clock-model",
                                "wander", "--signal-missed", "0.05", "--signal-extra", "0.05"});
  ASSERT_EQ(sim.exit_code, 0) << sim.err;
  EXPECT_EQ(testing::read_file(bare.file("matches.txt")), testing::read_file(matches));
}

TEST(Signals, AMatchStreamsSignalLinesThatCannotServeAreNamed) {
  testing::TempDir dir;
  testing::write_file(dir.file("m.txt"), "alpha 100 beta 200\nbeta 300 alpha 400\nalpha 500 beta 600\n"
                                         "beta 700 alpha 800\nsignal pps alpha 1000\nsignal pps beta 1100\n");
  // No spec names them: said, not an error.
  auto r = run_command(tracesync_binary(), {"sync", "--matches", dir.file("m.txt")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("2 signal lines of 'pps' not used"), std::string::npos) << r.err;
  // A filter cannot apply: the lines carry no fields.
  r = run_command(tracesync_binary(), {"sync", "--matches", dir.file("m.txt"), "--simultaneous",
                                       "event=pps,filter=irq==199,jitter=1us"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("signal lines carry no fields: filter=irq==199 cannot apply"), std::string::npos) << r.err;
  // A signal no line names.
  r = run_command(tracesync_binary(), {"sync", "--matches", dir.file("m.txt"), "--simultaneous", "event=gps,jitter=1us"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("signal 'gps': no trace records its event gps"), std::string::npos) << r.err;
  // A bad time names its line; what came before is reported.
  testing::write_file(dir.file("bad.txt"), "alpha 100 beta 200\nsignal pps alpha 12x\n");
  r = run_command(tracesync_binary(), {"sync", "--matches", dir.file("bad.txt"), "--simultaneous", "event=pps,jitter=1us"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("bad.txt:2: TIME_NS '12x' is not a whole number of nanoseconds"), std::string::npos) << r.err;
}

TEST(Signals, ApplyWritesCopiesFromSignalsAlone) {
  testing::TempDir dir;
  simulate(dir, {"--rate", "0", "--offset-max", "100ms"}, "20s");
  const std::string spec = std::string(kPps) + ",clocks-within=250ms";
  testing::TempDir out;  // apply never writes inside its input
  const auto apply = run_command(tracesync_binary(), {"apply", "--simultaneous", spec, "-o", out.file("copies"), dir.path()});
  ASSERT_EQ(apply.exit_code, 0) << apply.err;
  const json manifest = json::parse(testing::read_file(out.file("copies/tracesync-manifest.json")));
  ASSERT_TRUE(manifest.contains("traces")) << manifest.dump(2);
  EXPECT_EQ(manifest["traces"].size(), 3u) << manifest.dump(2);
}

TEST(Signals, CheckCountsTheOccurrences) {
  testing::TempDir dir;
  simulate(dir, {"--rate", "0"}, "20s");
  const auto check = run_command(tracesync_binary(), {"check", "--simultaneous", kPps, dir.path()});
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_NE(check.out.find("usable through simultaneous signals only"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("signal 'irq_handler_entry': 20 occurrences of irq_handler_entry"), std::string::npos)
      << check.out;
}

TEST(Signals, SpecsTheTracesCannotServeAreNamed) {
  testing::TempDir dir;
  simulate(dir, {"--rate", "0"}, "10s");
  struct Case {
    std::string spec;
    std::vector<std::string> paths;
    std::string said;
  };
  const std::vector<Case> cases = {
      {"event=gps:pps,jitter=1us", {dir.path()}, "signal 'gps:pps': no trace records its event gps:pps"},
      {"event=irq_handler_entry,filter=line==3,jitter=1us", {dir.path()},
       "irq_handler_entry has no field `line` in its payload or context"},
      {"event=irq_handler_entry,filter=irq==pps,jitter=1us", {dir.path()},
       "the filter value 'pps' is not of the type of irq_handler_entry's field `irq`"},
      {"event=irq_handler_entry,jitter=2", {dir.path()}, "jitter='2', not a duration"},
      {"event=irq_handler_entry,jitter=fast", {dir.path()}, "jitter='fast', not a duration"},
      {kPps, {dir.file("host0")}, "only host0 records occurrences"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"sync", "--simultaneous", c.spec};
    args.insert(args.end(), c.paths.begin(), c.paths.end());
    const auto r = run_command(tracesync_binary(), args);
    EXPECT_EQ(r.exit_code, 2) << c.spec << "\n" << r.err;
    EXPECT_NE(r.err.find(c.said), std::string::npos) << c.spec << "\n" << r.err;
  }
}

}  // namespace
}  // namespace tracesync
