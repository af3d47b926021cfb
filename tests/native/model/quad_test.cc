// SPDX-License-Identifier: EPL-2.0
#include "model/quad.h"

#include <gtest/gtest.h>

namespace tracesync::model {
namespace {

std::size_t significant_digits(const std::string& s) {
  std::string digits;
  for (char c : s) {
    if (c >= '0' && c <= '9') digits.push_back(c);
  }
  const auto first = digits.find_first_not_of('0');
  return first == std::string::npos ? 0 : digits.size() - first;
}

TEST(Decimal, ThirtyFourSignificantDigitsPlainNotation) {
  EXPECT_EQ(to_decimal(1), "1.000000000000000000000000000000000");
  EXPECT_EQ(to_decimal(-2.5Q), "-2.500000000000000000000000000000000");
  EXPECT_EQ(to_decimal(0.125Q / 128), "0.0009765625000000000000000000000000000");
  EXPECT_EQ(to_decimal(0), "0");
  const std::string epoch = to_decimal(1361203559332331489.0Q);
  EXPECT_EQ(epoch, "1361203559332331489.000000000000000");
  EXPECT_EQ(significant_digits(epoch), 34u);
  EXPECT_EQ(significant_digits(to_decimal(1.0Q / 3)), 34u);
  EXPECT_EQ(to_decimal(1e40Q), "10000000000000000000000000000000000000000");
}

TEST(Decimal, SpecialValues) {
  EXPECT_EQ(to_decimal(1.0Q / 0.0Q), "inf");
  EXPECT_EQ(to_decimal(-1.0Q / 0.0Q), "-inf");
}

TEST(Decimal, RoundTripsThroughParse) {
  for (const Quad v : {1.0Q / 3, -123456789.123456789Q, 1.0000001234Q, 7e-12Q}) {
    const auto parsed = parse_decimal(to_decimal(v));
    ASSERT_TRUE(parsed.has_value());
    // 34 digits determine a binary128 value to within half an ulp or so.
    EXPECT_LE(abs(*parsed - v), abs(v) * 1e-33Q);
  }
  EXPECT_FALSE(parse_decimal("1.5x").has_value());
  EXPECT_FALSE(parse_decimal("").has_value());
}

TEST(Rounding, NearestAndSaturating) {
  EXPECT_EQ(round_to_int64(2.5Q), 3);
  EXPECT_EQ(round_to_int64(-2.5Q), -3);
  EXPECT_EQ(round_to_int64(1e30Q), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(round_to_int64(-1e30Q), std::numeric_limits<int64_t>::min());
}

}  // namespace
}  // namespace tracesync::model
