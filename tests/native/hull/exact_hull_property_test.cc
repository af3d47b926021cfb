// SPDX-License-Identifier: EPL-2.0
// Property tests: after every message, in time order and shuffled, the
// incremental estimator equals the brute-force answers (pairwise bounds and
// the LP by enumeration) and the batch hull.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string_view>
#include <random>

#include "brute_force_oracle.h"
#include "hull/batch_hull.h"
#include "hull/exact_hull_estimator.h"
#include "message_generators.h"

namespace tracesync::hull {
namespace {

enum class Order { kTime, kShuffled };

std::vector<LinkMessage> arrange(std::vector<LinkMessage> messages, Order order, uint64_t seed) {
  if (order == Order::kTime) {
    // Arrival order: the later of the two ends of each message.
    std::stable_sort(messages.begin(), messages.end(), [](const LinkMessage& a, const LinkMessage& b) {
      return std::max(a.point.x, a.point.y) < std::max(b.point.x, b.point.y);
    });
  } else {
    std::mt19937_64 rng(seed * 7919 + 1);
    std::shuffle(messages.begin(), messages.end(), rng);
  }
  return messages;
}

// Compares the estimator to the oracle on the same messages. `history`
// carries what only a sequence defines: whether the link was accurate right
// before its region emptied, and the lines it kept then.
struct History {
  bool empty = false;
  std::optional<ExactLine> kept_lmin, kept_lmax;
  uint64_t contradictions = 0;
};

void check_state(const ExactHullEstimator& est, std::span<const LinkMessage> prefix, History& history,
                 bool enumerate) {
  const auto want = oracle::pairwise(prefix);
  ASSERT_EQ(est.region_empty(), want.region_empty);
  ASSERT_EQ(est.lower_hull().vertices(), want.lower_hull);
  ASSERT_EQ(est.upper_hull().vertices(), want.upper_hull);

  const auto e = est.estimate();
  const LinkMessage& last = prefix.back();
  if (want.region_empty) {
    if (!history.empty) history.empty = true;  // the first empty prefix
    // Contradictions: every message from the emptying one on (FAIL), or
    // those on the wrong side of the kept bisector (APPROXIMATE).
    if (!history.kept_lmin) {
      ++history.contradictions;
    } else if (side_of_bisector(*history.kept_lmin, *history.kept_lmax, last.point) ==
               (last.is_lower() ? -1 : 1)) {
      ++history.contradictions;
    }
    EXPECT_EQ(e.quality, history.kept_lmin ? Quality::kApproximate : Quality::kFail);
    EXPECT_EQ(e.counters.contradictions, history.contradictions);
    if (history.kept_lmin) {
      EXPECT_TRUE(oracle::same_line(*est.lmin(), *history.kept_lmin));
      EXPECT_TRUE(oracle::same_line(*est.lmax(), *history.kept_lmax));
    }
    return;
  }

  ASSERT_EQ(est.lmin().has_value(), want.lmin.has_value());
  ASSERT_EQ(est.lmax().has_value(), want.lmax.has_value());
  if (want.lmin) {
    EXPECT_TRUE(oracle::same_line(*est.lmin(), *want.lmin));
  }
  if (want.lmax) {
    EXPECT_TRUE(oracle::same_line(*est.lmax(), *want.lmax));
  }
  EXPECT_EQ(e.quality, want.lmin && want.lmax ? Quality::kAccurate : Quality::kIncomplete);
  if (want.lmin && want.lmax) {
    history.kept_lmin = want.lmin;
    history.kept_lmax = want.lmax;
    if (enumerate) {
      const auto lp = oracle::enumerate_feasible_lines(prefix);
      ASSERT_TRUE(lp.steepest && lp.flattest);
      EXPECT_TRUE(oracle::same_line(*lp.steepest, *want.lmax));
      EXPECT_TRUE(oracle::same_line(*lp.flattest, *want.lmin));
    }
  }
}

void check_batch_agrees(const ExactHullEstimator& est, std::span<const LinkMessage> messages) {
  const BatchHull batch = compute_batch_hull(messages);
  ASSERT_EQ(batch.region_empty, est.region_empty());
  EXPECT_EQ(batch.lower_hull, est.lower_hull().vertices());
  EXPECT_EQ(batch.upper_hull, est.upper_hull().vertices());
  if (batch.region_empty) return;
  ASSERT_EQ(batch.lmin.has_value(), est.lmin().has_value());
  ASSERT_EQ(batch.lmax.has_value(), est.lmax().has_value());
  if (batch.lmin) {
    EXPECT_TRUE(oracle::same_line(*batch.lmin, *est.lmin()));
  }
  if (batch.lmax) {
    EXPECT_TRUE(oracle::same_line(*batch.lmax, *est.lmax()));
  }
}

// How often each quality was checked: the generators must exercise them all.
struct QualityTally {
  std::map<Quality, int> count;
};

void run_sequence(const std::vector<LinkMessage>& messages, bool enumerate, QualityTally& tally) {
  ExactHullEstimator est;
  History history;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    est.add(messages[i]);
    check_state(est, std::span(messages).first(i + 1), history, enumerate);
    ++tally.count[est.estimate().quality];
    if (::testing::Test::HasFatalFailure()) return;
  }
  check_batch_agrees(est, messages);
}

struct Case {
  const char* name;
  std::vector<LinkMessage> (*make)(uint64_t seed);
};

const Case kCases[] = {
    {"grid12", [](uint64_t s) { return generate::grid(24, s, 12); }},
    {"grid1000", [](uint64_t s) { return generate::grid(24, s, 1000); }},
    {"near_line", [](uint64_t s) { return generate::near_line(30, s); }},
    {"near_line_at_2^62", [](uint64_t s) { return generate::near_line(30, s, int64_t{1} << 62); }},
    {"clock_pair", [](uint64_t s) { return generate::clock_pair(40, s); }},
    {"clock_pair_negative", [](uint64_t s) {
       generate::ClockPair c;
       c.start_ns = -(int64_t{1} << 40);
       c.drift_ppm = -80;
       return generate::clock_pair(40, s, c);
     }},
};

class ExactHullProperty : public ::testing::TestWithParam<std::tuple<int, Order>> {};

TEST_P(ExactHullProperty, EqualsBruteForceAfterEveryMessage) {
  const Case& c = kCases[std::get<0>(GetParam())];
  const Order order = std::get<1>(GetParam());
  QualityTally tally;
  for (uint64_t seed = 0; seed < 400; ++seed) {
    SCOPED_TRACE(::testing::Message() << c.name << " seed " << seed);
    run_sequence(arrange(c.make(seed), order, seed), /*enumerate=*/seed % 4 == 0, tally);
    if (HasFatalFailure()) return;
  }
  // Realistic clocks are always accurate; the degenerate generators must
  // reach every outcome, or this test would be checking less than it says.
  EXPECT_GT(tally.count[Quality::kAccurate], 0);
  EXPECT_GT(tally.count[Quality::kIncomplete], 0);
  if (std::string_view(c.name).starts_with("grid") || std::string_view(c.name).starts_with("near_line")) {
    EXPECT_GT(tally.count[Quality::kApproximate], 0) << c.name;
    EXPECT_GT(tally.count[Quality::kFail], 0) << c.name;
  }
}

std::string case_name(const ::testing::TestParamInfo<std::tuple<int, Order>>& param) {
  std::string name = kCases[std::get<0>(param.param)].name;
  std::replace(name.begin(), name.end(), '^', '_');
  return name + (std::get<1>(param.param) == Order::kTime ? "_time_order" : "_shuffled");
}

INSTANTIATE_TEST_SUITE_P(AllGenerators, ExactHullProperty,
                         ::testing::Combine(::testing::Range(0, static_cast<int>(std::size(kCases))),
                                            ::testing::Values(Order::kTime, Order::kShuffled)),
                         case_name);

TEST(ExactHullPropertyLarge, ThousandsOfRealisticMessagesInAnyOrderEqualTheBatch) {
  for (uint64_t seed = 0; seed < 20; ++seed) {
    auto messages = generate::clock_pair(2000, seed);
    for (const Order order : {Order::kTime, Order::kShuffled}) {
      const auto arranged = arrange(messages, order, seed);
      ExactHullEstimator est;
      for (const auto& m : arranged) est.add(m);
      const auto want = oracle::pairwise(arranged);
      ASSERT_FALSE(want.region_empty);
      EXPECT_EQ(est.lower_hull().vertices(), want.lower_hull);
      EXPECT_EQ(est.upper_hull().vertices(), want.upper_hull);
      EXPECT_TRUE(oracle::same_line(*est.lmin(), *want.lmin));
      EXPECT_TRUE(oracle::same_line(*est.lmax(), *want.lmax));
      check_batch_agrees(est, arranged);
    }
  }
}

}  // namespace
}  // namespace tracesync::hull
