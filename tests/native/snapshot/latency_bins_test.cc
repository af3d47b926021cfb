// SPDX-License-Identifier: EPL-2.0
// The latency histograms' bins against their definition, checked by brute
// force over every bin on random latencies from fractions of a nanosecond to
// hours, both signs.

#include "snapshot/latency_bins.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace tracesync::snapshot::latency {
namespace {

// The bin whose range holds x, found by trying every bin: [low, high) for
// positive bins, (low, high] for negative ones, (-1, 1) for bin 0.
int brute_force_bin(double x) {
  int found = 0, matches = 0;
  for (int bin = -kLastBin; bin <= kLastBin; ++bin) {
    const BinRange r = bin_range(bin);
    const bool in = bin > 0 ? (r.low <= x && x < r.high) : bin < 0 ? (r.low < x && x <= r.high) : (-1 < x && x < 1);
    if (in) found = bin, ++matches;
  }
  EXPECT_EQ(matches, 1) << x << " is in " << matches << " bins";
  return found;
}

TEST(LatencyBins, EveryLatencyIsInExactlyTheBinThatHoldsIt) {
  std::mt19937_64 random(2026);
  std::uniform_real_distribution<double> power(-2, 13.5);  // 10 ps .. 3e13 ns (8 hours)
  for (int i = 0; i < 20000; ++i) {
    const double x = (i % 2 ? -1 : 1) * std::pow(10.0, power(random));
    ASSERT_EQ(bin_of(x), brute_force_bin(x)) << x;
  }
}

TEST(LatencyBins, EdgesArePowersOfTenAtDecadesAndTheBinsTile) {
  EXPECT_EQ(bin_of(0), 0);
  EXPECT_EQ(bin_of(0.999), 0);
  EXPECT_EQ(bin_of(-0.999), 0);
  EXPECT_EQ(bin_of(1), 1);
  EXPECT_EQ(bin_of(-1), -1);
  EXPECT_EQ(bin_of(9.999), 10);
  EXPECT_EQ(bin_of(10), 11);
  EXPECT_EQ(bin_of(1'000), 31);           // 1 us starts the fourth decade
  EXPECT_EQ(bin_of(-1'000'000), -61);     // -1 ms
  EXPECT_EQ(bin_of(999'999'999'999), 120);
  EXPECT_EQ(bin_of(1e12), kLastBin);      // 1,000 s and more
  EXPECT_EQ(bin_of(-1e15), -kLastBin);
  EXPECT_EQ(bin_range(31).low, 1'000);
  EXPECT_EQ(bin_range(-61).high, -1'000'000);
  EXPECT_TRUE(std::isinf(bin_range(kLastBin).high));
  EXPECT_TRUE(std::isinf(bin_range(-kLastBin).low));
  // Each bin begins where the one before it ends, a tenth of a decade on.
  for (int bin = -kLastBin + 1; bin <= kLastBin; ++bin) {
    EXPECT_EQ(bin_range(bin).low, bin_range(bin - 1).high) << bin;
    if (bin > 1 && bin < kLastBin) {
      EXPECT_NEAR(std::log10(bin_range(bin).high / bin_range(bin).low), 0.1, 1e-12) << bin;
    }
    // Symmetric about 0.
    EXPECT_EQ(bin_range(-bin).low, -bin_range(bin).high) << bin;
  }
  EXPECT_TRUE(starts_a_decade(31));
  EXPECT_TRUE(starts_a_decade(-31));
  EXPECT_FALSE(starts_a_decade(32));
  EXPECT_FALSE(starts_a_decade(0));
}

}  // namespace
}  // namespace tracesync::snapshot::latency
