// SPDX-License-Identifier: EPL-2.0
// The clock models: their rate pieces have the documented shapes, and a
// clock integrates its rate exactly (oracle: piece-by-piece integration).

#include "simulate/clock_model.h"

#include <gtest/gtest.h>

#include <cmath>

#include "simulate/experiment.h"
#include "simulate/random.h"
#include "simulate/true_clock.h"

namespace tracesync::simulate {
namespace {

using model::Nanoseconds;
using model::Quad;
using RatePieces = std::vector<HostClock::RatePiece>;

constexpr Nanoseconds kStart = 1'767'225'600'000'000'000;
constexpr Nanoseconds kSecond = 1'000'000'000;

// The value of a step function given as pieces at t (0 before its first piece).
double rate_at(const RatePieces& pieces, Nanoseconds t) {
  double value = 0;
  for (const auto& p : pieces) {
    if (p.from_true_ns <= t) value = p.drift_ppm;
  }
  return value;
}

SimulationOptions model_options(ClockModel model, double duration_s) {
  SimulationOptions o;
  o.output_dir = "unused";
  o.clock_model = model;
  o.duration_s = duration_s;
  o.seed = 11;
  return o;
}

TEST(ClockModel, NamesRoundTrip) {
  for (const ClockModel m : {ClockModel::kLinear, ClockModel::kSteps, ClockModel::kSlews, ClockModel::kWander,
                             ClockModel::kCombined}) {
    EXPECT_EQ(parse_clock_model(to_string(m)), m);
  }
  EXPECT_FALSE(parse_clock_model("piecewise").has_value());
}

TEST(ClockModel, AddRatesIsThePointwiseSum) {
  Random random(3);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<RatePieces> parts(1 + random.below(4));
    for (auto& part : parts) {
      Nanoseconds t = kStart + static_cast<Nanoseconds>(random.below(10 * kSecond));
      for (uint64_t i = random.below(6); i > 0; --i) {
        part.push_back({t, random.uniform(-10, 10)});
        t += 1 + static_cast<Nanoseconds>(random.below(10 * kSecond));
      }
    }
    const RatePieces sum = add_rates(parts);
    for (int i = 0; i < 200; ++i) {
      const Nanoseconds t = kStart + static_cast<Nanoseconds>(random.below(70 * kSecond));
      double expected = 0;
      for (const auto& part : parts) expected += rate_at(part, t);
      EXPECT_NEAR(rate_at(sum, t), expected, 1e-12) << "trial " << trial << " t " << t;
    }
  }
}

TEST(ClockModel, LinearHasNoChanges) {
  const RatePieces r = draw_rate_changes(model_options(ClockModel::kLinear, 3600), 1, kStart, kStart + 3600 * kSecond);
  ASSERT_EQ(r.size(), 1U);
  EXPECT_EQ(r[0].from_true_ns, kStart);
  EXPECT_EQ(r[0].drift_ppm, 0);
}

TEST(ClockModel, StepsAreSpacedAndBoundedAsAsked) {
  SimulationOptions o = model_options(ClockModel::kSteps, 6 * 3600);
  o.step_interval_s = 120;
  o.step_size_ppm = 1;
  const Nanoseconds end = kStart + 6 * 3600 * kSecond;
  const RatePieces r = draw_rate_changes(o, 1, kStart, end);
  // About 6 h / 2 min = 180 steps.
  EXPECT_GT(r.size(), 140U);
  EXPECT_LT(r.size(), 230U);
  EXPECT_EQ(r.front().from_true_ns, kStart);
  for (std::size_t i = 0; i < r.size(); ++i) {
    EXPECT_LE(std::abs(r[i].drift_ppm), 0.5);
    if (i == 0) continue;
    const double gap_s = static_cast<double>(r[i].from_true_ns - r[i - 1].from_true_ns) / 1e9;
    EXPECT_GE(gap_s, 60 - 1e-6);
    EXPECT_LE(gap_s, 180 + 1e-6);
    EXPECT_LE(std::abs(r[i].drift_ppm - r[i - 1].drift_ppm), 1.0);
    EXPECT_LT(r[i].from_true_ns, end);
  }
}

TEST(ClockModel, SlewsLastTheirLengthAtTheirRate) {
  SimulationOptions o = model_options(ClockModel::kSlews, 4 * 3600);
  o.slew_interval_s = 600;
  o.slew_length_s = 4;
  o.slew_rate_ppm = 30;
  const RatePieces r = draw_rate_changes(o, 2, kStart, kStart + 4 * 3600 * kSecond);
  int slews = 0;
  for (std::size_t i = 1; i < r.size(); ++i) {
    if (r[i].drift_ppm == 0) continue;
    ++slews;
    EXPECT_EQ(std::abs(r[i].drift_ppm), 30);
    ASSERT_LT(i + 1, r.size());
    EXPECT_EQ(r[i + 1].drift_ppm, 0);
    EXPECT_EQ(r[i + 1].from_true_ns - r[i].from_true_ns, 4 * kSecond);
  }
  EXPECT_GE(slews, 15);  // about 4 h / 10 min = 24
  EXPECT_LE(slews, 40);
}

TEST(ClockModel, WanderFollowsASinusoidInSteps) {
  SimulationOptions o = model_options(ClockModel::kWander, 2 * 3600);
  o.wander_ppm = 0.4;
  o.wander_period_s = 3600;
  o.wander_step_s = 10;
  const RatePieces r = draw_rate_changes(o, 3, kStart, kStart + 2 * 3600 * kSecond);
  EXPECT_EQ(r.size(), 720U);
  double low = 1, high = -1;
  for (std::size_t i = 0; i < r.size(); ++i) {
    EXPECT_EQ(r[i].from_true_ns, kStart + static_cast<Nanoseconds>(i) * 10 * kSecond);
    EXPECT_LE(std::abs(r[i].drift_ppm), 0.4);
    // A smooth rate: neighbouring steps differ by at most 2 pi A step / period.
    if (i > 0) {
      EXPECT_LE(std::abs(r[i].drift_ppm - r[i - 1].drift_ppm), 2 * M_PI * 0.4 * 10 / 3600 + 1e-12);
    }
    low = std::min(low, r[i].drift_ppm);
    high = std::max(high, r[i].drift_ppm);
  }
  // Two periods swing through the whole amplitude.
  EXPECT_LT(low, -0.39);
  EXPECT_GT(high, 0.39);
}

TEST(ClockModel, CombinedIsTheSumOfTheThree) {
  const Nanoseconds end = kStart + 3 * 3600 * kSecond;
  const RatePieces combined = draw_rate_changes(model_options(ClockModel::kCombined, 3 * 3600), 4, kStart, end);
  std::vector<RatePieces> parts;
  for (const ClockModel m : {ClockModel::kSteps, ClockModel::kSlews, ClockModel::kWander}) {
    parts.push_back(draw_rate_changes(model_options(m, 3 * 3600), 4, kStart, end));
  }
  Random random(9);
  for (int i = 0; i < 2000; ++i) {
    const Nanoseconds t = kStart + static_cast<Nanoseconds>(random.below(3 * 3600 * kSecond));
    EXPECT_NEAR(rate_at(combined, t), rate_at(parts[0], t) + rate_at(parts[1], t) + rate_at(parts[2], t), 1e-12);
  }
}

// Oracle: the clock's value by walking the rate pieces from the start,
// one piece at a time, in quad.
Quad integrate(Nanoseconds start, int64_t offset, const RatePieces& rates, Nanoseconds t) {
  Quad local = static_cast<Quad>(start) + static_cast<Quad>(offset);
  Nanoseconds at = start;
  for (std::size_t i = 0; i < rates.size(); ++i) {
    const Nanoseconds until = i + 1 < rates.size() ? std::min(t, rates[i + 1].from_true_ns) : t;
    if (until <= at) break;
    local += static_cast<Quad>(until - at) * (1 + static_cast<Quad>(rates[i].drift_ppm) / 1'000'000);
    at = until;
  }
  return local;
}

TEST(HostClockPieces, ClocksIntegrateTheirRatesExactly) {
  for (const ClockModel m : {ClockModel::kSteps, ClockModel::kSlews, ClockModel::kWander, ClockModel::kCombined}) {
    const Nanoseconds end = kStart + 6 * 3600 * kSecond;
    const RatePieces changes = draw_rate_changes(model_options(m, 6 * 3600), 1, kStart, end);
    const RatePieces base{HostClock::RatePiece{kStart, 37.5}};
    const RatePieces rates = add_rates({base, changes});
    const HostClock clock(kStart, -123'456'789, rates);
    Random random(17);
    for (int i = 0; i < 500; ++i) {
      const Nanoseconds t = kStart + static_cast<Nanoseconds>(random.below(6 * 3600 * kSecond));
      const Quad expected = integrate(kStart, -123'456'789, rates, t);
      EXPECT_LT(model::to_double(model::abs(clock.local_exact(t) - expected)), 1e-6)
          << to_string(m) << " at " << t - kStart;
    }
    // Continuous at every change, and increasing.
    const auto& segments = clock.segments();
    for (std::size_t i = 1; i < segments.size(); ++i) {
      const Nanoseconds at = segments[i].from_true_ns;
      EXPECT_LT(model::to_double(model::abs(segments[i - 1].true_to_local.apply(at) - segments[i].true_to_local.apply(at))),
                1e-6);
      EXPECT_GT(segments[i].true_to_local.slope, 0);
    }
  }
}

TEST(HostClockPieces, TheTrueClockMapsBothWaysLikeTheHostClock) {
  SimulationOptions o = model_options(ClockModel::kCombined, 3600);
  const RatePieces base{HostClock::RatePiece{kStart, -20}};
  const HostClock clock(kStart, 5'000'000, add_rates({base, draw_rate_changes(o, 1, kStart, kStart + 3600 * kSecond)}));
  const TrueClock truth = TrueClock::of(clock);
  ASSERT_EQ(truth.pieces().size(), clock.segments().size());
  Random random(5);
  for (int i = 0; i < 3000; ++i) {
    // Before the start and after the end too: the end pieces extend.
    const Nanoseconds t = kStart - 60 * kSecond + static_cast<Nanoseconds>(random.below(3720 * kSecond));
    const Quad local = clock.local_exact(t);
    EXPECT_LT(model::to_double(model::abs(truth.local_at(static_cast<Quad>(t)) - local)), 1e-6);
    EXPECT_LT(model::to_double(model::abs(truth.true_at(local) - static_cast<Quad>(t))), 1e-6);
  }
}

TEST(ExperimentClocks, HostZeroStaysTheTruthAndOthersGetTheModel) {
  SimulationOptions o = model_options(ClockModel::kCombined, 3600);
  o.hosts = 3;
  const Experiment e = build_experiment(o);
  ASSERT_EQ(e.hosts[0].clock.segments().size(), 1U);
  EXPECT_EQ(e.hosts[0].clock.local_ns(kStart + 1234), kStart + 1234);
  EXPECT_GT(e.hosts[1].clock.segments().size(), 300U);  // wander every 10 s
  EXPECT_GT(e.hosts[2].clock.segments().size(), 300U);
  // An explicit clock for host 0 takes the model too.
  o.host_clocks = {{.host = 0, .offset_ns = 10, .drift_ppm = 1, .drift_change_at_s = {}, .drift_after_change_ppm = 0}};
  EXPECT_GT(build_experiment(o).hosts[0].clock.segments().size(), 300U);
  // Today's single drift change still works under the linear model.
  SimulationOptions linear = model_options(ClockModel::kLinear, 100);
  linear.drift_change_at_s = 50;
  EXPECT_EQ(build_experiment(linear).hosts[1].clock.segments().size(), 2U);
}

}  // namespace
}  // namespace tracesync::simulate
