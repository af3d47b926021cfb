// SPDX-License-Identifier: EPL-2.0
#include "model/linear_transform.h"

#include <gtest/gtest.h>

namespace tracesync::model {
namespace {

TEST(LinearTransform, MapsEpochTimestampsExactlyToTheNanosecond) {
  // slope = 1 + 1e-6 (1 ppm drift): t * slope = t + t / 1e6, computable in
  // integers when t is a multiple of 1e6.
  const LinearTransform drift{1 + 1e-6Q, -5000};
  const int64_t t = 1'700'000'000'000'000'000;
  EXPECT_EQ(drift.apply_rounded(t), t + t / 1'000'000 - 5000);
  // A double cannot even hold t + 1.
  EXPECT_EQ(drift.apply_rounded(t + 1), t + 1 + t / 1'000'000 - 5000);
}

TEST(LinearTransform, InverseAndComposition) {
  const LinearTransform f{1.00002Q, 12345.5Q};
  const int64_t t = 1'361'203'559'332'331'489;
  EXPECT_EQ(f.inverse().after(f).apply_rounded(t), t);
  // First g, then f: f(g(t)) with integer coefficients, checkable by hand.
  const LinearTransform twice_plus_3{2, 3};
  const LinearTransform five_times_plus_7{5, 7};
  EXPECT_EQ(twice_plus_3.after(five_times_plus_7).apply_rounded(100), 2 * (5 * 100 + 7) + 3);
  EXPECT_EQ(five_times_plus_7.after(twice_plus_3).apply_rounded(100), 5 * (2 * 100 + 3) + 7);
  EXPECT_EQ(LinearTransform::identity().apply_rounded(t), t);
}

TEST(LinearTransform, LinkEstimateToTransform) {
  // y = 2x + 10 on the link means b = 2a + 10, so a = (b - 10) / 2.
  const LinearTransform b_to_a = b_onto_a(2, 10);
  EXPECT_EQ(b_to_a.apply_rounded(30), 10);
}

}  // namespace
}  // namespace tracesync::model
