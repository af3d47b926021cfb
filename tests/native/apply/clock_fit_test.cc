// SPDX-License-Identifier: EPL-2.0
#include "apply/clock_fit.h"

#include <gtest/gtest.h>
#include <quadmath.h>

#include <random>

namespace tracesync::apply {
namespace {

using model::Quad;

// The worst |shown - wanted| of `mapping` over [first, last], by brute force
// over the ends and many cycle values between them (the error is linear in
// the cycle value, so the ends are the worst, but the oracle does not
// assume it).
Quad brute_force_worst(const ClockMapping& original, const ClockMapping& mapping, const model::LinearTransform& line,
                       Quad first, Quad last) {
  Quad worst = 0;
  for (int i = 0; i <= 64; ++i) {
    const Quad c = floorq(first + (last - first) * i / 64);
    const Quad wanted = line.slope * time_of_cycles(original, c) + line.offset;
    worst = std::max(worst, model::abs(time_of_cycles(mapping, c) - wanted));
  }
  return worst;
}

TEST(ClockFit, IdentityKeepsTheClock) {
  const ClockMapping lttng{1'000'000'000, 0, 1'361'203'559'332'331'489};
  const ClockFit fit = fit_clock(lttng, model::LinearTransform::identity(), 0, 3e12);
  EXPECT_EQ(fit.mapping.freq, lttng.freq);
  EXPECT_EQ(fit.mapping.offset_s * 1'000'000'000 + fit.mapping.offset, lttng.offset);
  EXPECT_EQ(fit.worst_error_ns, 0);
}

TEST(ClockFit, APureShiftIsExactAtOneGigahertz) {
  const ClockMapping lttng{1'000'000'000, 0, 1'361'203'559'332'331'489};
  const ClockFit fit = fit_clock(lttng, {1, -123'456'789}, 0, 3e12);
  EXPECT_EQ(fit.mapping.freq, lttng.freq);
  EXPECT_EQ(fit.mapping.offset_s * 1'000'000'000 + fit.mapping.offset, lttng.offset - 123'456'789);
  EXPECT_EQ(fit.worst_error_ns, 0);
}

// Against an exhaustive search of the neighbouring frequencies and offsets
// (spans of 10 s or more):
// no integer mapping near the chosen one does better in the worst case, and
// the reported error is the true worst error.
TEST(ClockFit, NoNeighbouringMappingDoesBetter) {
  std::mt19937_64 random(21);
  const uint64_t frequencies[] = {1'000'000'000, 100'000'000, 25'000'000, 2'400'000'017};
  for (int round = 0; round < 200; ++round) {
    const uint64_t freq = frequencies[round % 4];
    const ClockMapping original{freq, static_cast<int64_t>(random() % 2'000'000'000),
                                static_cast<int64_t>(random() % freq)};
    const double ppm = std::uniform_real_distribution<double>(-200, 200)(random);
    const model::LinearTransform line{1 + static_cast<Quad>(ppm) / 1'000'000,
                                      static_cast<Quad>(static_cast<int64_t>(random() % 2'000'000'000'000) - 1'000'000'000'000)};
    const Quad first = static_cast<Quad>(random() % (freq * 1000));
    // At least 10 s: over shorter spans the whole-cycle offset, not the
    // frequency, dominates, and a farther frequency can get lucky.
    const Quad last = first + static_cast<Quad>(freq * 10 + random() % (freq * 7200));  // up to two hours
    const ClockFit fit = fit_clock(original, line, first, last);
    const Quad reported = fit.worst_error_ns;
    EXPECT_NEAR(model::to_double(brute_force_worst(original, fit.mapping, line, first, last)), fit.worst_error_ns, 1e-6);
    for (int64_t df = -2; df <= 2; ++df) {
      for (int64_t dc = -3; dc <= 3; ++dc) {
        ClockMapping other = fit.mapping;
        other.freq = static_cast<uint64_t>(static_cast<int64_t>(other.freq) + df);
        // The offset that keeps the span's middle where the fit put it, then nudged.
        const Quad middle = (first + last) / 2;
        const Quad shown = time_of_cycles(fit.mapping, middle) - middle * 1e9Q / other.freq;
        other.offset_s = 0;
        other.offset = static_cast<int64_t>(roundq(shown * other.freq / 1e9Q)) + dc;
        EXPECT_GE(brute_force_worst(original, other, line, first, last) + 1e-6Q, reported)
            << "freq " << freq << " ppm " << ppm << " df " << df << " dc " << dc;
      }
    }
  }
}

// At 1 GHz over an hour the integer frequency costs about
// drift * span / 2 / freq-resolution: a few hundred ns at most.
TEST(ClockFit, RoundingAtOneGigahertzIsSmall) {
  const ClockMapping lttng{1'000'000'000, 0, 1'361'203'559'332'331'489};
  const model::LinearTransform line{1 + 37.3e-6Q, -5e10Q};
  const Quad hour = 3.6e12Q;
  const ClockFit fit = fit_clock(lttng, line, 1e12Q, 1e12Q + hour);
  // The slope is rounded to a multiple near 1e-9 of itself: at most half
  // of that over half the span, plus half a cycle of offset.
  EXPECT_LE(fit.worst_error_ns, 0.5e-9 * 3.6e12 / 2 + 0.5 + 1e-6);
  EXPECT_NEAR(model::to_double(brute_force_worst(lttng, fit.mapping, line, 1e12Q, 1e12Q + hour)), fit.worst_error_ns,
              1e-6);
}

}  // namespace
}  // namespace tracesync::apply
