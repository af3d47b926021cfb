// SPDX-License-Identifier: EPL-2.0
#include "model/int256.h"

#include <gtest/gtest.h>

#include <random>

namespace tracesync::model {
namespace {

constexpr Int128 kTwo64 = Int128{1} << 64;

TEST(Int256, SmallProductsMatchInt128) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 10000; ++i) {
    const Int128 a = static_cast<int64_t>(rng()) >> 2;
    const Int128 b = static_cast<int64_t>(rng()) >> 2;
    EXPECT_EQ(Int256::product(a, b), Int256(a * b));
    EXPECT_EQ(Int256::product(a, b).sign(), (a * b > 0) - (a * b < 0));
  }
}

TEST(Int256, WideProductsAreExact) {
  // (2^64 + 1)^2 = 2^128 + 2^65 + 1, which no 128-bit type holds.
  const Int256 square = Int256::product(kTwo64 + 1, kTwo64 + 1);
  const Int256 expected = Int256::product(kTwo64, kTwo64) + Int256(Int128{2} * kTwo64 + 1);
  EXPECT_EQ(square, expected);
  EXPECT_GT(square, Int256(std::numeric_limits<int64_t>::max()));
  // Signs propagate.
  EXPECT_EQ(Int256::product(-(kTwo64 + 1), kTwo64 + 1), -square);
  EXPECT_EQ(Int256::product(-(kTwo64 + 1), -(kTwo64 + 1)), square);
  EXPECT_LT(-square, Int256(0));
}

TEST(Int256, TimesChainsThreeFactors) {
  // (2^64)^2 * 3 compared through two different association orders.
  const Int256 left = Int256::product(kTwo64, kTwo64).times(3);
  const Int256 right = Int256::product(kTwo64, 3).times(kTwo64);
  EXPECT_EQ(left, right);
  EXPECT_EQ((left - right).sign(), 0);
  EXPECT_EQ(Int256::product(kTwo64, kTwo64).times(-3), -left);
}

TEST(Int256, OrderingAcrossSigns) {
  const Int256 big = Int256::product(kTwo64, kTwo64);
  EXPECT_LT(-big, Int256(-1));
  EXPECT_LT(Int256(-1), Int256(0));
  EXPECT_LT(Int256(0), Int256(1));
  EXPECT_LT(Int256(1), big);
  EXPECT_LT(big, big + Int256(1));
}

TEST(Int256, ToQuadIsNearest) {
  EXPECT_EQ(Int256(Int128{-12345}).to_quad(), -12345.0Q);
  const __float128 two128 = Int256::product(kTwo64, kTwo64).to_quad();
  EXPECT_EQ(two128, 340282366920938463463374607431768211456.0Q);
}

}  // namespace
}  // namespace tracesync::model
