// SPDX-License-Identifier: EPL-2.0
// Partial link states merge into the state of the whole (issue 31): the
// hull of a union is the hull of the hulls. Any split of a link's messages
// into parts, each part in any order on its own estimator, merged in any
// order, gives the estimate, hulls, bounds and counts of one estimator that
// received every message.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "hull/exact_hull_estimator.h"
#include "message_generators.h"

namespace tracesync::hull {
namespace {

void expect_same_line(const std::optional<Line>& a, const std::optional<Line>& b, const std::string& what) {
  ASSERT_EQ(a.has_value(), b.has_value()) << what;
  if (!a) return;
  EXPECT_TRUE(a->slope == b->slope) << what;
  EXPECT_TRUE(a->intercept == b->intercept) << what;
}

void expect_same_state(const ExactHullEstimator& merged, const ExactHullEstimator& whole, const std::string& what) {
  const LinkEstimate m = merged.estimate();
  const LinkEstimate w = whole.estimate();
  EXPECT_EQ(m.quality, w.quality) << what;
  EXPECT_TRUE(m.alpha == w.alpha) << what;
  EXPECT_TRUE(m.beta == w.beta) << what;
  ASSERT_EQ(m.accuracy.has_value(), w.accuracy.has_value()) << what;
  if (m.accuracy) {
    EXPECT_TRUE(*m.accuracy == *w.accuracy) << what;
  }
  expect_same_line(m.lmin, w.lmin, what + " lmin");
  expect_same_line(m.lmax, w.lmax, what + " lmax");
  EXPECT_EQ(m.counters.messages, w.counters.messages) << what;
  EXPECT_EQ(m.counters.lower_messages, w.counters.lower_messages) << what;
  EXPECT_EQ(m.counters.upper_messages, w.counters.upper_messages) << what;
  EXPECT_EQ(m.counters.lower_hull, w.counters.lower_hull) << what;
  EXPECT_EQ(m.counters.upper_hull, w.counters.upper_hull) << what;
  const HullPoints mh = merged.hull_points();
  const HullPoints wh = whole.hull_points();
  EXPECT_EQ(mh.lower, wh.lower) << what;
  EXPECT_EQ(mh.upper, wh.upper) << what;
  EXPECT_EQ(merged.message_span().has_value(), whole.message_span().has_value()) << what;
  if (const auto span = whole.message_span()) {
    EXPECT_EQ(merged.message_span()->first, span->first) << what;
    EXPECT_EQ(merged.message_span()->last, span->last) << what;
    // The bounds, the envelope's included when messages are kept.
    const TimeSpan wider{span->first - 1'000'000, span->last + 1'000'000};
    for (const TimeSpan& s : {*span, wider}) {
      const auto mu = merged.offset_uncertainty(s);
      const auto wu = whole.offset_uncertainty(s);
      ASSERT_EQ(mu.has_value(), wu.has_value()) << what;
      if (mu) {
        EXPECT_TRUE(*mu == *wu) << what;
      }
    }
  }
}

// Splits `messages` into `parts` random parts, each shuffled, merged in a
// random order; compares with every message added in time order.
void check_splits(const std::vector<LinkMessage>& messages, ClockStability stability, uint64_t seed,
                  const std::string& name) {
  ExactHullEstimator whole(stability);
  for (const LinkMessage& m : messages) whole.add(m);
  ASSERT_NE(whole.estimate().quality, Quality::kFail) << name << ": the merge is exact for non-empty regions";
  std::mt19937_64 random(seed);
  for (const std::size_t parts : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7}, std::size_t{50}}) {
    std::vector<std::vector<LinkMessage>> split(parts);
    for (const LinkMessage& m : messages) split[random() % parts].push_back(m);
    std::vector<ExactHullEstimator> partial(parts, ExactHullEstimator(stability));
    for (std::size_t p = 0; p < parts; ++p) {
      std::shuffle(split[p].begin(), split[p].end(), random);
      for (const LinkMessage& m : split[p]) partial[p].add(m);
    }
    std::vector<std::size_t> order(parts);
    for (std::size_t p = 0; p < parts; ++p) order[p] = p;
    std::shuffle(order.begin(), order.end(), random);
    // Merged as a tree would be, pairwise, and into the first.
    while (order.size() > 1) {
      std::vector<std::size_t> next;
      for (std::size_t i = 0; i + 1 < order.size(); i += 2) {
        partial[order[i]].merge(partial[order[i + 1]]);
        next.push_back(order[i]);
      }
      if (order.size() % 2 == 1) next.push_back(order.back());
      order = next;
    }
    expect_same_state(partial[order[0]], whole, name + ", " + std::to_string(parts) + " parts");
  }
}

TEST(ExactHullMerge, AnySplitOfRealisticMessagesMergesIntoTheWhole) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    const auto messages = generate::clock_pair(3000, seed);
    ExactHullEstimator all;
    for (const LinkMessage& m : messages) all.add(m);
    ASSERT_EQ(all.estimate().quality, Quality::kAccurate);  // the case that matters: bounded both ways
    check_splits(messages, ClockStability{0}, seed, "linear clocks, seed " + std::to_string(seed));
    check_splits(messages, ClockStability{ClockStability::kDefaultPpm}, seed,
                 "100 ppm with the envelope, seed " + std::to_string(seed));
  }
}

TEST(ExactHullMerge, FewMessagesAndOneDirectionMergeToo) {
  const auto messages = generate::clock_pair(40, 9);
  std::vector<LinkMessage> one_way;
  for (const LinkMessage& m : messages) {
    if (m.is_lower()) one_way.push_back(m);
  }
  check_splits(one_way, ClockStability{0}, 9, "one direction (INCOMPLETE)");
  check_splits({messages.begin(), messages.begin() + 3}, ClockStability{0}, 9, "three messages");
  check_splits(messages, ClockStability{0}, 9, "forty messages");
}

TEST(ExactHullMerge, MergingAnEmptyStateChangesNothing) {
  const auto messages = generate::clock_pair(500, 3);
  ExactHullEstimator whole;
  ExactHullEstimator merged;
  for (const LinkMessage& m : messages) {
    whole.add(m);
    merged.add(m);
  }
  merged.merge(ExactHullEstimator());
  expect_same_state(merged, whole, "an empty state merged in");
  ExactHullEstimator empty;
  empty.merge(whole);
  expect_same_state(empty, whole, "merged into an empty state");
}

}  // namespace
}  // namespace tracesync::hull
