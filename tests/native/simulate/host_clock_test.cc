// SPDX-License-Identifier: EPL-2.0
#include "simulate/host_clock.h"

#include <gtest/gtest.h>

#include "simulate/random.h"

namespace tracesync::simulate {
namespace {

using model::Nanoseconds;
using model::Quad;

constexpr Nanoseconds kStart = 1'767'225'600'000'000'000;
constexpr Nanoseconds kSecond = 1'000'000'000;

TEST(HostClock, OffsetAndDriftCountFromTheStart) {
  // 50 ppm fast and 1 ms ahead: after one true second the clock shows
  // 1 s + 50 us more, exactly.
  const HostClock clock(kStart, 1'000'000, 50);
  EXPECT_EQ(clock.local_ns(kStart), kStart + 1'000'000);
  EXPECT_EQ(clock.local_ns(kStart + kSecond), kStart + 1'000'000 + kSecond + 50'000);
  EXPECT_EQ(clock.local_ns(kStart + 100 * kSecond), kStart + 1'000'000 + 100 * kSecond + 5'000'000);
  // A negative drift runs slow; times before the start extrapolate.
  const HostClock slow(kStart, -250, -20);
  EXPECT_EQ(slow.local_ns(kStart + 10 * kSecond), kStart - 250 + 10 * kSecond - 200'000);
  EXPECT_EQ(slow.local_ns(kStart - kSecond), kStart - 250 - kSecond + 20'000);
}

TEST(HostClock, ReadingsRoundToTheNearestNanosecond) {
  // 0.25 ppm over 2 ns is 5e-7 ns: invisible. Over 3 s it is 750 ns.
  const HostClock clock(kStart, 0, 0.25);
  EXPECT_EQ(clock.local_ns(kStart + 2), kStart + 2);
  EXPECT_EQ(clock.local_ns(kStart + 3 * kSecond), kStart + 3 * kSecond + 750);
  // 1 ppm over 1'600 ns is 0.0016 ns; over 600'000 ns 0.6 ns, which rounds up.
  const HostClock ppm(kStart, 0, 1);
  EXPECT_EQ(ppm.local_ns(kStart + 1'600), kStart + 1'600);
  EXPECT_EQ(ppm.local_ns(kStart + 600'000), kStart + 600'001);
}

TEST(HostClock, DriftChangeKeepsTheClockContinuous) {
  const Nanoseconds change = kStart + 2 * kSecond;
  const HostClock clock(kStart, 0, 10, change, -30);
  ASSERT_EQ(clock.segments().size(), 2U);
  EXPECT_EQ(clock.local_ns(change), change + 20'000);
  // After the change the clock loses 30 us per second from where it was.
  EXPECT_EQ(clock.local_ns(change + kSecond), change + 20'000 + kSecond - 30'000);
  EXPECT_EQ(clock.local_ns(change - 1), change - 1 + 20'000);
}

// Oracle: t0 = reference(host^-1(t)) evaluated point by point; the
// piecewise transform must agree everywhere, drift changes included.
TEST(HostClock, TransformOntoTheReferenceAgreesWithTheClocks) {
  Random random(42);
  for (int trial = 0; trial < 200; ++trial) {
    const auto change_at = [&](bool has) -> std::optional<Nanoseconds> {
      if (!has) return std::nullopt;
      return kStart + static_cast<Nanoseconds>(random.below(100 * kSecond));
    };
    const HostClock reference(kStart, static_cast<int64_t>(random.below(2'000'000)) - 1'000'000,
                              random.uniform(-100, 100), change_at(random.chance(0.5)), random.uniform(-100, 100));
    const HostClock host(kStart, static_cast<int64_t>(random.below(2'000'000'000)) - 1'000'000'000,
                         random.uniform(-100, 100), change_at(random.chance(0.5)), random.uniform(-100, 100));
    const std::vector<TransformSegment> segments = transform_onto(host, reference);
    ASSERT_GE(segments.size(), 1U);
    ASSERT_LE(segments.size(), 3U);
    EXPECT_EQ(segments.front().from_true_ns, kStart);
    for (int i = 0; i < 20; ++i) {
      const Nanoseconds t = kStart + static_cast<Nanoseconds>(random.below(100 * kSecond));
      // The segment that covers t.
      std::size_t s = 0;
      while (s + 1 < segments.size() && t >= segments[s + 1].from_true_ns) ++s;
      const Quad mapped = segments[s].transform.slope * host.local_exact(t) + segments[s].transform.offset;
      const Quad expected = reference.local_exact(t);
      EXPECT_LT(model::to_double(model::abs(mapped - expected)), 1e-6) << "trial " << trial << " t " << t;
      EXPECT_EQ(segments[s].from_local_ns, host.local_ns(segments[s].from_true_ns));
    }
  }
}

}  // namespace
}  // namespace tracesync::simulate
