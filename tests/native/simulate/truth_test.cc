// SPDX-License-Identifier: EPL-2.0
// The compact truth: it maps any time exactly, stays small, appears whole
// or not at all; and the truth checker finds what is outside a bound.

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>
#include <nlohmann/json.hpp>

#include "model/quad.h"
#include "simulate/experiment.h"
#include "simulate/output_file.h"
#include "simulate/random.h"
#include "simulate/simulate.h"
#include "simulate/truth_check.h"
#include "simulate/truth_reader.h"
#include "temp_directory.h"

namespace tracesync::simulate {
namespace {

namespace fs = std::filesystem;
using model::Nanoseconds;
using model::Quad;
using testing::TempDirectory;

constexpr Nanoseconds kSecond = 1'000'000'000;

SimulationOptions truth_options(const std::string& output, ClockModel model, double duration_s) {
  SimulationOptions o;
  o.output_dir = output;
  o.hosts = 3;
  o.duration_s = duration_s;
  o.clock_model = model;
  o.write_traces = false;
  o.message_rate = 5;
  o.seed = 21;
  return o;
}

TEST(Truth, TheFileMapsAnyTimeLikeTheSimulatedClocks) {
  TempDirectory dir;
  for (const ClockModel m : {ClockModel::kLinear, ClockModel::kSteps, ClockModel::kSlews, ClockModel::kWander,
                             ClockModel::kCombined}) {
    SimulationOptions o = truth_options(dir / std::string(to_string(m)), m, 3600);
    o.drift_change_at_s = 1000;
    const SimulationSummary summary = run(o);
    const Truth truth = read_truth(summary.truth_path);
    const Experiment experiment = build_experiment(o);
    ASSERT_EQ(truth.hosts.size(), 3U);
    EXPECT_EQ(truth.start_ns, experiment.start_ns);
    EXPECT_EQ(truth.end_ns, experiment.end_ns);
    EXPECT_FALSE(truth.has_messages);
    Random random(8);
    for (std::size_t h = 0; h < 3; ++h) {
      const HostClock& clock = experiment.hosts[h].clock;
      EXPECT_EQ(truth.hosts[h].clock.pieces().size(), clock.segments().size());
      EXPECT_EQ(truth.host(truth.hosts[h].domain), &truth.hosts[h]);
      EXPECT_EQ(truth.host(experiment.hosts[h].name), &truth.hosts[h]);
      for (int i = 0; i < 2000; ++i) {
        const Nanoseconds t = experiment.start_ns + static_cast<Nanoseconds>(random.below(3600 * kSecond));
        const Quad local = truth.hosts[h].clock.local_at(static_cast<Quad>(t));
        // The decimals of the file carry the quad value to far below a ns,
        // and the rounded value is the reading the traces got.
        EXPECT_LT(model::to_double(model::abs(local - clock.local_exact(t))), 1e-6) << to_string(m) << " host " << h;
        EXPECT_EQ(model::round_to_int64(local), clock.local_ns(t));
      }
    }
  }
}

TEST(Truth, ADayOfCombinedClocksStaysSmall) {
  TempDirectory dir;
  SimulationOptions o = truth_options(dir / "day", ClockModel::kCombined, 86'400);
  o.hosts = 2;
  o.loaded_host_fraction = 0;  // load episodes (0.5 per second by default) would add 2 MB per loaded host
  const SimulationSummary summary = run(o);
  // About 9,100 rate pieces for host 1 (8,640 wander steps, the steps and
  // the slews), a line of about 100 bytes each: about a MB, not GB.
  EXPECT_LT(fs::file_size(summary.truth_path), 1'100'000U);
  const Truth truth = read_truth(summary.truth_path);
  EXPECT_GT(truth.hosts[1].clock.pieces().size(), 8'640U);
  EXPECT_LT(truth.hosts[1].clock.pieces().size(), 9'500U);
}

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(Truth, SameSeedSameClocksOtherSeedOtherClocks) {
  TempDirectory dir;
  const std::string first = run(truth_options(dir / "a", ClockModel::kCombined, 3600)).truth_path;
  const std::string again = run(truth_options(dir / "b", ClockModel::kCombined, 3600)).truth_path;
  SimulationOptions other = truth_options(dir / "c", ClockModel::kCombined, 3600);
  other.seed = 22;
  const std::string different = run(other).truth_path;
  EXPECT_EQ(file_text(first), file_text(again));
  EXPECT_NE(file_text(first), file_text(different));
}

TEST(Truth, MessagesAreListedOnlyWhenAsked) {
  TempDirectory dir;
  SimulationOptions o = truth_options(dir / "with", ClockModel::kSteps, 600);
  o.truth_messages = true;
  const SimulationSummary summary = run(o);
  const Truth truth = read_truth(summary.truth_path);
  EXPECT_TRUE(truth.has_messages);
  EXPECT_EQ(truth.messages.size(), summary.transmissions);
  for (const auto& m : truth.messages) EXPECT_NE(m.sender, m.receiver);
}

TEST(Truth, GapsHaveNoExchangesAndAreInTheTruth) {
  TempDirectory dir;
  SimulationOptions o = truth_options(dir / "gaps", ClockModel::kLinear, 600);
  o.message_rate = 50;
  o.loss_rate = 0;
  o.retransmission_rate = 0;
  o.gaps = {{.at_s = 100, .length_s = 60}, {.at_s = 400, .length_s = 30}};
  o.truth_messages = true;
  run(o);
  const auto truth_json = nlohmann::json::parse(std::ifstream(dir / "gaps/truth.json"));
  ASSERT_EQ(truth_json["gaps"].size(), 2U);
  const Nanoseconds start = truth_json["start_ns"];
  EXPECT_EQ(truth_json["gaps"][0][0], start + 100 * kSecond);
  EXPECT_EQ(truth_json["gaps"][0][1], start + 160 * kSecond);
  int near = 0;
  for (const auto& m : truth_json["messages"]) {
    const Nanoseconds t = m[4];
    // An answer to an exchange begun just before may fall in, not a new exchange.
    const bool in_gap = (t >= start + 100 * kSecond + kSecond / 10 && t < start + 160 * kSecond) ||
                        (t >= start + 400 * kSecond + kSecond / 10 && t < start + 430 * kSecond);
    EXPECT_FALSE(in_gap) << "a segment sent at " << t - start << " ns, in a gap";
    near += t > start + 90 * kSecond && t < start + 100 * kSecond ? 1 : 0;
  }
  EXPECT_GT(near, 100);  // traffic up to the gap
}

// --no-traces streams its transmissions: a key's match is written once
// its copies are all sent. The oracle keys every transmission of the truth
// at once, as the writer did before it streamed; resends of 1 ms timeouts
// make the span it holds short and crossed often.
TEST(Truth, StreamedMatchesAreWhatKeyingEveryTransmissionAtOnceGives) {
  TempDirectory dir;
  SimulationOptions o = truth_options(dir / "m", ClockModel::kWander, 20);
  o.message_rate = 400;
  o.loss_rate = 0.3;
  o.retransmission_rate = 0.05;
  o.retransmission_timeout_ms = 1;
  o.truth_messages = true;
  o.write_matches = true;
  const SimulationSummary summary = run(o);
  const auto truth = nlohmann::json::parse(std::ifstream(summary.truth_path));
  using Key = std::tuple<int, int, int64_t, int64_t, int>;  // sender, receiver, seq, ack_seq, tcp_flags
  std::map<Key, std::size_t> first_of;
  std::vector<std::pair<nlohmann::json, std::optional<Nanoseconds>>> keys;  // first send, first receive
  for (const auto& m : truth["messages"]) {
    const auto [at, inserted] = first_of.try_emplace(Key{m[0], m[2], m[6], m[7], m[8]}, keys.size());
    if (inserted) keys.push_back({m, std::nullopt});
    auto& receive = keys[at->second].second;
    if (!m[3].is_null() && (!receive || m[3].get<Nanoseconds>() < *receive)) receive = m[3].get<Nanoseconds>();
  }
  std::string expected;
  uint64_t received = 0;
  for (const auto& [send, receive] : keys) {
    if (!receive) continue;
    expected += "host" + std::to_string(send[0].get<int>()) + " " + std::to_string(send[1].get<Nanoseconds>()) +
                " host" + std::to_string(send[2].get<int>()) + " " + std::to_string(*receive) + "\n";
    ++received;
  }
  std::string written;
  std::ifstream matches(summary.matches_path);
  for (std::string line; std::getline(matches, line);) {
    if (!line.empty() && line[0] != '#') written += line + "\n";
  }
  EXPECT_EQ(summary.matches, received);
  EXPECT_GT(keys.size(), received + 100);  // keys lost on every try are left out
  EXPECT_GT(truth["messages"].size(), keys.size() + 1000);  // and resends are many
  EXPECT_EQ(written, expected);
}

// The names in `directory` that begin with `stem`: the file and any
// temporary of it.
std::vector<std::string> files_named(const fs::path& directory, const std::string& stem) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(directory)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(stem)) names.push_back(name);
  }
  return names;
}

TEST(Truth, AnUnfinishedFileLeavesNothingBehind) {
  TempDirectory dir;
  {
    OutputFile out(dir / "a.json");
    out << "{\"partial\": ";
    EXPECT_EQ(files_named(dir.path(), "a.json").size(), 1u);  // its temporary
    // Destroyed without close(): as when an exception unwinds.
  }
  EXPECT_EQ(files_named(dir.path(), "a.json"), std::vector<std::string>{});
  OutputFile done(dir / "b.json");
  done << "{}\n";
  EXPECT_FALSE(fs::exists(dir / "b.json"));  // not before close()
  done.close();
  EXPECT_EQ(files_named(dir.path(), "b.json"), std::vector<std::string>{"b.json"});
  std::ifstream written(dir / "b.json");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(written), {}), "{}\n");
}

// In a child process (EXPECT_EXIT): 0 when the run failed with a message
// naming truth.json and left neither truth.json nor its temporary.
int simulate_on_a_full_disk(const SimulationOptions& o, const std::string& output) {
  std::signal(SIGXFSZ, SIG_IGN);  // a write beyond the limit fails with EFBIG instead
  const rlimit limit{64 * 1024, 64 * 1024};
  if (setrlimit(RLIMIT_FSIZE, &limit) != 0) return 6;
  try {
    run(o);
  } catch (const SimulationError& e) {
    if (std::string(e.what()).find("truth.json") == std::string::npos) return 4;
    const bool left = !files_named(output, "truth.json").empty();
    return left ? 5 : 0;
  }
  return 3;
}

// A full disk, played by a file size limit in a child process: the
// simulation fails with a message, and truth.json is not there at all
// rather than truncated.
TEST(Truth, AFullDiskLeavesNoTruncatedTruth) {
  TempDirectory dir;
  SimulationOptions o = truth_options(dir / "full", ClockModel::kCombined, 600);
  o.truth_messages = true;
  o.message_rate = 200;  // a truth of about a MB
  EXPECT_EXIT(std::exit(simulate_on_a_full_disk(o, dir / "full")), ::testing::ExitedWithCode(0), "");
}

// A report made from the truth itself: a line per trace through the true
// map at both ends of its span, exact where the clocks are linear.
ReportTrace exact_report_trace(const Truth& truth, std::size_t host, std::size_t reference, Nanoseconds first,
                               Nanoseconds last, double bound) {
  ReportTrace trace;
  trace.name = truth.hosts[host].name;
  trace.domain = truth.hosts[host].domain;
  trace.reference = truth.hosts[reference].domain;
  trace.first_ns = first;
  trace.last_ns = last;
  const auto map = [&](Nanoseconds t) {
    return truth.hosts[reference].clock.local_at(truth.hosts[host].clock.true_at(static_cast<Quad>(t)));
  };
  const Quad slope = (map(last) - map(first)) / static_cast<Quad>(last - first);
  trace.segments.push_back({first, last, {slope, map(first) - slope * static_cast<Quad>(first)}, bound, bound});
  return trace;
}

TEST(TruthCheck, TheTruthItselfPassesAndAShiftedLineFails) {
  TempDirectory dir;
  const SimulationSummary summary = run(truth_options(dir / "linear", ClockModel::kLinear, 600));
  const Truth truth = read_truth(summary.truth_path);
  const Nanoseconds first = truth.start_ns + kSecond, last = truth.end_ns - kSecond;
  std::vector<ReportTrace> report{exact_report_trace(truth, 0, 1, first, last, 0),
                                  exact_report_trace(truth, 1, 1, first, last, 0),
                                  exact_report_trace(truth, 2, 1, first, last, 0)};
  TruthVerdict v = check_against_truth(report, truth);
  EXPECT_EQ(v.violations, 0U);
  EXPECT_EQ(v.checked, 3U);
  EXPECT_LT(v.worst_error_ns, 1e-3);
  for (const auto& t : v.traces) EXPECT_GE(t.instants, 1000U);

  // 100 ns off with a 50 ns bound: wrong everywhere.
  report[2].segments[0].transform.offset += 100;
  report[2].segments[0].uncertainty_first_ns = report[2].segments[0].uncertainty_last_ns = 50;
  v = check_against_truth(report, truth);
  EXPECT_EQ(v.traces[2].violations, v.traces[2].instants);
  EXPECT_NEAR(v.traces[2].worst_error_ns, 100, 1e-3);
  EXPECT_EQ(v.traces[2].largest_bound_ns, 50);
  EXPECT_EQ(v.violations, v.traces[2].violations);
  // With a 100 ns bound it holds.
  report[2].segments[0].uncertainty_first_ns = report[2].segments[0].uncertainty_last_ns = 100;
  EXPECT_EQ(check_against_truth(report, truth).violations, 0U);
}

TEST(TruthCheck, ALineOverARateStepIsCaughtWhereItBends) {
  TempDirectory dir;
  SimulationOptions o = truth_options(dir / "steps", ClockModel::kLinear, 600);
  o.hosts = 2;
  o.host_clocks = {{.host = 1, .offset_ns = 0, .drift_ppm = 5, .drift_change_at_s = 300, .drift_after_change_ppm = 6}};
  const Truth truth = read_truth(run(o).truth_path);
  // The chord through both ends is exact there and 150 us off at the step
  // (300 s at half the 1 ppm change): a 100 us bound is broken within 100 s
  // of the step only.
  std::vector<ReportTrace> report{exact_report_trace(truth, 1, 0, truth.start_ns, truth.end_ns, 160'000)};
  const TruthVerdict v = check_against_truth(report, truth);
  EXPECT_NEAR(v.worst_error_ns, 150'000, 100);
  EXPECT_EQ(v.violations, 0U);
  report[0].segments[0].uncertainty_first_ns = report[0].segments[0].uncertainty_last_ns = 100'000;
  const TruthVerdict tight = check_against_truth(report, truth);
  EXPECT_GT(tight.violations, tight.traces[0].instants / 4);
  EXPECT_LT(tight.violations, tight.traces[0].instants / 2);
  // Worst at the step: 300 s of true time, 300 s + 5 ppm on host 1's clock.
  EXPECT_NEAR(static_cast<double>(tight.traces[0].worst_violation_at - truth.start_ns), 300'001'500'000.0, 2);
}

TEST(TruthCheck, SegmentsMustCoverTheSpanAndUnsynchronizedTracesAreSkipped) {
  TempDirectory dir;
  const Truth truth = read_truth(run(truth_options(dir / "cover", ClockModel::kLinear, 100)).truth_path);
  ReportTrace trace = exact_report_trace(truth, 1, 0, truth.start_ns, truth.end_ns, 10);
  // Two halves with a hole between them.
  ReportSegment second = trace.segments[0];
  trace.segments[0].last_ns = truth.start_ns + 40 * kSecond;
  second.first_ns = truth.start_ns + 60 * kSecond;
  trace.segments.push_back(second);
  ReportTrace lonely;
  lonely.name = "host2";
  lonely.domain = truth.hosts[2].domain;
  lonely.synchronized = false;
  const TruthVerdict v = check_against_truth({trace, lonely}, truth);
  EXPECT_GT(v.traces[0].violations, 100U);  // about a fifth of 1,000 instants
  EXPECT_LT(v.traces[0].violations, 300U);
  EXPECT_TRUE(v.traces[1].skipped);
  EXPECT_EQ(v.skipped, 1U);
  EXPECT_EQ(v.checked, 1U);
}

// Issue 33's goals are in the traffic's terms: the largest bound where
// every link on the trace's path has messages, not beyond a link's first or
// last message (the map runs on there, its bound growing with no message to
// narrow it) nor inside a gap of the run.
TEST(TruthCheck, TheLargestBoundInTrafficLeavesOutTheTrafficsEndsAndTheGaps) {
  TempDirectory dir;
  SimulationOptions o = truth_options(dir / "ends", ClockModel::kLinear, 600);
  o.gaps = {{.at_s = 200, .length_s = 60}};
  const Truth truth = read_truth(run(o).truth_path);
  const auto local = [&](double true_s) {
    return model::round_to_int64(
        truth.hosts[1].clock.local_at(static_cast<Quad>(truth.start_ns) + static_cast<Quad>(true_s * 1e9)));
  };
  // The exact line, its bound 100 ns in the traffic, up to 900 ns at the
  // trace's start before the link's first message (10 s), 700 ns in the
  // middle of the gap and 800 ns at the trace's end after the link's last
  // message (590 s).
  const ReportTrace line = exact_report_trace(truth, 1, 0, local(0), local(600), 100);
  ReportTrace trace = line;
  trace.segments.clear();
  const std::vector<std::tuple<double, double, double, double>> pieces{
      {0, 10, 900, 100}, {10, 200, 100, 100}, {200, 230, 100, 700}, {230, 260, 700, 100}, {260, 590, 100, 100},
      {590, 600, 100, 800}};
  for (const auto& [from_s, to_s, from_bound, to_bound] : pieces) {
    trace.segments.push_back({local(from_s), local(to_s), line.segments[0].transform, from_bound, to_bound});
  }
  trace.traffic = {{.a_domain = truth.hosts[1].domain, .first_ns = local(10), .last_ns = local(590)}};
  const TruthVerdict v = check_against_truth({trace}, truth);
  EXPECT_EQ(v.violations, 0U);
  EXPECT_EQ(v.traces[0].largest_bound_ns, 900);
  EXPECT_NEAR(v.traces[0].largest_bound_in_traffic_ns, 100, 0.01);
  EXPECT_EQ(v.largest_bound_in_traffic_ns, v.traces[0].largest_bound_in_traffic_ns);
  // Without the link's traffic, the trace's own ends are its traffic's.
  trace.traffic.clear();
  EXPECT_EQ(check_against_truth({trace}, truth).traces[0].largest_bound_in_traffic_ns, 900);
  // Without the gap, its middle counts.
  Truth no_gap = truth;
  no_gap.gaps.clear();
  trace.traffic = {{.a_domain = truth.hosts[1].domain, .first_ns = local(10), .last_ns = local(590)}};
  EXPECT_NEAR(check_against_truth({trace}, no_gap).traces[0].largest_bound_in_traffic_ns, 700, 0.01);

  // The traffic comes from the hull points of the tree's links on the path
  // (a's clock): where both directions have begun and not yet ended.
  const std::vector<ReportTrace> read = parse_report(R"({"traces": [
    {"name": "a", "hostname": "host0", "domain": "d0", "island": 0, "reference": true, "slope": "1", "offset": "0",
     "uncertainty_ns": 0, "first_ns": 10, "last_ns": 30},
    {"name": "b", "hostname": "host1", "domain": "d1", "island": 0, "reference": false, "slope": "1", "offset": "5",
     "uncertainty_ns": 9, "first_ns": 10, "last_ns": 30}],
    "links": [{"a": "d1", "b": "d0", "in_tree": true, "lower_hull_points": [{"x": 11, "y": 16}, {"x": 28, "y": 33}],
               "upper_hull_points": [{"x": 12, "y": 15}, {"x": 20, "y": 24}, {"x": 29, "y": 33}]},
              {"a": "d1", "b": "d2", "in_tree": false, "lower_hull_points": [{"x": 10, "y": 1}],
               "upper_hull_points": [{"x": 30, "y": 1}]}],
    "islands": [{"id": 0, "reference": "d0", "forced": false, "domains": ["d0", "d1"]}]})",
                                                     "report.json");
  ASSERT_EQ(read.size(), 2U);
  EXPECT_TRUE(read[0].traffic.empty());
  ASSERT_EQ(read[1].traffic.size(), 1U);
  EXPECT_EQ(read[1].traffic[0].a_domain, "d1");
  EXPECT_EQ(read[1].traffic[0].first_ns, 12);
  EXPECT_EQ(read[1].traffic[0].last_ns, 28);
  // A point without its x is refused.
  EXPECT_THROW(parse_report(R"({"traces": [], "links": [{"a": "d1", "b": "d0", "in_tree": true,
                 "lower_hull_points": [{"x": 1}], "upper_hull_points": [{}]}]})",
                            "r.json"),
               TruthError);
}

TEST(TruthCheck, ReportsAreReadWithOrWithoutSegments) {
  const std::string report = R"({"traces": [
    {"name": "a", "hostname": "host0", "domain": "d0", "island": 0, "reference": true, "slope": "1", "offset": "0",
     "uncertainty_ns": 0, "first_ns": 10, "last_ns": 20},
    {"name": "b", "hostname": "host1", "domain": "d1", "island": 0, "reference": false, "slope": "1", "offset": "5",
     "uncertainty_ns": 9, "first_ns": 10, "last_ns": 30,
     "segments": [{"first_ns": 10, "last_ns": 20, "slope": "1", "offset": "5", "uncertainty_first_ns": 1, "uncertainty_last_ns": 3},
                  {"first_ns": 20, "last_ns": 30, "slope": "1.5", "offset": "-5", "uncertainty_first_ns": 3, "uncertainty_last_ns": 9}]},
    {"name": "c", "hostname": "host2", "domain": "d2", "synchronized": false}],
    "islands": [{"id": 0, "reference": "d0", "forced": false, "domains": ["d0", "d1"]}]})";
  const std::vector<ReportTrace> traces = parse_report(report, "report.json");
  ASSERT_EQ(traces.size(), 3U);
  EXPECT_TRUE(traces[0].top_level_only);
  EXPECT_EQ(traces[0].reference, "d0");
  EXPECT_EQ(traces[1].reference, "d0");
  ASSERT_EQ(traces[0].segments.size(), 1U);
  EXPECT_EQ(traces[0].segments[0].first_ns, 10);
  ASSERT_EQ(traces[1].segments.size(), 2U);
  EXPECT_EQ(traces[1].segments[1].bound_at(25), 6);
  EXPECT_EQ(traces[1].segments[1].transform.slope, Quad(1.5));
  EXPECT_FALSE(traces[2].synchronized);
  try {
    parse_report(R"({"traces": [{"name": "a", "hostname": "h", "domain": "d", "reference": "d", "first_ns": 1,
                     "last_ns": 2, "slope": "x", "offset": "0", "uncertainty_ns": 0}]})",
                 "r.json");
    ADD_FAILURE() << "a slope that is not a decimal must be refused";
  } catch (const TruthError& e) {
    EXPECT_NE(std::string(e.what()).find("r.json: trace 0"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_report("{\"links\": []}", "r.json"), TruthError);
  EXPECT_THROW(parse_truth(R"({"format": "tracesync-truth/1", "hosts": []})", "t.json"), TruthError);
}

}  // namespace
}  // namespace tracesync::simulate
