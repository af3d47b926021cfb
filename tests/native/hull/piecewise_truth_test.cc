// SPDX-License-Identifier: EPL-2.0
// The piecewise bounds against the truth: on clocks whose rate steps, slews,
// wanders, all three, and with gaps in the traffic, the true relation lies
// within the clock map's bound at every message and at thousands of sampled
// instants (zero violations), and within each segment's and the single
// line's bound too.

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <random>

#include "hull/piecewise_hull_estimator.h"
#include "hull/synthetic_clock.h"
#include "support/clock_map_at.h"

namespace tracesync::hull {
namespace {

using model::Quad;

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kMinute = 60 * kSecond;
constexpr int64_t kHour = 60 * kMinute;
// Quad arithmetic on 1.7e18 ns is exact to ~1e-16 ns; the truth to ~1e-5 ns.
constexpr double kTolerance = 1e-3;

using tracesync::testing::clock_map_at;

enum class Model { kSteps, kSlews, kWander, kCombined, kGaps };

const char* name_of(Model m) {
  switch (m) {
    case Model::kSteps: return "steps";
    case Model::kSlews: return "slews";
    case Model::kWander: return "wander";
    case Model::kCombined: return "combined";
    case Model::kGaps: return "gaps";
  }
  return "?";
}

// A clock of the model over `duration`, and its traffic: about 25,000
// messages whatever the duration (the suite must stay fast).
std::pair<SyntheticClock, SyntheticTraffic> scenario(Model model, int64_t duration, uint64_t seed) {
  SyntheticClock clock;
  SyntheticTraffic traffic;
  traffic.duration_ns = duration;
  traffic.mean_gap_ns = static_cast<double>(duration) / 25'000;
  traffic.seed = seed;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  const bool steps = model == Model::kSteps || model == Model::kCombined || model == Model::kGaps;
  const bool slews = model == Model::kSlews || model == Model::kCombined;
  if (steps) {  // NTP: up to 1 ppm, a minute or more apart
    const int64_t every = std::max(kMinute, duration / 6);
    for (int64_t at = every / 2; at < duration; at += every) {
      clock.steps.push_back({at, (unit(rng) < 0.5 ? -1 : 1) * (0.3 + 0.7 * unit(rng))});
    }
  }
  if (slews) {  // chrony: tens of ppm for seconds
    const int64_t every = std::max(20 * kSecond, duration / 4);
    for (int64_t at = every / 3; at < duration; at += every) {
      clock.slews.push_back({at, static_cast<int64_t>((2 + 6 * unit(rng)) * kSecond), (unit(rng) < 0.5 ? -1 : 1) * 50.0});
    }
  }
  if (model == Model::kWander || model == Model::kCombined) {  // temperature
    clock.wander = {0.3, static_cast<double>(2 * kHour), 6.28 * unit(rng)};
  }
  if (model == Model::kGaps) {  // two stretches without traffic, a step inside one
    traffic.quiet = {{duration / 5, duration / 5 + duration / 8}, {duration * 3 / 5, duration * 3 / 5 + duration / 20}};
    clock.steps.push_back({duration / 5 + duration / 16, 0.8});
  }
  return {clock, traffic};
}

struct Figures {
  double worst_error = 0;  // of the clock map, ns
  double worst_bound = 0;
  std::size_t segments = 0;
  std::size_t checked = 0;
};

Figures check_truth(Model model, int64_t duration, uint64_t seed) {
  const auto [clock, traffic] = scenario(model, duration, seed);
  const auto messages = generate_traffic(clock, traffic);
  PiecewiseHullEstimator estimator;  // the default assumption
  for (const auto& m : messages) estimator.add(m);
  const TimeSpan span{clock.start_ns, clock.start_ns + duration};
  Figures figures;
  figures.segments = estimator.segment_count();

  const auto map = estimator.clock_map(span);
  EXPECT_TRUE(map.has_value());
  if (!map) return figures;
  EXPECT_EQ(map->front().x, span.first);
  EXPECT_EQ(map->back().x, span.last);
  for (std::size_t i = 1; i < map->size(); ++i) {
    EXPECT_LT((*map)[i - 1].x, (*map)[i].x);
    EXPECT_LT((*map)[i - 1].y, (*map)[i].y);
  }
  const LinkEstimate line = estimator.estimate();
  const auto line_bound = estimator.offset_uncertainty(span);
  EXPECT_TRUE(line_bound.has_value());
  const auto segments = estimator.segments(span);

  std::vector<int64_t> instants;
  for (const auto& m : messages) instants.push_back(m.point.x);
  std::mt19937_64 rng(seed + 99);
  std::uniform_int_distribution<int64_t> anywhere(span.first, span.last);
  for (int i = 0; i < 2000; ++i) instants.push_back(anywhere(rng));
  for (const TimeSpan& q : traffic.quiet) {
    for (int i = 0; i <= 100; ++i) instants.push_back(span.first + q.first + (q.last - q.first) * i / 100);
  }
  instants.push_back(span.first);
  instants.push_back(span.last);

  std::size_t map_violations = 0, line_violations = 0, segment_violations = 0;
  for (const int64_t x : instants) {
    const Quad truth = clock.b_at(x);
    const auto at = clock_map_at(*map, x);
    const Quad error = model::abs(truth - at.y);
    figures.worst_error = std::max(figures.worst_error, model::to_double(error));
    figures.worst_bound = std::max(figures.worst_bound, model::to_double(at.bound));
    map_violations += error > at.bound + kTolerance;
    if (line_bound) {
      line_violations += model::abs(truth - (line.alpha * static_cast<Quad>(x) + line.beta)) > *line_bound + kTolerance;
    }
    for (const LinkSegment& s : segments) {
      if (x < s.span.first || x > s.span.last || !s.uncertainty_first) continue;
      const Quad t = s.span.last > s.span.first
                         ? static_cast<Quad>(x - s.span.first) / static_cast<Quad>(s.span.last - s.span.first)
                         : Quad{0};
      const Quad bound = *s.uncertainty_first + (*s.uncertainty_last - *s.uncertainty_first) * t;
      segment_violations += model::abs(truth - (s.estimate.alpha * static_cast<Quad>(x) + s.estimate.beta)) >
                            bound + kTolerance;
    }
    ++figures.checked;
  }
  EXPECT_EQ(map_violations, 0u);
  EXPECT_EQ(line_violations, 0u);
  EXPECT_EQ(segment_violations, 0u);
  return figures;
}

class PiecewiseTruth : public ::testing::TestWithParam<std::tuple<Model, int64_t>> {};

TEST_P(PiecewiseTruth, TruthWithinTheBoundEverywhere) {
  const auto [model, duration] = GetParam();
  for (uint64_t seed = 1; seed <= 2; ++seed) {
    SCOPED_TRACE(::testing::Message() << name_of(model) << " " << duration / kSecond << " s seed " << seed);
    const Figures f = check_truth(model, duration, seed);
    EXPECT_GE(f.checked, 2000u);
    std::cout << "  " << name_of(model) << " " << duration / kSecond << " s seed " << seed << ": " << f.segments
              << " segments, worst error " << f.worst_error / 1000 << " us, largest bound " << f.worst_bound / 1000
              << " us\n";
  }
}

INSTANTIATE_TEST_SUITE_P(
    ModelsAndDurations, PiecewiseTruth,
    ::testing::Combine(::testing::Values(Model::kSteps, Model::kSlews, Model::kWander, Model::kCombined, Model::kGaps),
                       ::testing::Values(kMinute, 10 * kMinute, kHour, 6 * kHour, 24 * kHour)),
    [](const ::testing::TestParamInfo<std::tuple<Model, int64_t>>& p) {
      return std::string(name_of(std::get<0>(p.param))) + "_" + std::to_string(std::get<1>(p.param) / kSecond) + "s";
    });

}  // namespace
}  // namespace tracesync::hull
