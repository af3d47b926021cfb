// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>

namespace tracesync::snapshot::latency {

// The bins of the one-way latency histograms (LatencyProof in
// tracesync.proto, drawn by the HTML report): symmetric and logarithmic,
// so that one axis reads nanoseconds and seconds, and receive-before-send
// (negative latencies) as well as ordinary messages.
//
//   bin 0          |latency| < 1 ns
//   bin k, 1..120  10^((k-1)/10) <= latency < 10^(k/10) ns: ten bins a
//                  decade, from 1 ns up to 1,000 s
//   bin 121        latency >= 1,000 s
//   bin -k         mirrors bin k: -10^(k/10) < latency <= -10^((k-1)/10)
//
// A latency is binned by its nearest double (the edges are doubles).
constexpr int kBinsPerDecade = 10;
constexpr int kLastBin = 121;
constexpr int kBinCount = 2 * kLastBin + 1;

int bin_of(double latency_ns);

// A bin's ends, in ns: `low` < every latency of the bin's, or equal for a
// positive bin; `high` > every one, or equal for a negative bin. The outer
// bins reach to infinity.
struct BinRange {
  double low;
  double high;
};
BinRange bin_range(int bin);

// Whether the bin's lower end is a power of ten of nanoseconds (1 ns, 10 ns,
// ... on the positive side, the upper end on the negative side): where an
// axis puts its ticks.
bool starts_a_decade(int bin);

}  // namespace tracesync::snapshot::latency
