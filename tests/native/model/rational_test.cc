// SPDX-License-Identifier: EPL-2.0
// Exact rationals: a quad's exact value, decimals read and written with one
// rounding, and the nearest quad (issue 36).

#include <gtest/gtest.h>

#include <quadmath.h>

#include <random>

#include "model/exact_transform.h"
#include "model/rational.h"

namespace tracesync::model {
namespace {

TEST(Rational, ExactValueOfAQuadRoundTrips) {
  std::mt19937_64 random(7);
  for (int i = 0; i < 2000; ++i) {
    const Quad mantissa = static_cast<Quad>(random()) / 18446744073709551616.0Q +
                          static_cast<Quad>(random()) / 340282366920938463463374607431768211456.0Q;
    const int shift = static_cast<int>(random() % 200) - 100;
    const Quad q = (i % 2 ? -1 : 1) * ldexpq(mantissa, shift);
    if (q == 0) continue;
    EXPECT_EQ(to_quad(exact(q)), q) << to_decimal(q);
  }
  EXPECT_EQ(exact(0.5Q), Rational(1, 2));
  EXPECT_EQ(exact(-3.0Q), Rational(-3));
  EXPECT_NE(exact(0.1Q), Rational(1, 10));  // 0.1 has no binary form: its quad is a nearby fraction of 2^-116
}

TEST(Rational, ParsesPlainDecimalsAndExponents) {
  EXPECT_EQ(*parse_rational("12.5"), Rational(25, 2));
  EXPECT_EQ(*parse_rational("-0.001"), Rational(-1, 1000));
  EXPECT_EQ(*parse_rational("7"), Rational(7));
  EXPECT_EQ(*parse_rational("1.5e-3"), Rational(3, 2000));
  EXPECT_EQ(*parse_rational("2E2"), Rational(200));
  for (const char* bad : {"", "-", ".", "1.2.3", "1e", "abc", "1 ", "0x10", "nan"}) {
    EXPECT_FALSE(parse_rational(bad).has_value()) << bad;
  }
}

TEST(Rational, WritesOnceRoundedDecimalsLikeTheQuadWriter) {
  EXPECT_EQ(rounded_decimal(Rational(1, 3)), "0.3333333333333333333333333333333333");
  EXPECT_EQ(rounded_decimal(Rational(2, 3)), "0.6666666666666666666666666666666667");
  EXPECT_EQ(rounded_decimal(Rational(-20, 3)), "-6.666666666666666666666666666666667");
  EXPECT_EQ(rounded_decimal(Rational(0)), "0");
  EXPECT_EQ(rounded_decimal(Rational(1)), "1.000000000000000000000000000000000");
  // Rounding up carries into a new digit.
  EXPECT_EQ(rounded_decimal(*parse_rational("9.9999999999999999999999999999999999")), "10.00000000000000000000000000000000");
  // Ties to even.
  EXPECT_EQ(rounded_decimal(Rational(25, 10), 1), "2");
  EXPECT_EQ(rounded_decimal(Rational(35, 10), 1), "4");
  EXPECT_EQ(rounded_decimal(Rational(123456), 2), "120000");
  EXPECT_EQ(rounded_decimal(Rational(1, 8000), 3), "0.000125");
  // The quad writer rounds a quad's exact value once: both agree.
  std::mt19937_64 random(11);
  for (int i = 0; i < 2000; ++i) {
    const Quad q = ldexpq(static_cast<Quad>(random()) + static_cast<Quad>(random()) / 18446744073709551616.0Q,
                          static_cast<int>(random() % 160) - 100);
    EXPECT_EQ(rounded_decimal(exact(q)), to_decimal(q));
  }
}

TEST(Rational, NearestQuadIsRoundedOnce) {
  // 1/3 lies strictly between two quads; the nearest is within half an ulp.
  const Quad third = to_quad(Rational(1, 3));
  const Rational error = exact(third) - Rational(1, 3);
  const Rational half_ulp = exact(ldexpq(1, -115));  // 1/3 lies in [1/4, 1/2): ulp 2^-114
  EXPECT_LE(boost::multiprecision::abs(error), half_ulp);
  EXPECT_EQ(to_quad(Rational(-1, 3)), -third);
  EXPECT_EQ(to_quad(*parse_rational("1399400560442236264")), 1399400560442236264.0Q);
}

// The case of issue 36: the inverse of a link's alpha, rounded once.
TEST(ExactTransform, InverseOfThePrintedAlphaIsRoundedOnce) {
  const Rational alpha = *parse_rational("0.9999780597738630139908069469370680");
  const ExactTransform t = exact_b_onto_a(alpha, *parse_rational("30703165714800.28786063588876161835"));
  EXPECT_EQ(rounded_decimal(t.slope), "1.000021940707521070626952332542269");
  EXPECT_EQ(t.inverse().inverse(), t);
  EXPECT_EQ(t.after(t.inverse()), ExactTransform::identity());
}

}  // namespace
}  // namespace tracesync::model
