// SPDX-License-Identifier: EPL-2.0
#include "model/orientation.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>

namespace tracesync::model {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(Orientation, BasicTurns) {
  EXPECT_EQ(orientation({0, 0}, {10, 0}, {5, 1}), 1);
  EXPECT_EQ(orientation({0, 0}, {10, 0}, {5, -1}), -1);
  EXPECT_EQ(orientation({0, 0}, {10, 0}, {20, 0}), 0);
}

TEST(Orientation, ExactAtTheEdgesOfInt64) {
  // Collinear points spanning the whole int64 range: differences need 65
  // bits and the products 130; a double would see noise here.
  EXPECT_EQ(orientation({kMin, kMin}, {kMax, kMax}, {0, 0}), 0);
  EXPECT_EQ(orientation({kMin, kMin}, {kMax, kMax}, {0, 1}), 1);
  EXPECT_EQ(orientation({kMin, kMin}, {kMax, kMax}, {0, -1}), -1);
  // The falling diagonal is y = -x - 1 (kMin + kMax = -1).
  EXPECT_EQ(orientation({kMin, kMax}, {kMax, kMin}, {0, -1}), 0);
  EXPECT_EQ(orientation({kMin, kMax}, {kMax, kMin}, {0, 0}), 1);
  EXPECT_EQ(orientation({kMin, kMax}, {kMax, kMin}, {0, -2}), -1);
}

TEST(Orientation, NearTwoTo62MatchesWideArithmetic) {
  std::mt19937_64 rng(11);
  const int64_t base = int64_t{1} << 62;
  for (int i = 0; i < 20000; ++i) {
    auto coordinate = [&] { return base + static_cast<int64_t>(rng() % 2000000) - 1000000; };
    const Point a{coordinate(), coordinate()}, b{coordinate(), coordinate()}, c{coordinate(), coordinate()};
    const Int256 cross = Int256::product(Int128{b.x} - a.x, Int128{c.y} - a.y) -
                         Int256::product(Int128{b.y} - a.y, Int128{c.x} - a.x);
    EXPECT_EQ(orientation(a, b, c), cross.sign());
  }
}

TEST(Slope, CompareIsExact) {
  // 1/3 vs 333333333333333333/1000000000000000000: differ in the 19th digit.
  const Slope third{1, 3};
  const Slope almost{333333333333333333, 1000000000000000000};
  EXPECT_EQ(compare(third, almost), 1);
  EXPECT_EQ(compare(almost, third), -1);
  EXPECT_EQ(compare(Slope{2, 6}, third), 0);
  EXPECT_EQ(compare(Slope{-1, 3}, Slope{-2, 6}), 0);
  const Slope huge{Int128{kMax} - kMin, 1};
  EXPECT_EQ(compare(huge, Slope{kMax, 1}), 1);
}

TEST(Slope, DifferenceIsRoundedOnce) {
  const __float128 d = difference(Slope{1000001, 1000000}, Slope{999999, 1000000});
  EXPECT_EQ(d, 2.0Q / 1000000);
}

}  // namespace
}  // namespace tracesync::model
