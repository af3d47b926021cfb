// SPDX-License-Identifier: EPL-2.0
// Realistic match streams: three hosts with real clock drifts. Every host's
// true transform lies within the reported uncertainty, for every estimator.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <quadmath.h>

#include <map>
#include <sstream>

#include "hull/synthetic_link.h"
#include "model/quad.h"
#include "support/run_command.h"

namespace tracesync {
namespace {

using nlohmann::json;
using testing::run_command;
using testing::tracesync_binary;

// Three hosts on one true clock: host = true * slope + offset.
struct HostClock {
  const char* name;
  model::Quad slope;
  model::Quad offset;
};
constexpr HostClock kHosts[] = {{"alpha", 1, 0}, {"beta", 1 + 20e-6Q, 3e8Q}, {"gamma", 1 - 35e-6Q, -5e7Q}};

// A chain alpha - beta - gamma: synthetic traffic on each link, written as
// a match stream in host names.
std::string chain_stream(std::size_t per_link) {
  std::ostringstream out;
  for (int link = 0; link < 2; ++link) {
    const HostClock& a = kHosts[link];
    const HostClock& b = kHosts[link + 1];
    hull::SyntheticLink s;
    s.drift_ppm = 0;  // generate on the true clock, then map
    s.offset_ns = 0;
    s.seed = 100 + static_cast<uint64_t>(link);
    s.mean_gap_ns = 2e6;
    for (const auto& m : hull::generate_messages(s, per_link)) {
      // The generator's x is the true time of a's event, y of b's.
      const auto on = [](const HostClock& h, int64_t t) {
        return model::round_to_int64(h.slope * static_cast<model::Quad>(t) + h.offset);
      };
      if (m.is_lower()) {
        out << a.name << ' ' << on(a, m.point.x) << ' ' << b.name << ' ' << on(b, m.point.y) << '\n';
      } else {
        out << b.name << ' ' << on(b, m.point.y) << ' ' << a.name << ' ' << on(a, m.point.x) << '\n';
      }
    }
  }
  return out.str();
}

model::Quad decimal(const json& j) { return *model::parse_decimal(j.get<std::string>()); }

void expect_truth_within_uncertainty(const json& report) {
  const json& traces = report["traces"];
  std::string reference;
  for (const json& t : traces) {
    if (t["reference"]) reference = t["name"];
  }
  ASSERT_FALSE(reference.empty());
  const HostClock* ref = nullptr;
  for (const HostClock& h : kHosts) {
    if (h.name == reference) ref = &h;
  }
  for (const json& t : traces) {
    const HostClock* host = nullptr;
    for (const HostClock& h : kHosts) {
      if (h.name == t["name"]) host = &h;
    }
    ASSERT_NE(host, nullptr);
    // At both ends of the host's span, the reported transform and the truth
    // (host time -> true time -> reference time) agree within the bound.
    for (const char* end : {"first_ns", "last_ns"}) {
      const model::Quad local = static_cast<model::Quad>(t[end].get<int64_t>());
      const model::Quad true_time = (local - host->offset) / host->slope;
      const model::Quad truth = ref->slope * true_time + ref->offset;
      const model::Quad reported = decimal(t["slope"]) * local + decimal(t["offset"]);
      EXPECT_LE(fabsq(reported - truth), t["uncertainty_ns"].get<double>() + 2)
          << t["name"] << " " << end << " with " << report["options"]["algorithm"];
    }
  }
}

TEST(SyncRealistic, TruthWithinUncertaintyForTheExactHull) {
  testing::TempDir dir;
  testing::write_file(dir.file("chain.txt"), chain_stream(20000));
  for (const char* network : {"incremental", "baseline"}) {
    const auto r = run_command(tracesync_binary(),
                               {"sync", "--matches", dir.file("chain.txt"), "-f", "json", "--network", network});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json report = json::parse(r.out);
    EXPECT_EQ(report["messages"], 40000);
    for (const json& link : report["links"]) EXPECT_EQ(link["quality"], "ACCURATE");
    EXPECT_EQ(report["islands"][0]["reference"], "beta");  // the middle of the chain
    expect_truth_within_uncertainty(report);
  }
}

TEST(SyncRealistic, EveryEstimatorFindsAccurateLinks) {
  testing::TempDir dir;
  testing::write_file(dir.file("chain.txt"), chain_stream(20000));
  for (const char* algorithm : {"hull", "linreg", "window-independent", "window-replace", "window-correlated"}) {
    const auto r = run_command(tracesync_binary(), {"sync", "--matches", dir.file("chain.txt"), "-f", "json",
                                                    "--algorithm", algorithm, "--window", "10s"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json report = json::parse(r.out);
    EXPECT_EQ(report["options"]["algorithm"], algorithm);
    for (const json& link : report["links"]) EXPECT_EQ(link["quality"], "ACCURATE") << algorithm;
    if (std::string(algorithm) == "linreg") {
      EXPECT_GT(report["links"][0]["regression"]["used_exchanges"].get<int>(), 1000);
    } else {
      // The hull's bounds are guarantees: the truth is inside.
      expect_truth_within_uncertainty(report);
    }
  }
}

TEST(SyncRealistic, AccuracyOnlyImprovesInTheHistory) {
  testing::TempDir dir;
  testing::write_file(dir.file("chain.txt"), chain_stream(3000));
  const auto r = run_command(tracesync_binary(), {"sync", "--matches", dir.file("chain.txt"), "-f", "json", "--history"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  std::map<std::string, model::Quad> last_accuracy;
  int accurate_lines = 0;
  while (std::getline(lines, line)) {
    const json j = json::parse(line);
    if (j["format"] != "tracesync-history/1" || j["accuracy"].is_null()) continue;
    const std::string key = j["a"].get<std::string>() + "-" + j["b"].get<std::string>();
    const model::Quad accuracy = decimal(j["accuracy"]);
    if (last_accuracy.contains(key)) {
      EXPECT_LE(accuracy, last_accuracy[key]);
    }
    last_accuracy[key] = accuracy;
    ++accurate_lines;
  }
  EXPECT_GT(accurate_lines, 5000);
}

}  // namespace
}  // namespace tracesync
