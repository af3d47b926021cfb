// SPDX-License-Identifier: EPL-2.0
// The clock-model options and the JSON segment contract (docs/json.md), end
// to end: every trace's "segments" non-empty, contiguous and covering its
// span, with 34-digit decimals; the shared LTTng fixtures giving one segment
// per trace, equal to the single-line model's result.

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <nlohmann/json.hpp>

#include "support/run_command.h"

namespace tracesync {
namespace {

using nlohmann::json;
using testing::run_command;
using testing::tracesync_binary;

std::string matches(const std::string& name) { return std::string(TRACESYNC_FIXTURES_DIR) + "/matches/" + name; }
std::string shared(const std::string& name) { return std::string(TRACESYNC_SHARED_DIR) + "/fixtures/" + name; }

// A fixture of two islands exits 4 (traces not synchronized with the rest).
json sync_json(std::vector<std::string> args, int exit_code = 0) {
  args.insert(args.begin(), "sync");
  args.insert(args.end(), {"--format", "json"});
  const auto r = run_command(tracesync_binary(), args);
  EXPECT_EQ(r.exit_code, exit_code) << r.err;
  return json::parse(r.out);
}

// Significant digits of a plain decimal: all its digits once the sign,
// the point and the leading zeros are gone.
std::size_t significant_digits(std::string text) {
  std::string digits;
  for (const char c : text) {
    if (c >= '0' && c <= '9') digits.push_back(c);
  }
  const std::size_t first = digits.find_first_not_of('0');
  return first == std::string::npos ? 0 : digits.size() - first;
}

void expect_segment_contract(const json& report) {
  for (const json& t : report["traces"]) {
    const std::string name = t["name"];
    ASSERT_TRUE(t["segments"].is_array()) << name;
    ASSERT_FALSE(t["segments"].empty()) << name;
    const json& segments = t["segments"];
    EXPECT_EQ(segments.front()["first_ns"], t["first_ns"]) << name;
    EXPECT_EQ(segments.back()["last_ns"], t["last_ns"]) << name;
    for (std::size_t i = 0; i < segments.size(); ++i) {
      const json& s = segments[i];
      // Exactly the contract's fields (json sorts its keys).
      std::vector<std::string> keys;
      for (auto it = s.begin(); it != s.end(); ++it) keys.push_back(it.key());
      EXPECT_EQ(keys, (std::vector<std::string>{"first_ns", "last_ns", "offset", "slope", "uncertainty_first_ns",
                                                "uncertainty_last_ns"}));
      EXPECT_TRUE(s["first_ns"].is_number_integer());
      EXPECT_TRUE(s["last_ns"].is_number_integer());
      EXPECT_LE(s["first_ns"].get<int64_t>(), s["last_ns"].get<int64_t>());
      if (i > 0) {
        EXPECT_EQ(s["first_ns"], segments[i - 1]["last_ns"]) << name << " segment " << i;
      }
      ASSERT_TRUE(s["slope"].is_string());
      ASSERT_TRUE(s["offset"].is_string());
      EXPECT_EQ(significant_digits(s["slope"]), 34u) << s["slope"];
      const std::string offset = s["offset"];
      if (offset != "0") {
        EXPECT_EQ(significant_digits(offset), 34u) << offset;
      }
      EXPECT_TRUE(s["uncertainty_first_ns"].is_number());
      EXPECT_TRUE(s["uncertainty_last_ns"].is_number());
    }
    if (segments.size() == 1 && t.value("synchronized", true)) {  // not synchronized: no bound at top level
      EXPECT_EQ(segments[0]["slope"], t["slope"]) << name;
      EXPECT_EQ(segments[0]["offset"], t["offset"]) << name;
      // One line, its bound the worse of the piece's two ends.
      EXPECT_EQ(std::max(segments[0]["uncertainty_first_ns"].get<double>(), segments[0]["uncertainty_last_ns"].get<double>()),
                t["uncertainty_ns"].get<double>())
          << name;
    }
  }
  for (const json& link : report["links"]) {
    ASSERT_TRUE(link["segments"].is_array());
    for (const json& s : link["segments"]) {
      for (const char* key : {"first_ns", "last_ns", "quality", "alpha", "beta", "lmin", "lmax",
                              "uncertainty_first_ns", "uncertainty_last_ns", "lower_messages", "upper_messages"}) {
        EXPECT_TRUE(s.contains(key)) << key;
      }
    }
  }
}

TEST(ClockModel, MatchStreamsFollowTheSegmentContract) {
  for (const char* file : {"two_hosts_hand.txt", "chain_three_hosts.txt", "two_islands.txt", "contradiction.txt"}) {
    SCOPED_TRACE(file);
    // two_islands: two islands; contradiction: its one contradicting message
    // opens a second segment, each one-sided, so that link has no bound.
    const std::string name = file;
    const json report = sync_json({"--matches", matches(file)}, name == "two_islands.txt" || name == "contradiction.txt" ? 4 : 0);
    EXPECT_EQ(report["options"]["clock_model"], "piecewise");
    expect_segment_contract(report);
  }
}

TEST(ClockModel, OptionsAreReportedAndValidated) {
  const json report = sync_json({"--matches", matches("two_hosts_hand.txt"), "--clock-model", "linear",
                                 "--clock-stability", "0.5ppm"});
  EXPECT_EQ(report["options"]["clock_model"], "linear");
  EXPECT_EQ(report["options"]["clock_stability_ppm"], 0.5);
  EXPECT_FALSE(report["options"].contains("link_budget"));  // the linear model keeps no log
  const json piecewise = sync_json({"--matches", matches("two_hosts_hand.txt"), "--clock-stability", "2"});
  EXPECT_EQ(piecewise["options"]["clock_stability_ppm"], 2.0);
  EXPECT_EQ(piecewise["options"]["link_budget"], 1048576);  // sync's (live's: live_folder_replay_test.py)
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--clock-model", "wobbly"}, "--clock-model must be 'piecewise' or 'linear', not 'wobbly'"},
           {{"--clock-stability", "-1ppm"}, "--clock-stability '-1ppm' is not a rate of 0 ppm or more"},
           {{"--clock-stability", "fast"}, "--clock-stability 'fast' is not a rate of 0 ppm or more"},
           {{"--clock-stability", "1ms"}, "--clock-stability '1ms' is not a rate of 0 ppm or more"}}) {
    std::vector<std::string> full = {"sync", "--matches", matches("two_hosts_hand.txt")};
    full.insert(full.end(), args.begin(), args.end());
    const auto r = run_command(tracesync_binary(), full);
    EXPECT_EQ(r.exit_code, 2) << args[1];
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
}

TEST(ClockModel, HistoryKeepsItsLinesOnLinearInput) {
  const auto r = run_command(tracesync_binary(),
                             {"sync", "--matches", matches("chain_three_hosts.txt"), "--history", "-f", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  int history = 0;
  while (std::getline(lines, line) && line.starts_with("{\"format\":\"tracesync-history")) {
    const json j = json::parse(line);
    // One line per message; no segment opens or closes on these few points.
    EXPECT_EQ(j["format"], "tracesync-history/1") << line;
    ++history;
  }
  EXPECT_GT(history, 0);
}

// The shared LTTng fixtures: one segment per trace, and exactly the
// single-line model's numbers.
TEST(ClockModel, LttngFixturesGiveOneSegmentEqualToTheLinearModel) {
  const std::vector<std::string> experiments = {"lttng-modules-2.1-addons", "lttng-modules-2.4-addons/django-vote-v1",
                                                "lttng-modules-2.4-addons/django-vote-v2"};
  int found = 0;
  for (const std::string& experiment : experiments) {
    if (!std::filesystem::exists(shared(experiment))) continue;
    ++found;
    SCOPED_TRACE(experiment);
    const json piecewise = sync_json({shared(experiment)});
    const json linear = sync_json({shared(experiment), "--clock-model", "linear"});
    expect_segment_contract(piecewise);
    ASSERT_EQ(piecewise["traces"].size(), linear["traces"].size());
    for (std::size_t i = 0; i < piecewise["traces"].size(); ++i) {
      const json& p = piecewise["traces"][i];
      const json& l = linear["traces"][i];
      EXPECT_EQ(p["segments"].size(), 1u) << p["name"];
      for (const char* key : {"name", "slope", "offset", "uncertainty_ns", "first_ns", "last_ns", "segments"}) {
        EXPECT_EQ(p[key], l[key]) << p["name"] << " " << key;
      }
    }
  }
  if (found == 0) GTEST_SKIP() << "shared fixtures absent: " << shared("");
}

}  // namespace
}  // namespace tracesync
