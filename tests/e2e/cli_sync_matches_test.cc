// SPDX-License-Identifier: EPL-2.0
// `tracesync sync --matches` end to end, on the hand-computed fixtures.

#include <gtest/gtest.h>

#include <tuple>

#include <nlohmann/json.hpp>

#include "snapshot/tracesync.pb.h"
#include "support/run_command.h"

namespace tracesync {
namespace {

using nlohmann::json;
using testing::run_command;
using testing::tracesync_binary;

std::string fixture(const std::string& name) { return std::string(TRACESYNC_FIXTURES_DIR) + "/matches/" + name; }

// The JSON report; a run with a trace not synchronized with the rest exits with 4.
json sync_json(const std::string& file, std::vector<std::string> extra = {}, int exit_code = 0) {
  std::vector<std::string> args = {"sync", "--matches", fixture(file), "--format", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_command(tracesync_binary(), args);
  EXPECT_EQ(r.exit_code, exit_code) << r.err;
  return json::parse(r.out);
}

const json& by_name(const json& array, const std::string& key, const std::string& value) {
  for (const json& item : array) {
    if (item.at(key) == value) return item;
  }
  ADD_FAILURE() << "no " << key << " = " << value;
  static const json empty = json::object();
  return empty;
}

// The hand computations are of the single-line model with no clock-stability
// term (exactly Trace Compass's semantics); the defaults add the term.
const std::vector<std::string> kLinearExact = {"--clock-model", "linear", "--clock-stability", "0"};

TEST(SyncMatches, TwoHostsMatchTheHandComputation) {
  const json report = sync_json("two_hosts_hand.txt", kLinearExact);
  EXPECT_EQ(report["format"], "tracesync-sync/1");
  EXPECT_TRUE(report["complete"]);
  ASSERT_EQ(report["links"].size(), 1u);
  const json& link = report["links"][0];
  EXPECT_EQ(link["a"], "a");
  EXPECT_EQ(link["b"], "b");
  EXPECT_EQ(link["quality"], "ACCURATE");
  EXPECT_EQ(link["alpha"], "1.000000000000000000000000000000000");
  EXPECT_EQ(link["beta"], "5.000000000000000000000000000000000");
  EXPECT_EQ(link["accuracy"].get<std::string>().substr(0, 20), "0.200000000000000000");
  EXPECT_EQ(link["messages"], 3);
  EXPECT_EQ(link["lower_hull"], 2);
  EXPECT_EQ(link["upper_hull"], 1);
  EXPECT_EQ(link["contradictions"], 0);
  EXPECT_EQ(link["in_tree"], true);
  EXPECT_EQ(link["uncertainty_ns"], 5.0);
  EXPECT_EQ(link["lmax"]["slope"].get<std::string>().substr(0, 6), "1.1000");
  EXPECT_EQ(link["lmin"]["intercept"], "10.00000000000000000000000000000000");

  // Two vertices of equal cost: the reference is the smaller id, a.
  ASSERT_EQ(report["islands"].size(), 1u);
  EXPECT_EQ(report["islands"][0]["reference"], "a");
  const json& a = by_name(report["traces"], "name", "a");
  const json& b = by_name(report["traces"], "name", "b");
  EXPECT_TRUE(a["reference"]);
  EXPECT_FALSE(b["reference"]);
  EXPECT_EQ(a["slope"], "1.000000000000000000000000000000000");
  EXPECT_EQ(a["offset"], "0");
  // t_a = t_b - 5.
  EXPECT_EQ(b["slope"], "1.000000000000000000000000000000000");
  EXPECT_EQ(b["offset"], "-5.000000000000000000000000000000000");
  EXPECT_EQ(b["uncertainty_ns"], 5.0);
  EXPECT_EQ(b["domain"], "b");
  EXPECT_EQ(b["island"], 0);
}

TEST(SyncMatches, ChainComposesTransformsAlongTheTree) {
  const json report = sync_json("chain_three_hosts.txt", kLinearExact);
  ASSERT_EQ(report["links"].size(), 2u);
  for (const json& link : report["links"]) {
    EXPECT_EQ(link["quality"], "ACCURATE");
    EXPECT_EQ(link["accuracy"], "0");  // a single feasible line
    EXPECT_TRUE(link["in_tree"]);
  }
  // Zero-weight links make every vertex optimal: the smallest id wins.
  EXPECT_EQ(report["islands"][0]["reference"], "h0");
  EXPECT_EQ(by_name(report["traces"], "name", "h1")["offset"], "-1000.000000000000000000000000000000");
  EXPECT_EQ(by_name(report["traces"], "name", "h2")["offset"], "-500.0000000000000000000000000000000");
  for (const char* host : {"h0", "h1", "h2"}) {
    EXPECT_EQ(by_name(report["traces"], "name", host)["slope"], "1.000000000000000000000000000000000");
  }
}

TEST(SyncMatches, ForcedReferenceRebasesTheIsland) {
  const json report = sync_json("chain_three_hosts.txt", {"--reference", "h1"});
  EXPECT_EQ(report["islands"][0]["reference"], "h1");
  EXPECT_TRUE(report["islands"][0]["forced"]);
  EXPECT_EQ(by_name(report["traces"], "name", "h0")["offset"], "1000.000000000000000000000000000000");
  EXPECT_EQ(by_name(report["traces"], "name", "h2")["offset"], "500.0000000000000000000000000000000");
  EXPECT_TRUE(by_name(report["traces"], "name", "h1")["reference"]);
}

TEST(SyncMatches, OneDirectionIsIncompleteAndSplitsIslands) {
  const json report = sync_json("one_direction.txt", {}, 4);
  const json& link = report["links"][0];
  EXPECT_EQ(link["quality"], "INCOMPLETE");
  EXPECT_EQ(link["alpha"], "1.000000000000000000000000000000000");
  EXPECT_EQ(link["beta"], "100.0000000000000000000000000000000");
  EXPECT_TRUE(link["accuracy"].is_null());
  EXPECT_TRUE(link["uncertainty_ns"].is_null());
  EXPECT_FALSE(link["in_tree"]);
  ASSERT_EQ(report["islands"].size(), 2u);
  EXPECT_EQ(report["islands"][0]["reference"], "x");
  EXPECT_EQ(report["islands"][1]["reference"], "y");
  EXPECT_EQ(by_name(report["traces"], "name", "y")["island"], 1);
  EXPECT_TRUE(by_name(report["traces"], "name", "y")["reference"]);
}

TEST(SyncMatches, AContradictionKeepsTheLastAccurateEstimate) {
  const json report = sync_json("contradiction.txt", kLinearExact);
  const json& link = report["links"][0];
  EXPECT_EQ(link["quality"], "APPROXIMATE");
  EXPECT_EQ(link["contradictions"], 1);
  EXPECT_EQ(link["beta"], "5.000000000000000000000000000000000");
  EXPECT_TRUE(link["in_tree"]);  // an APPROXIMATE link is still usable
  // 5 ns of spread plus the contradiction's 25 ns (y = 40 where the estimate says 65).
  EXPECT_EQ(link["uncertainty_ns"], 30.0);
}

// The message no line fits with the others is named among the problems,
// with what it contradicts, so that a damaged timestamp can be found (issue
// 34): APPROXIMATE with one line, FAIL with segments (the message opens a
// second segment that has no bound).
TEST(SyncMatches, AContradictionIsNamedAmongTheProblems) {
  for (const auto& [options, quality, exit_code] :
       {std::tuple{kLinearExact, std::string("APPROXIMATE"), 0}, std::tuple{std::vector<std::string>{}, std::string("FAIL"), 4}}) {
    const json report = sync_json("contradiction.txt", options, exit_code);
    EXPECT_EQ(report["links"][0]["quality"], quality);
    ASSERT_EQ(report["problems"].size(), 1u) << report["problems"].dump();
    const std::string problem = report["problems"][0]["message"];
    EXPECT_EQ(report["problems"][0]["source"], "a");  // the sender's trace
    EXPECT_NE(problem.find("link a / b is " + quality + ": no line fits the message sent on a at 60 ns (in a) and "
                           "received on b at 40 ns (in b)"),
              std::string::npos)
        << problem;
    // What it contradicts: the messages pinning the lines before it.
    EXPECT_NE(problem.find("sent on a at 0 ns and received on b at 10 ns"), std::string::npos) << problem;
    EXPECT_NE(problem.find("sent on b at 55 ns and received on a at 50 ns"), std::string::npos) << problem;
    EXPECT_TRUE(report["complete"]);  // every input was read
  }
  // An ACCURATE link has nothing to say.
  EXPECT_TRUE(sync_json("two_hosts_hand.txt", kLinearExact)["problems"].empty());
}

TEST(SyncMatches, DisconnectedPairsAreSeparateIslands) {
  const json report = sync_json("two_islands.txt", {}, 4);
  ASSERT_EQ(report["islands"].size(), 2u);
  EXPECT_EQ(report["islands"][0]["domains"], json({"a", "b"}));
  EXPECT_EQ(report["islands"][1]["domains"], json({"c", "d"}));
  EXPECT_EQ(report["islands"][1]["reference"], "c");
  EXPECT_EQ(by_name(report["traces"], "name", "d")["island"], 1);
}

TEST(SyncMatches, TextReportShowsTablesAndTheTree) {
  const auto r = run_command(tracesync_binary(), {"sync", "--matches", fixture("chain_three_hosts.txt"), "--clock-model", "linear", "--clock-stability", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Traces (t_ref = slope * t + offset; shift = t_ref - t at the trace's first event)"),
            std::string::npos);
  EXPECT_NE(r.out.find("island 0: 3 domain(s), reference h0"), std::string::npos);
  EXPECT_NE(r.out.find("`-- h1  (ACCURATE"), std::string::npos);
  EXPECT_NE(r.out.find("    `-- h2  (ACCURATE"), std::string::npos);  // h2 hangs below h1
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(SyncMatches, ProtobufCarriesTheSameValuesAsJson) {
  testing::TempDir dir;
  const auto r = run_command(tracesync_binary(), {"sync", "--matches", fixture("two_hosts_hand.txt"), "--format",
                                                  "protobuf", "--output", dir.file("s.pb")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  v1::Snapshot s;
  ASSERT_TRUE(s.ParseFromString(testing::read_file(dir.file("s.pb"))));
  EXPECT_EQ(s.format_version(), 1u);
  ASSERT_EQ(s.links_size(), 1);
  EXPECT_EQ(s.links(0).quality(), v1::ACCURATE);
  EXPECT_EQ(s.links(0).beta().exact(), "5.000000000000000000000000000000000");
  EXPECT_EQ(s.links(0).beta().approx(), 5.0);
  v1::LinkDetail detail;
  ASSERT_TRUE(detail.ParseFromString(s.links(0).detail()));
  EXPECT_EQ(detail.lower_hull_points_size(), 2);
  EXPECT_EQ(detail.upper_hull_points(0).x(), 50);
  EXPECT_EQ(detail.upper_hull_points(0).y(), 55);
  EXPECT_EQ(detail.lmax().slope().exact().substr(0, 6), "1.1000");
  EXPECT_FALSE(detail.has_regression());
  EXPECT_EQ(s.traces_size(), 2);
  EXPECT_EQ(s.traces(1).offset().exact(), "-5.000000000000000000000000000000000");
}

TEST(SyncMatches, ReadsStandardInput) {
  const auto r = run_command(tracesync_binary(), {"sync", "--matches", "-", "--format", "json"},
                             testing::read_file(fixture("two_hosts_hand.txt")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["links"][0]["beta"], "5.000000000000000000000000000000000");
}

// The text report says no matching was done, rather than 0 sends and 0
// receives, and counts what was read.
// (b -> c comes before c -> b, which bounds no slope: b and c are not
// synchronized, and neither is a, a host alone: exit 4.)
TEST(SyncMatches, TheTextReportSaysTheMessagesCameMatched) {
  const auto r = run_command(tracesync_binary(), {"sync", "--matches", "-"}, "a 0 a 5\nb 0 c 7\nc 20 b 30\n");
  ASSERT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.out.find("\nMatching: none (a match stream): 2 matched messages read, and 1 within one domain, ignored\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find(" sends, "), std::string::npos) << r.out;
}

TEST(SyncMatches, HistoryPrintsEveryMessageThenTheReport) {
  const auto r = run_command(tracesync_binary(),
                             {"sync", "--matches", fixture("contradiction.txt"), "--history", "--format", "json", "--clock-model", "linear", "--clock-stability", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::vector<json> history;
  std::string line;
  while (std::getline(lines, line)) history.push_back(json::parse(line));
  ASSERT_EQ(history.size(), 5u);  // 4 messages + the report on one line
  const std::vector<std::string> qualities = {"INCOMPLETE", "INCOMPLETE", "ACCURATE", "APPROXIMATE"};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(history[i]["format"], "tracesync-history/1");
    EXPECT_EQ(history[i]["message"], i + 1);
    EXPECT_EQ(history[i]["quality"], qualities[i]) << i;
  }
  EXPECT_EQ(history[2]["beta"], "5.000000000000000000000000000000000");
  EXPECT_EQ(history[3]["contradictions"], 1);
  EXPECT_EQ(history[4]["format"], "tracesync-sync/1");
}

TEST(SyncMatches, BaselineNetworkGivesTheSameTransforms) {
  const json incremental = sync_json("chain_three_hosts.txt");
  const json baseline = sync_json("chain_three_hosts.txt", {"--network", "baseline"});
  EXPECT_EQ(incremental["traces"], baseline["traces"]);
  EXPECT_EQ(baseline["options"]["network"], "baseline");
}

}  // namespace
}  // namespace tracesync
