// SPDX-License-Identifier: EPL-2.0
#include <gtest/gtest.h>

#include "brute_force_oracle.h"
#include "hull/exact_hull_estimator.h"
#include "message_generators.h"

namespace tracesync::hull {
namespace {

using model::Quad;

LinkMessage lower(int64_t x, int64_t y) { return {Direction::kAtoB, {x, y}}; }
LinkMessage upper(int64_t x, int64_t y) { return {Direction::kBtoA, {x, y}}; }

ExactHullEstimator feed(std::initializer_list<LinkMessage> messages) {
  ExactHullEstimator e;
  for (const auto& m : messages) e.add(m);
  return e;
}

TEST(ExactHull, NoMessageIsAbsent) {
  ExactHullEstimator e;
  EXPECT_EQ(e.estimate().quality, Quality::kAbsent);
  EXPECT_FALSE(e.offset_uncertainty({0, 10}).has_value());
}

TEST(ExactHull, OneDirectionOnlyIsIncompleteAtTheTightestSlopeOneBound) {
  const auto e = feed({lower(0, 500), lower(100, 590), lower(200, 710)}).estimate();
  EXPECT_EQ(e.quality, Quality::kIncomplete);
  EXPECT_EQ(e.alpha, 1);
  EXPECT_EQ(e.beta, 490);  // min(y - x)
  EXPECT_FALSE(e.accuracy.has_value());
  EXPECT_FALSE(e.lmin.has_value());
  EXPECT_FALSE(e.lmax.has_value());
  EXPECT_EQ(e.counters.lower_messages, 3u);
  EXPECT_EQ(e.counters.upper_messages, 0u);
}

TEST(ExactHull, DisjointDirectionsAreIncompleteMidwayBetweenBounds) {
  // Every a -> b message precedes every b -> a message: only Lmin exists.
  auto est = feed({lower(0, 100), lower(10, 108), upper(50, 120), upper(60, 131)});
  const auto e = est.estimate();
  EXPECT_EQ(e.quality, Quality::kIncomplete);
  EXPECT_TRUE(est.lmin().has_value());
  EXPECT_FALSE(est.lmax().has_value());
  EXPECT_EQ(e.alpha, 1);
  EXPECT_EQ(e.beta, (98 + 71) / 2.0Q);  // midway between min(y-x)=98 and max(y-x)=71
  EXPECT_FALSE(est.offset_uncertainty({0, 60}).has_value());
}

TEST(ExactHull, EqualAbscissaeBoundNoSlopeButCanContradict) {
  auto est = feed({lower(10, 20), upper(10, 15)});
  EXPECT_EQ(est.estimate().quality, Quality::kIncomplete);
  est.add(lower(10, 14));  // below an upper point of the same x
  EXPECT_EQ(est.estimate().quality, Quality::kFail);
  EXPECT_EQ(est.estimate().counters.contradictions, 1u);
}

// With both extreme lines, a message on the allowed side of both skips
// every query, the twin lookup included: it cannot lie under a point of the
// other direction at its abscissa. One that does crosses lmax, and the
// lookup then empties the region.
TEST(ExactHull, AMessageAtAnotherDirectionsAbscissaContradictsOnlyAcrossALine) {
  // Truth y = x: lmax through upper (50, 49) and lower (100, 103); lmin
  // through lower (0, 2) and upper (150, 148), 50.67 at x = 50.
  auto est = feed({lower(0, 2), lower(100, 103), upper(50, 49), upper(150, 148)});
  ASSERT_EQ(est.estimate().quality, Quality::kAccurate);
  const auto lmin = est.lmin();
  const auto lmax = est.lmax();
  EXPECT_FALSE(est.add(lower(50, 52)));  // above both lines and above its twin (50, 49)
  EXPECT_EQ(est.estimate().quality, Quality::kAccurate);
  EXPECT_EQ(est.lmin(), lmin);
  EXPECT_EQ(est.lmax(), lmax);
  EXPECT_EQ(est.estimate().counters.contradictions, 0u);
  EXPECT_TRUE(est.add(lower(50, 48)));  // under its twin (50, 49), below lmax
  EXPECT_EQ(est.estimate().quality, Quality::kApproximate);
  EXPECT_EQ(est.estimate().counters.contradictions, 1u);
}

TEST(ExactHull, CollinearMessagesPinTheLineExactly) {
  // Every message on y = 2x + 5, both directions: a single feasible line.
  auto est = feed({lower(0, 5), upper(10, 25), lower(20, 45), upper(30, 65), lower(40, 85)});
  const auto e = est.estimate();
  EXPECT_EQ(e.quality, Quality::kAccurate);
  EXPECT_EQ(e.alpha, 2);
  EXPECT_EQ(e.beta, 5);
  EXPECT_EQ(*e.accuracy, 0);
  EXPECT_EQ(*est.offset_uncertainty({-100, 1000}), 0);
}

TEST(ExactHull, HandComputedBoundsAndUncertainty) {
  // Lines below (0,10) and (100,110), above (50,55):
  // Lmax through (50,55),(100,110): y = 1.1x; Lmin through (0,10),(50,55): y = 0.9x + 10.
  auto est = feed({lower(0, 10), upper(50, 55), lower(100, 110)});
  const auto e = est.estimate();
  ASSERT_EQ(e.quality, Quality::kAccurate);
  EXPECT_EQ(e.lmax->slope, 1.1Q);
  EXPECT_EQ(e.lmax->intercept, 0);
  EXPECT_EQ(e.lmin->slope, 0.9Q);
  EXPECT_EQ(e.lmin->intercept, 10);
  EXPECT_EQ(e.alpha, 1);
  EXPECT_EQ(e.beta, 5);
  EXPECT_LT(model::abs(*e.accuracy - 0.2Q), 1e-33Q);
  // Inside the messages' span the widest gap is 5 ns at either end; at
  // x = 200 the lines fan out to [190, 220] around 205.
  EXPECT_EQ(*est.offset_uncertainty({0, 100}), 5);
  EXPECT_LT(model::abs(*est.offset_uncertainty({0, 200}) - 15), 1e-30Q);
  // b's time 105 maps to a's time 100 through (alpha, beta) = (1, 5).
  EXPECT_EQ(e.b_onto_a().apply_rounded(105), 100);
}

TEST(ExactHull, ASingleContradictingMessageKeepsTheLastAccurateEstimate) {
  auto est = feed({lower(0, 10), upper(50, 55), lower(100, 110)});
  const auto before = est.estimate();
  EXPECT_TRUE(est.add(lower(60, 40)));  // below every line the others allow
  auto after = est.estimate();
  EXPECT_EQ(after.quality, Quality::kApproximate);
  EXPECT_EQ(after.alpha, before.alpha);
  EXPECT_EQ(after.beta, before.beta);
  EXPECT_EQ(after.counters.contradictions, 1u);
  // 5 ns of spread plus the contradiction's 25 ns below the estimate (65 at x = 60).
  EXPECT_EQ(*est.offset_uncertainty({0, 100}), 5 + 25);
  est.add(upper(70, 60));  // agrees with the kept estimate
  EXPECT_EQ(est.estimate().counters.contradictions, 1u);
  est.add(upper(70, 80));  // above it
  EXPECT_EQ(est.estimate().counters.contradictions, 2u);
  EXPECT_EQ(est.estimate().counters.messages, 6u);
}

TEST(ExactHull, ContradictionBeforeAnyAccurateEstimateIsFail) {
  auto est = feed({lower(0, 10), upper(50, 55)});
  EXPECT_EQ(est.estimate().quality, Quality::kIncomplete);
  est.add(upper(100, 500));  // above the line a lower point to its left allows... with no Lmax yet
  est.add(lower(120, 0));    // far below an upper point on its left
  EXPECT_EQ(est.estimate().quality, Quality::kFail);
  EXPECT_FALSE(est.offset_uncertainty({0, 100}).has_value());
}

void expect_matches_oracle(const std::vector<LinkMessage>& messages) {
  ExactHullEstimator est;
  for (const auto& m : messages) est.add(m);
  const auto want = oracle::pairwise(messages);
  ASSERT_EQ(est.region_empty(), want.region_empty);
  EXPECT_EQ(est.lower_hull().vertices(), want.lower_hull);
  EXPECT_EQ(est.upper_hull().vertices(), want.upper_hull);
  ASSERT_TRUE(est.lmin() && est.lmax() && want.lmin && want.lmax);
  EXPECT_TRUE(oracle::same_line(*est.lmin(), *want.lmin));
  EXPECT_TRUE(oracle::same_line(*est.lmax(), *want.lmax));
}

TEST(ExactHull, HugeTimestampsNearTwoTo62) {
  generate::ClockPair clocks;
  clocks.start_ns = (int64_t{1} << 62) - 1'000'000'000;
  clocks.offset_ns = 7.5e9;
  const auto messages = generate::clock_pair(3000, 42, clocks);
  expect_matches_oracle(messages);
  ExactHullEstimator est;
  for (const auto& m : messages) est.add(m);
  const auto e = est.estimate();
  EXPECT_EQ(e.quality, Quality::kAccurate);
  // The truth (25 ppm, 7.5 s) lies between Lmin and Lmax.
  EXPECT_LE(e.lmin->slope, 1 + 25e-6Q);
  EXPECT_GE(e.lmax->slope, 1 + 25e-6Q);
}

TEST(ExactHull, NegativeTimes) {
  generate::ClockPair clocks;
  clocks.start_ns = -5'000'000'000'000;
  clocks.offset_ns = -2e9;
  clocks.drift_ppm = -40;
  const auto messages = generate::clock_pair(3000, 43, clocks);
  expect_matches_oracle(messages);
  ExactHullEstimator est;
  for (const auto& m : messages) est.add(m);
  const auto e = est.estimate();
  EXPECT_EQ(e.quality, Quality::kAccurate);
  EXPECT_LE(e.lmin->slope, 1 - 40e-6Q);
  EXPECT_GE(e.lmax->slope, 1 - 40e-6Q);
  // The estimate maps a b-time back within the link's uncertainty of the truth.
  const int64_t a = clocks.start_ns + 100'000'000;
  const Quad true_b = static_cast<Quad>(a) * (1 - 40e-6Q) - 2e9Q;
  const Quad estimated_b = e.alpha * static_cast<Quad>(a) + e.beta;
  EXPECT_LE(model::abs(estimated_b - true_b), *est.offset_uncertainty({a, a}));
}

}  // namespace
}  // namespace tracesync::hull
