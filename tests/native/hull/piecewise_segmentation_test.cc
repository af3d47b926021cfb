// SPDX-License-Identifier: EPL-2.0
// The piecewise estimator's segments against a brute-force oracle of the
// documented rule (greedy over the sorted messages, feasibility by every
// pair), in time order and shuffled; and on linear clocks, one segment that
// answers exactly as ExactHullEstimator does.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>

#include "brute_force_oracle.h"
#include "hull/exact_hull_estimator.h"
#include "hull/piecewise_hull_estimator.h"
#include "hull/synthetic_link.h"
#include "message_generators.h"

namespace tracesync::hull {
namespace {

bool rule_order(const LinkMessage& a, const LinkMessage& b) {
  return std::tie(a.point.x, a.direction, a.point.y) < std::tie(b.point.x, b.direction, b.point.y);
}

// The rule, from scratch: a segment takes the following message as long as
// the pairwise oracle finds its region non-empty.
std::vector<std::size_t> oracle_starts(const std::vector<LinkMessage>& sorted) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (starts.empty() ||
        oracle::pairwise(std::span(sorted).subspan(starts.back(), i + 1 - starts.back())).region_empty) {
      starts.push_back(i);
    }
  }
  return starts;
}

// Lower points on or above, upper points on or below a line with a kink at
// x = 100: y = 2x + 5 left of it, y = 3x - 95 right of it.
std::vector<LinkMessage> kinked(std::size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int64_t> x_of(0, 200);
  std::uniform_int_distribution<int64_t> jitter(0, 6);
  std::bernoulli_distribution lower(0.5);
  std::vector<LinkMessage> out;
  for (std::size_t i = 0; i < n; ++i) {
    const int64_t x = x_of(rng);
    const int64_t truth = x < 100 ? 2 * x + 5 : 3 * x - 95;
    const bool is_lower = lower(rng);
    out.push_back({is_lower ? Direction::kAtoB : Direction::kBtoA,
                   {x, is_lower ? truth + jitter(rng) : truth - jitter(rng)}});
  }
  return out;
}

struct Case {
  const char* name;
  std::vector<LinkMessage> (*make)(uint64_t seed);
};

const Case kCases[] = {
    {"grid12", [](uint64_t s) { return generate::grid(30, s, 12); }},
    {"grid1000", [](uint64_t s) { return generate::grid(30, s, 1000); }},
    {"near_line", [](uint64_t s) { return generate::near_line(40, s); }},
    {"kinked", [](uint64_t s) { return kinked(40, s); }},
    {"clock_pair", [](uint64_t s) { return generate::clock_pair(40, s); }},
};

void expect_same_estimate(const LinkEstimate& a, const LinkEstimate& b) {
  EXPECT_EQ(a.quality, b.quality);
  EXPECT_TRUE(a.alpha == b.alpha);
  EXPECT_TRUE(a.beta == b.beta);
  EXPECT_EQ(a.accuracy.has_value(), b.accuracy.has_value());
  if (a.accuracy && b.accuracy) {
    EXPECT_TRUE(*a.accuracy == *b.accuracy);
  }
}

// Everything the estimator publishes, for comparing two arrival orders.
void expect_same_answers(const PiecewiseHullEstimator& a, const PiecewiseHullEstimator& b, const TimeSpan& span) {
  ASSERT_EQ(a.segment_starts(), b.segment_starts());
  expect_same_estimate(a.estimate(), b.estimate());
  EXPECT_EQ(a.offset_uncertainty(span).has_value(), b.offset_uncertainty(span).has_value());
  if (a.offset_uncertainty(span) && b.offset_uncertainty(span)) {
    EXPECT_TRUE(*a.offset_uncertainty(span) == *b.offset_uncertainty(span));
  }
  const auto sa = a.segments(span);
  const auto sb = b.segments(span);
  ASSERT_EQ(sa.size(), sb.size());
  for (std::size_t k = 0; k < sa.size(); ++k) {
    EXPECT_EQ(sa[k].span, sb[k].span);
    expect_same_estimate(sa[k].estimate, sb[k].estimate);
    EXPECT_EQ(sa[k].hull.lower, sb[k].hull.lower);
    EXPECT_EQ(sa[k].hull.upper, sb[k].hull.upper);
    EXPECT_TRUE(sa[k].uncertainty_first == sb[k].uncertainty_first);
    EXPECT_TRUE(sa[k].uncertainty_last == sb[k].uncertainty_last);
  }
  EXPECT_EQ(a.clock_map(span), b.clock_map(span));
}

class PiecewiseSegmentation : public ::testing::TestWithParam<int> {};

TEST_P(PiecewiseSegmentation, EqualsTheRuleInTimeOrderAndShuffled) {
  const Case& c = kCases[GetParam()];
  std::size_t several = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    SCOPED_TRACE(::testing::Message() << c.name << " seed " << seed);
    auto messages = c.make(seed);
    auto sorted = messages;
    std::stable_sort(sorted.begin(), sorted.end(), rule_order);
    const auto want = oracle_starts(sorted);
    several += want.size() > 1;

    auto time_order = sorted;  // arrival order: the later end of each message
    std::stable_sort(time_order.begin(), time_order.end(), [](const LinkMessage& a, const LinkMessage& b) {
      return std::max(a.point.x, a.point.y) < std::max(b.point.x, b.point.y);
    });
    auto shuffled = messages;
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(seed * 31 + 7));

    PiecewiseHullEstimator in_time({0.5});
    PiecewiseHullEstimator in_any({0.5});
    for (const auto& m : time_order) in_time.add(m);
    for (const auto& m : shuffled) in_any.add(m);
    ASSERT_EQ(in_time.sorted_messages().size(), sorted.size());
    for (std::size_t i = 0; i < sorted.size(); ++i) {
      ASSERT_EQ(in_time.sorted_messages()[i].point, sorted[i].point);
      ASSERT_EQ(in_time.sorted_messages()[i].direction, sorted[i].direction);
    }
    ASSERT_EQ(in_time.segment_starts(), want);

    // Each segment is the exact hull of its own messages.
    const TimeSpan span{sorted.front().point.x - 7, sorted.back().point.x + 7};
    const auto segments = in_time.segments(span);
    for (std::size_t k = 0; k < want.size(); ++k) {
      const std::size_t end = k + 1 < want.size() ? want[k + 1] : sorted.size();
      const auto part = std::span(sorted).subspan(want[k], end - want[k]);
      const auto answer = oracle::pairwise(part);
      ASSERT_FALSE(answer.region_empty);
      EXPECT_EQ(segments[k].hull.lower, answer.lower_hull);
      EXPECT_EQ(segments[k].hull.upper, answer.upper_hull);
      EXPECT_EQ(segments[k].estimate.quality,
                answer.lmin && answer.lmax ? Quality::kAccurate : Quality::kIncomplete);
      ExactHullEstimator alone({0.5});
      for (const auto& m : part) alone.add(m);
      expect_same_estimate(segments[k].estimate, alone.estimate());
    }
    expect_same_answers(in_time, in_any, span);
    if (HasFatalFailure()) return;
  }
  // The rule must be exercised with several segments, not only one.
  if (std::string_view(c.name) != "clock_pair") {
    EXPECT_GT(several, 30u) << c.name;
  } else {
    EXPECT_EQ(several, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(AllGenerators, PiecewiseSegmentation,
                         ::testing::Range(0, static_cast<int>(std::size(kCases))),
                         [](const ::testing::TestParamInfo<int>& p) { return std::string(kCases[p.param].name); });

// Linear clocks: one segment, and every answer bit for bit the single
// line's, under every stability assumption, in time order and shuffled.
TEST(PiecewiseOnLinearClocks, OneSegmentIdenticalToTheExactHull) {
  for (const double ppm : {0.0, 0.5, 3.0}) {
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      SyntheticLink link;
      link.seed = seed;
      link.drift_ppm = seed % 2 ? 25 : -80;
      auto messages = generate_messages(link, 20000);
      for (const bool shuffle : {false, true}) {
        SCOPED_TRACE(::testing::Message() << "ppm " << ppm << " seed " << seed << " shuffled " << shuffle);
        if (shuffle) std::shuffle(messages.begin(), messages.end(), std::mt19937_64(seed));
        PiecewiseHullEstimator piecewise({ppm});
        ExactHullEstimator linear({ppm});
        for (const auto& m : messages) EXPECT_EQ(piecewise.add(m), linear.add(m));
        ASSERT_EQ(piecewise.segment_count(), 1u);
        const LinkEstimate p = piecewise.estimate();
        const LinkEstimate l = linear.estimate();
        ASSERT_EQ(l.quality, Quality::kAccurate);
        expect_same_estimate(p, l);
        EXPECT_TRUE(p.lmin->slope == l.lmin->slope && p.lmin->intercept == l.lmin->intercept);
        EXPECT_TRUE(p.lmax->slope == l.lmax->slope && p.lmax->intercept == l.lmax->intercept);
        EXPECT_EQ(p.counters.messages, l.counters.messages);
        EXPECT_EQ(p.counters.accurate_messages, l.counters.accurate_messages);
        EXPECT_EQ(p.counters.contradictions, 0u);
        EXPECT_EQ(piecewise.hull_points().lower, linear.hull_points().lower);
        EXPECT_EQ(piecewise.hull_points().upper, linear.hull_points().upper);
        const auto span = *linear.message_span();
        for (const TimeSpan s : {span, TimeSpan{span.first - 1'000'000'000, span.last + 5'000'000'000}}) {
          const auto pu = piecewise.offset_uncertainty(s);
          const auto lu = linear.offset_uncertainty(s);
          ASSERT_TRUE(pu && lu);
          EXPECT_TRUE(*pu == *lu);
        }
      }
    }
  }
}

// With no stability term, the bound is the exact region's, as before.
TEST(PiecewiseOnLinearClocks, ZeroStabilityGivesTheExactRegionsBound) {
  const auto messages = generate_messages(SyntheticLink{}, 5000);
  ExactHullEstimator zero({0.0});
  ExactHullEstimator half({0.5});
  for (const auto& m : messages) {
    zero.add(m);
    half.add(m);
  }
  const auto span = *zero.message_span();
  const auto bounds = zero.end_bounds(span);
  ASSERT_TRUE(bounds);
  EXPECT_TRUE(*zero.offset_uncertainty(span) == std::max(bounds->first, bounds->last));
  // The stability term can only widen it, by at least the slack itself.
  const auto slack = ClockStability{0.5}.slack(span.last - span.first);
  EXPECT_GT(slack, 0);
  EXPECT_GE(*half.offset_uncertainty(span), *zero.offset_uncertainty(span) + static_cast<model::Quad>(slack));
}

}  // namespace
}  // namespace tracesync::hull
