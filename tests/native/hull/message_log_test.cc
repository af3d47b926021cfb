// SPDX-License-Identifier: EPL-2.0
#include "hull/message_log.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

#include "hull/chunk_log.h"

namespace tracesync::hull {
namespace {

using model::Point;

bool in_rule_order(const LinkMessage& a, const LinkMessage& b) {
  return std::tie(a.point.x, a.direction, a.point.y) < std::tie(b.point.x, b.direction, b.point.y);
}

// The chunk log against a vector fed the same records, across chunk boundaries.
TEST(ChunkLog, KeepsArrivalOrderAndSortsInPlaceLikeAVector) {
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<int64_t> coordinate(-1000, 1000);
  using Log = ChunkLog<Point>;
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, Log::kChunk - 1, Log::kChunk, Log::kChunk + 1,
                              3 * Log::kChunk + 17}) {
    Log log;
    std::vector<Point> expected;
    for (std::size_t i = 0; i < n; ++i) {
      const Point p{coordinate(rng), coordinate(rng)};
      log.append(p);
      expected.push_back(p);
    }
    ASSERT_EQ(log.size(), n);
    EXPECT_EQ(log.empty(), n == 0);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(log[i], expected[i]) << i;
    EXPECT_EQ(static_cast<std::size_t>(log.end() - log.begin()), n);
    log.sort(std::less<>());
    std::sort(expected.begin(), expected.end());
    EXPECT_TRUE(std::equal(std::as_const(log).begin(), std::as_const(log).end(), expected.begin(), expected.end()));
    if (n > 0) {
      EXPECT_EQ(log.back(), expected.back());
    }
  }
}

// A copy is independent and equal; a move leaves an empty log that takes
// records again; appends after a sort land behind the sorted ones. At every
// size the first chunk doubles through (16, 32, ... 4,096) and beyond.
TEST(ChunkLog, CopiesMovesAndAppendsAfterASortKeepEveryRecord) {
  using Log = ChunkLog<Point>;
  for (const std::size_t n : {std::size_t{5}, std::size_t{16}, std::size_t{17}, Log::kChunk / 2 + 3, Log::kChunk,
                              2 * Log::kChunk + 5}) {
    Log log;
    for (std::size_t i = 0; i < n; ++i) log.append({static_cast<int64_t>(n - i), 0});
    Log copy = log;
    copy.append({-1, -1});
    ASSERT_EQ(copy.size(), n + 1);
    ASSERT_EQ(log.size(), n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(copy[i], log[i]) << n << " " << i;
    EXPECT_EQ(copy.back(), (Point{-1, -1}));
    log.sort(std::less<>());
    log.append({0, 7});
    EXPECT_EQ(log[0].x, 1);
    EXPECT_EQ(log[n - 1].x, static_cast<int64_t>(n));
    EXPECT_EQ(log.back(), (Point{0, 7}));
    Log moved = std::move(log);
    EXPECT_EQ(moved.size(), n + 1);
    EXPECT_TRUE(log.empty());  // NOLINT(bugprone-use-after-move): a moved-from log is empty and usable
    log.append({42, 42});
    ASSERT_EQ(log.size(), 1u);
    EXPECT_EQ(log[0], (Point{42, 42}));
    copy = moved;
    EXPECT_EQ(copy.size(), n + 1);
    EXPECT_EQ(copy.back(), (Point{0, 7}));
  }
}

// The message log keeps each direction's points apart and gives back every
// message, in the rule's order, as a vector sorted by it would; ties of x
// between directions included (a -> b first).
TEST(MessageLog, GivesEveryMessageBackInTheRulesOrder) {
  std::mt19937_64 rng(5);
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{100}, 2 * MessageLog::Points::kChunk + 3}) {
    std::uniform_int_distribution<int64_t> coordinate(0, n < 200 ? 20 : 5000);  // many ties
    MessageLog log;
    std::vector<LinkMessage> expected;
    for (std::size_t i = 0; i < n; ++i) {
      const LinkMessage m{rng() % 2 ? Direction::kAtoB : Direction::kBtoA, {coordinate(rng), coordinate(rng)}};
      log.append(m);
      expected.push_back(m);
    }
    ASSERT_EQ(log.size(), n);
    std::size_t lower = 0;
    log.for_each([&](const LinkMessage& m) { lower += m.is_lower(); });
    EXPECT_EQ(lower, static_cast<std::size_t>(std::count_if(expected.begin(), expected.end(),
                                                            [](const LinkMessage& m) { return m.is_lower(); })));
    EXPECT_EQ(log.lower().size(), lower);
    std::sort(expected.begin(), expected.end(), in_rule_order);
    const auto got = log.in_rule_order();
    ASSERT_EQ(got.size(), n);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(got[i].direction, expected[i].direction) << i;
      ASSERT_EQ(got[i].point, expected[i].point) << i;
    }
    EXPECT_TRUE(std::is_sorted(log.lower().begin(), log.lower().end()));
    EXPECT_TRUE(std::is_sorted(log.upper().begin(), log.upper().end()));
  }
}

}  // namespace
}  // namespace tracesync::hull
