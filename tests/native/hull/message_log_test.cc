// SPDX-License-Identifier: EPL-2.0
#include "hull/message_log.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

namespace tracesync::hull {
namespace {

bool by_x_then_direction(const LinkMessage& a, const LinkMessage& b) {
  return std::tie(a.point.x, a.direction, a.point.y) < std::tie(b.point.x, b.direction, b.point.y);
}

// The log against a vector fed the same messages, across chunk boundaries.
TEST(MessageLog, KeepsArrivalOrderAndSortsInPlaceLikeAVector) {
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<int64_t> coordinate(-1000, 1000);
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, MessageLog::kChunk - 1, MessageLog::kChunk,
                              MessageLog::kChunk + 1, 3 * MessageLog::kChunk + 17}) {
    MessageLog log;
    std::vector<LinkMessage> expected;
    for (std::size_t i = 0; i < n; ++i) {
      const LinkMessage m{i % 3 ? Direction::kAtoB : Direction::kBtoA, {coordinate(rng), coordinate(rng)}};
      log.append(m);
      expected.push_back(m);
    }
    ASSERT_EQ(log.size(), n);
    EXPECT_EQ(log.empty(), n == 0);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(log[i].point, expected[i].point) << i;
    EXPECT_EQ(static_cast<std::size_t>(log.end() - log.begin()), n);
    log.sort(by_x_then_direction);
    std::sort(expected.begin(), expected.end(), by_x_then_direction);
    std::size_t i = 0;
    for (const LinkMessage& m : std::as_const(log)) {
      ASSERT_EQ(m.point, expected[i].point) << i;
      ASSERT_EQ(m.direction, expected[i].direction) << i;
      ++i;
    }
    EXPECT_EQ(i, n);
    if (n > 0) {
      EXPECT_EQ(log.back().point, expected.back().point);
    }
  }
}

// A copy is independent and equal; a move leaves an empty log that takes
// messages again; appends after a sort land behind the sorted ones. At every
// size the first chunk doubles through (16, 32, ... 4,096) and beyond.
TEST(MessageLog, CopiesMovesAndAppendsAfterASortKeepEveryMessage) {
  for (const std::size_t n : {std::size_t{5}, std::size_t{16}, std::size_t{17}, MessageLog::kChunk / 2 + 3,
                              MessageLog::kChunk, 2 * MessageLog::kChunk + 5}) {
    MessageLog log;
    for (std::size_t i = 0; i < n; ++i) log.append({Direction::kAtoB, {static_cast<int64_t>(n - i), 0}});
    MessageLog copy = log;
    copy.append({Direction::kBtoA, {-1, -1}});
    ASSERT_EQ(copy.size(), n + 1);
    ASSERT_EQ(log.size(), n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(copy[i].point, log[i].point) << n << " " << i;
    EXPECT_EQ(copy.back().point, (model::Point{-1, -1}));
    log.sort(by_x_then_direction);
    log.append({Direction::kAtoB, {0, 7}});
    EXPECT_EQ(log[0].point.x, 1);
    EXPECT_EQ(log[n - 1].point.x, static_cast<int64_t>(n));
    EXPECT_EQ(log.back().point, (model::Point{0, 7}));
    MessageLog moved = std::move(log);
    EXPECT_EQ(moved.size(), n + 1);
    EXPECT_TRUE(log.empty());  // NOLINT(bugprone-use-after-move): a moved-from log is empty and usable
    log.append({Direction::kAtoB, {42, 42}});
    ASSERT_EQ(log.size(), 1u);
    EXPECT_EQ(log[0].point, (model::Point{42, 42}));
    copy = moved;
    EXPECT_EQ(copy.size(), n + 1);
    EXPECT_EQ(copy.back().point, (model::Point{0, 7}));
  }
}

}  // namespace
}  // namespace tracesync::hull
