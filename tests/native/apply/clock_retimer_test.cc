// SPDX-License-Identifier: EPL-2.0
#include "apply/clock_retimer.h"

#include <gtest/gtest.h>

#include <random>

namespace tracesync::apply {
namespace {

using model::Quad;

// The fast path gives exactly what quad arithmetic gives, over pieces of
// realistic and extreme drifts, forward runs, jumps back (a retimer of a
// stream sees its times in order; another stream's are not), values next
// to each piece's end, and the far 64-bit range.
TEST(ClockRetimer, TheFastPathIsTheExactMap) {
  const int64_t t0 = 1'700'000'000'000'000'000;
  const Quad s1 = 1 + 37e-6Q, s2 = 1 - 0.4Q, s3 = 1 + 3e-3Q;
  const Quad o1 = (1 - s1) * t0 + 123'456.789Q;
  const int64_t m1 = t0 + 20'000'000'000, m2 = t0 + 25'000'000'000;
  const Quad o2 = (s1 - s2) * m1 + o1;
  const Quad o3 = (s2 - s3) * m2 + o2;
  const PiecewiseTransform transform({{t0, m1, {s1, o1}, 0, 0}, {m1, m2, {s2, o2}, 0, 0}, {m2, t0 + 90'000'000'000, {s3, o3}, 0, 0}});
  for (const ClockOrigin clock : {ClockOrigin{1'000'000'000, 1'699'999'000, 17}, ClockOrigin{1'000'000'000, 0, 0},
                                  ClockOrigin{2'400'000'000, 1'699'999'990, 1'234'567}, ClockOrigin{100'000'000, 1'699'999'999, 3}}) {
    ClockRetimer fast(clock, transform);
    std::mt19937_64 random(42);
    const uint64_t start = static_cast<uint64_t>(
        (static_cast<Quad>(t0) / 1e9Q - clock.offset_s) * clock.freq) - clock.offset_cycles;
    uint64_t cycles = start;
    uint64_t mismatches = 0;
    for (int i = 0; i < 300'000; ++i) {
      const uint64_t step = random() % 7 == 0 ? random() % (uint64_t{1} << 36) : random() % 20'000;
      cycles = random() % 50 == 0 ? start + random() % (clock.freq * 90) : cycles + step;
      uint64_t a = 0, b = 0;
      const bool ok_a = fast.map(cycles, &a);
      const bool ok_b = fast.map_exactly(cycles, &b);
      ASSERT_EQ(ok_a, ok_b) << cycles;
      mismatches += a != b;
    }
    EXPECT_EQ(mismatches, 0u) << "freq " << clock.freq;
  }
}

TEST(ClockRetimer, ATimeBeforeTheOriginIsRefused) {
  ClockRetimer retimer({1'000'000'000, 1'000, 0}, PiecewiseTransform({{0, INT64_MAX, {1, -2e12Q}, 0, 0}}));
  uint64_t mapped = 0;
  EXPECT_FALSE(retimer.map(5, &mapped));
  EXPECT_TRUE(retimer.map(3'500'000'000'000, &mapped));
  EXPECT_EQ(mapped, 1'500'000'000'000u);
}

}  // namespace
}  // namespace tracesync::apply
