// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <vector>

#include "hull/link_estimate.h"
#include "hull/link_message.h"
#include "model/quad.h"

namespace tracesync::hull {

// The rate of b's clock against a's jumps by `ppm` at `at_ns` (NTP-like
// frequency correction). Times are relative to the clock's start.
struct RateStep {
  int64_t at_ns = 0;
  double ppm = 0;
};

// The rate is off by `ppm` for `duration_ns` from `at_ns` (chrony-like slew).
struct RateSlew {
  int64_t at_ns = 0;
  int64_t duration_ns = 0;
  double ppm = 0;
};

// The rate wanders as amplitude_ppm * sin(2 pi t / period_ns + phase)
// (temperature).
struct RateWander {
  double amplitude_ppm = 0;
  double period_ns = 3.6e12;
  double phase = 0;
};

// The true relation of a link's two clocks, for tests and benchmarks:
// b(a) = start + offset + t + integral over [0, t] of the rate error, with
// t = a - start and the rate error drift_ppm plus the steps, slews and
// wander in effect. Every term integrates in closed form, so b is known
// at any instant, to a small fraction of a nanosecond.
struct SyntheticClock {
  int64_t start_ns = 1'700'000'000'000'000'000;
  double offset_ns = 3.5e8;
  double drift_ppm = 25;
  std::vector<RateStep> steps;
  std::vector<RateSlew> slews;
  RateWander wander;

  // b's time at a's time a, relative to start_ns (ns).
  long double relative_b_at(int64_t a) const;
  // b's time at a's time a.
  model::Quad b_at(int64_t a) const;
};

// Traffic on a link over a stretch of a's time: messages both ways, one-way
// delays of a minimum plus exponential noise, none inside the quiet spans
// (relative to the clock's start), returned in arrival order. A message's
// ordinate is rounded away from the truth (up for a -> b, down for b -> a),
// so the truth always satisfies every constraint.
struct SyntheticTraffic {
  int64_t duration_ns = 60'000'000'000;
  double mean_gap_ns = 1'000'000;
  double min_delay_ns = 20'000;
  double mean_extra_delay_ns = 40'000;
  std::vector<TimeSpan> quiet;
  uint64_t seed = 1;
};

std::vector<LinkMessage> generate_traffic(const SyntheticClock& clock, const SyntheticTraffic& traffic);

}  // namespace tracesync::hull
