// SPDX-License-Identifier: EPL-2.0
// verify's own derivation of a link's lines from its messages, on a case
// worked by hand: b = a + 5, two messages each way.

#include <gtest/gtest.h>

#include "verify/message_lines.h"

namespace tracesync::verify {
namespace {

using model::Rational;

// a -> b: sent on a at x, received on b at y; b -> a: received on a at x, sent on b at y.
const std::vector<MessagePoint> kAToB = {{0, 7}, {10, 16}};
const std::vector<MessagePoint> kBToA = {{4, 8}, {14, 18}};

TEST(MessageLines, ExtremeSlopesComeFromTheirPinningPairs) {
  std::string why;
  const auto lines = extreme_lines(kAToB, kBToA, &why);
  ASSERT_TRUE(lines) << why;
  // The greatest slope: b -> a (4, 8) before a -> b (10, 16): 8 / 6.
  EXPECT_EQ(lines->lmax.slope, Rational(4, 3));
  EXPECT_EQ(lines->lmax.intercept, Rational(8, 3));
  EXPECT_EQ(lines->lmax_pair, (std::pair<std::size_t, std::size_t>{1, 0}));
  // The least: a -> b (0, 7) before b -> a (14, 18): 11 / 14, beating 1/4 and 1/2.
  EXPECT_EQ(lines->lmin.slope, Rational(11, 14));
  EXPECT_EQ(lines->lmin.intercept, Rational(7));
  EXPECT_EQ(lines->lmin_pair, (std::pair<std::size_t, std::size_t>{0, 1}));
  EXPECT_EQ(first_on_wrong_side(lines->lmin, kAToB, kBToA), "");
  EXPECT_EQ(first_on_wrong_side(lines->lmax, kAToB, kBToA), "");
}

TEST(MessageLines, AllowedRangeAtAnInstant) {
  // At 0 the a -> b message (0, 7) caps every line; Lmax is the lowest there.
  const auto [low, high] = allowed_range_at(0, kAToB, kBToA);
  EXPECT_EQ(low, Rational(8, 3));
  EXPECT_EQ(high, Rational(7));
  // Far right, Lmax is the highest and Lmin the lowest.
  const auto [far_low, far_high] = allowed_range_at(100, kAToB, kBToA);
  EXPECT_EQ(far_high, Rational(4, 3) * 100 + Rational(8, 3));
  EXPECT_EQ(far_low, Rational(11, 14) * 100 + 7);
}

TEST(MessageLines, WrongSideIsNamed) {
  const ExactLine too_high{1, 8};  // above the a -> b message (0, 7)
  EXPECT_NE(first_on_wrong_side(too_high, kAToB, kBToA).find("sent 0 received 7"), std::string::npos);
  const ExactLine too_low{1, 2};  // below the b -> a message sent 8, received 4
  EXPECT_NE(first_on_wrong_side(too_low, kAToB, kBToA).find("sent 8 received 4"), std::string::npos);
}

TEST(MessageLines, NoLineOrNoBoundIsSaid) {
  std::string why;
  EXPECT_FALSE(extreme_lines(kAToB, {}, &why));
  EXPECT_NE(why.find("do not bound"), std::string::npos);
  // Received at 5 on a b -> a message sent at 6, and the a -> b message sent at 5
  // arrived at 5: no line can pass between them.
  EXPECT_FALSE(extreme_lines({{5, 5}, {10, 20}}, {{5, 6}, {0, 0}}, &why));
  EXPECT_NE(why.find("no line"), std::string::npos);
  // Slopes crossing: the least allowed exceeds the greatest.
  EXPECT_FALSE(extreme_lines({{0, 10}, {10, 10}}, {{5, 12}}, &why));
  EXPECT_NE(why.find("no line"), std::string::npos);
}

}  // namespace
}  // namespace tracesync::verify
