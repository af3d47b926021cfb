// SPDX-License-Identifier: EPL-2.0
#include <gtest/gtest.h>

#include <quadmath.h>

#include "brute_force_oracle.h"
#include "hull/estimator_factory.h"
#include "hull/exact_hull_estimator.h"
#include "hull/linear_regression_estimator.h"
#include "hull/round_trips.h"
#include "hull/window_estimator.h"
#include "message_generators.h"

namespace tracesync::hull {
namespace {

using model::Quad;

TEST(RoundTrips, PairsRequestsWithTheNextReplyOnEachTimeline) {
  // b = a + 1000; 50 ns each way; b answers 10 ns after receiving.
  const std::vector<LinkMessage> messages = {
      LinkMessage::a_to_b(0, 1050),     // T1 = 0, T2 = 1050
      LinkMessage::b_to_a(1060, 110),   // T3 = 1060, T4 = 110
  };
  const auto trips = find_round_trips(messages);
  // One started by a (on b's timeline); on a's timeline the reply (received
  // at 110) is followed by no send, so nothing is started by b.
  ASSERT_EQ(trips.size(), 1u);
  EXPECT_EQ(trips[0].offset, 1000);
  EXPECT_EQ(trips[0].error_margin, 50);
  EXPECT_EQ(trips[0].time, 55);
}

TEST(RoundTrips, RoundTripsStartedByBHaveTheSameOffsetSign) {
  const std::vector<LinkMessage> messages = {
      LinkMessage::b_to_a(2000, 1050),  // b sends at 2000 (a-time 1000), a receives at 1050
      LinkMessage::a_to_b(1060, 2110),  // a answers at 1060, b receives at 2110
  };
  const auto trips = find_round_trips(messages);
  ASSERT_EQ(trips.size(), 1u);
  EXPECT_EQ(trips[0].offset, 1000);
  EXPECT_EQ(trips[0].error_margin, 50);
}

TEST(RoundTrips, SkipsNonCausalPairs) {
  // The "reply" is received on a before the request left a.
  const std::vector<LinkMessage> messages = {LinkMessage::a_to_b(500, 1550), LinkMessage::b_to_a(1560, 100)};
  EXPECT_TRUE(find_round_trips(messages).empty());
}

TEST(LinearRegression, RecoversDriftAndOffsetOfRealClocks) {
  generate::ClockPair clocks;
  clocks.drift_ppm = 30;
  clocks.offset_ns = 2.5e8;
  clocks.mean_gap_ns = 1e6;
  const auto messages = generate::clock_pair(20000, 9, clocks);
  LinearRegressionEstimator est(0.90);
  for (const auto& m : messages) est.add(m);
  const auto e = est.estimate();
  ASSERT_EQ(e.quality, Quality::kAccurate);
  ASSERT_TRUE(e.regression.has_value());
  const auto& r = *e.regression;
  EXPECT_GT(r.exchanges, 5000u);
  EXPECT_LT(r.used_exchanges, r.exchanges);  // the 90 % interval drops the slowest trips
  // The drift is within a few standard errors (eq. 8) of the truth.
  EXPECT_LT(fabsq(r.drift - 30e-6Q), 5 * r.e_d0);
  EXPECT_GT(r.residual_stddev, 0);
  EXPECT_GT(r.e_ij, 0);
  // Lmin/Lmax bracket the estimate; the truth at the span's middle is
  // within the reported uncertainty (plus the delays' asymmetry, 0 here).
  EXPECT_LT(e.lmin->slope, e.alpha);
  EXPECT_GT(e.lmax->slope, e.alpha);
  const int64_t mid = clocks.start_ns + 10'000'000'000;
  const Quad truth = static_cast<Quad>(mid) * (1 + 30e-6Q) + 2.5e8Q;
  const Quad estimated = e.alpha * static_cast<Quad>(mid) + e.beta;
  EXPECT_LT(fabsq(estimated - truth), 3 * *est.offset_uncertainty({mid, mid}) + 100);
}

TEST(LinearRegression, FewRoundTripsAreIncomplete) {
  LinearRegressionEstimator est(0.95);
  est.add(LinkMessage::a_to_b(0, 1050));
  est.add(LinkMessage::b_to_a(1060, 110));
  EXPECT_EQ(est.estimate().quality, Quality::kIncomplete);
  EXPECT_FALSE(est.offset_uncertainty({0, 100}).has_value());
}

TEST(EstimatorFactory, ValidatesNamesAndParameters) {
  EXPECT_EQ(validate({}), "");
  EXPECT_NE(validate({"magic", 1, 0.9}).find("unknown algorithm 'magic'"), std::string::npos);
  EXPECT_NE(validate({"hull", 0, 0.9}).find("window"), std::string::npos);
  EXPECT_NE(validate({"linreg", 1, 0.5}).find("90, 95 or 99"), std::string::npos);
  for (const auto name : estimator_names()) {
    EXPECT_EQ(make_estimator({std::string(name), 1000, 0.95})->algorithm(), name);
  }
}

// Two clocks, b = a + 1000 exactly, messages every 10 ns with 5 ns delays.
std::vector<LinkMessage> steady_traffic(int64_t from, int64_t to) {
  std::vector<LinkMessage> out;
  for (int64_t t = from; t < to; t += 10) {
    out.push_back(LinkMessage::a_to_b(t, t + 1005));
    out.push_back(LinkMessage::b_to_a(t + 1005, t + 10));
  }
  return out;
}

TEST(WindowEstimator, PublishesOnlyWhenAWindowCloses) {
  WindowEstimator est(WindowPolicy::kIndependent, 1000);
  int changes = 0;
  for (const auto& m : steady_traffic(0, 100)) changes += est.add(m);
  EXPECT_EQ(changes, 0);
  EXPECT_EQ(est.estimate().quality, Quality::kIncomplete);  // nothing published yet
  EXPECT_TRUE(est.add(LinkMessage::a_to_b(1500, 2505)));    // opens window 1, closes window 0
  EXPECT_EQ(est.estimate().quality, Quality::kAccurate);
  EXPECT_EQ(est.windows_closed(), 1u);
  EXPECT_EQ(est.estimate().counters.messages, 21u);
}

TEST(WindowEstimator, IndependentForgetsReplaceKeepsTheBest) {
  auto traffic = steady_traffic(0, 100);
  ExactHullEstimator first_window;
  for (const auto& m : traffic) first_window.add(m);
  // Window 1 holds a single direction: INCOMPLETE on its own.
  traffic.push_back(LinkMessage::a_to_b(1200, 2230));
  traffic.push_back(LinkMessage::a_to_b(1300, 2340));
  WindowEstimator independent(WindowPolicy::kIndependent, 1000);
  WindowEstimator replace(WindowPolicy::kReplace, 1000);
  for (const auto& m : traffic) {
    independent.add(m);
    replace.add(m);
  }
  independent.finish();
  replace.finish();
  EXPECT_EQ(independent.estimate().quality, Quality::kIncomplete);
  EXPECT_EQ(replace.estimate().quality, Quality::kAccurate);
  EXPECT_EQ(replace.estimate().alpha, first_window.estimate().alpha);
  EXPECT_EQ(replace.estimate().beta, first_window.estimate().beta);
  EXPECT_EQ(independent.windows_closed(), 2u);
}

TEST(WindowEstimator, CorrelatedEqualsTheWholeHullAtEachClose) {
  const auto messages = generate::clock_pair(3000, 77);
  WindowEstimator correlated(WindowPolicy::kCorrelated, 50'000'000);  // 50 ms windows
  ExactHullEstimator whole;
  for (const auto& m : messages) {
    correlated.add(m);
    whole.add(m);
  }
  correlated.finish();
  EXPECT_GT(correlated.windows_closed(), 3u);
  const auto a = correlated.estimate();
  const auto b = whole.estimate();
  EXPECT_EQ(a.quality, Quality::kAccurate);
  EXPECT_EQ(a.alpha, b.alpha);
  EXPECT_EQ(a.beta, b.beta);
  EXPECT_EQ(a.counters.messages, b.counters.messages);
}

}  // namespace
}  // namespace tracesync::hull
