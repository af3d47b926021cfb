// SPDX-License-Identifier: EPL-2.0
#pragma once

// Random message sets for the property tests and benchmarks.

#include <cstdint>
#include <random>
#include <vector>

#include "hull/link_message.h"

namespace tracesync::hull::generate {

// Two real clocks: b = a * (1 + drift) + offset, one-way delays of a
// minimum plus exponential noise, traffic both ways.
struct ClockPair {
  double drift_ppm = 25;
  double offset_ns = 3.5e8;
  double min_delay_ns = 20'000;
  double mean_extra_delay_ns = 40'000;
  int64_t start_ns = 1'700'000'000'000'000'000;
  double mean_gap_ns = 100'000;  // between consecutive messages
};

inline std::vector<LinkMessage> clock_pair(std::size_t n, uint64_t seed, const ClockPair& c = {}) {
  std::mt19937_64 rng(seed);
  std::exponential_distribution<double> extra(1.0 / c.mean_extra_delay_ns);
  std::exponential_distribution<double> gap(1.0 / c.mean_gap_ns);
  std::bernoulli_distribution a_sends(0.5);
  const long double slope = 1.0L + c.drift_ppm * 1e-6L;
  auto b_of = [&](long double a) { return static_cast<int64_t>(a * slope + c.offset_ns); };
  std::vector<LinkMessage> out;
  out.reserve(n);
  long double a_time = static_cast<long double>(c.start_ns);
  for (std::size_t i = 0; i < n; ++i) {
    a_time += gap(rng);
    const long double delay = c.min_delay_ns + extra(rng);
    if (a_sends(rng)) {
      out.push_back(LinkMessage::a_to_b(static_cast<int64_t>(a_time), b_of(a_time + delay)));
    } else {
      out.push_back(LinkMessage::b_to_a(b_of(a_time), static_cast<int64_t>(a_time + delay)));
    }
  }
  return out;
}

// Points on a small integer grid: collinear triples, shared abscissae,
// duplicates and contradictions all happen often.
inline std::vector<LinkMessage> grid(std::size_t n, uint64_t seed, int64_t size, int64_t origin = 0) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int64_t> coordinate(0, size);
  std::bernoulli_distribution lower(0.5);
  std::vector<LinkMessage> out;
  for (std::size_t i = 0; i < n; ++i) {
    const model::Point p{origin + coordinate(rng), origin + coordinate(rng)};
    out.push_back({lower(rng) ? Direction::kAtoB : Direction::kBtoA, p});
  }
  return out;
}

// Lower points on or above and upper points on or below y = 2x + 5:
// mostly consistent, collinear runs, an occasional contradiction.
inline std::vector<LinkMessage> near_line(std::size_t n, uint64_t seed, int64_t origin = 0) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int64_t> x_of(0, 200);
  std::uniform_int_distribution<int64_t> jitter(-1, 3);
  std::bernoulli_distribution lower(0.5);
  std::vector<LinkMessage> out;
  for (std::size_t i = 0; i < n; ++i) {
    const int64_t x = x_of(rng);
    const int64_t on_line = 2 * x + 5;
    const bool is_lower = lower(rng);
    const int64_t y = is_lower ? on_line + jitter(rng) : on_line - jitter(rng);
    out.push_back({is_lower ? Direction::kAtoB : Direction::kBtoA, {origin + x, origin + y}});
  }
  return out;
}

}  // namespace tracesync::hull::generate
