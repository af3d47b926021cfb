// SPDX-License-Identifier: EPL-2.0
#include "snapshot/latency_bins.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace tracesync::snapshot::latency {
namespace {

constexpr int kEdges = kLastBin;  // 10^(j/10) ns for j = 0 .. 120

// The edges, a decade's power of ten exact (1, 10, ..., 1e12 are doubles).
const std::array<double, kEdges>& edges() {
  static const std::array<double, kEdges> table = [] {
    std::array<double, kEdges> e{};
    double decade = 1;
    for (int j = 0; j < kEdges; ++j) {
      if (j > 0 && j % kBinsPerDecade == 0) decade *= 10;
      e[j] = decade * std::pow(10.0, static_cast<double>(j % kBinsPerDecade) / kBinsPerDecade);
    }
    return e;
  }();
  return table;
}

// The bin of a magnitude: how many edges are at or below it.
int magnitude_bin(double magnitude) {
  const auto& e = edges();
  return static_cast<int>(std::upper_bound(e.begin(), e.end(), magnitude) - e.begin());
}

}  // namespace

int bin_of(double latency_ns) {
  return latency_ns >= 0 ? magnitude_bin(latency_ns) : -magnitude_bin(-latency_ns);
}

BinRange bin_range(int bin) {
  const int k = std::clamp(bin < 0 ? -bin : bin, 0, kLastBin);
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  const double inner = k == 0 ? 0 : edges()[static_cast<std::size_t>(k - 1)];
  const double outer = k == kLastBin ? kInfinity : edges()[static_cast<std::size_t>(k)];
  if (k == 0) return {-1, 1};
  return bin > 0 ? BinRange{inner, outer} : BinRange{-outer, -inner};
}

bool starts_a_decade(int bin) { return bin != 0 && ((bin < 0 ? -bin : bin) - 1) % kBinsPerDecade == 0; }

}  // namespace tracesync::snapshot::latency
