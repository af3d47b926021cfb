// SPDX-License-Identifier: EPL-2.0
#include "simulate/clock_model.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "simulate/random.h"

namespace tracesync::simulate {
namespace {

using model::Nanoseconds;
using RatePieces = std::vector<HostClock::RatePiece>;

constexpr double kNsPerS = 1e9;

Nanoseconds ns(double seconds) { return static_cast<Nanoseconds>(std::llround(seconds * kNsPerS)); }

RatePieces steps(const SimulationOptions& o, Random& random, Nanoseconds start, Nanoseconds end) {
  RatePieces out{{start, random.uniform(-o.step_size_ppm / 2, o.step_size_ppm / 2)}};
  for (Nanoseconds t = start + ns(o.step_interval_s * random.uniform(0.5, 1.5)); t < end;
       t += ns(o.step_interval_s * random.uniform(0.5, 1.5))) {
    out.push_back({t, random.uniform(-o.step_size_ppm / 2, o.step_size_ppm / 2)});
  }
  return out;
}

RatePieces slews(const SimulationOptions& o, Random& random, Nanoseconds start, Nanoseconds end) {
  RatePieces out{{start, 0}};
  // The first slew comes anywhere in the first interval; validate() keeps
  // consecutive slews apart.
  for (Nanoseconds t = start + ns(o.slew_interval_s * random.uniform(0, 1)); t < end;
       t += ns(o.slew_interval_s * random.uniform(0.5, 1.5))) {
    const double sign = random.chance(0.5) ? 1 : -1;
    out.push_back({t, sign * o.slew_rate_ppm});
    out.push_back({t + ns(o.slew_length_s), 0});
  }
  return out;
}

RatePieces wander(const SimulationOptions& o, Random& random, Nanoseconds start, Nanoseconds end) {
  const double phase = random.uniform(0, 2 * std::numbers::pi);
  RatePieces out;
  const Nanoseconds step = std::max<Nanoseconds>(1, ns(o.wander_step_s));
  for (Nanoseconds t = start; t == start || t < end; t += step) {
    const double middle_s = (static_cast<double>(t - start) + static_cast<double>(step) / 2) / kNsPerS;
    out.push_back({t, o.wander_ppm * std::sin(2 * std::numbers::pi * middle_s / o.wander_period_s + phase)});
  }
  return out;
}

}  // namespace

RatePieces add_rates(const std::vector<RatePieces>& rates) {
  std::vector<Nanoseconds> times;
  for (const auto& r : rates) {
    for (const auto& piece : r) times.push_back(piece.from_true_ns);
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  // One cursor per function, advanced as time goes on.
  std::vector<std::size_t> next(rates.size(), 0);
  std::vector<double> value(rates.size(), 0);
  RatePieces out;
  for (const Nanoseconds t : times) {
    double sum = 0;
    for (std::size_t i = 0; i < rates.size(); ++i) {
      while (next[i] < rates[i].size() && rates[i][next[i]].from_true_ns <= t) value[i] = rates[i][next[i]++].drift_ppm;
      sum += value[i];
    }
    out.push_back({t, sum});
  }
  return out;
}

RatePieces draw_rate_changes(const SimulationOptions& o, uint32_t host, Nanoseconds start, Nanoseconds end) {
  const bool with_steps = o.clock_model == ClockModel::kSteps || o.clock_model == ClockModel::kCombined;
  const bool with_slews = o.clock_model == ClockModel::kSlews || o.clock_model == ClockModel::kCombined;
  const bool with_wander = o.clock_model == ClockModel::kWander || o.clock_model == ClockModel::kCombined;
  // Each kind draws from its own stream: adding slews leaves the steps as they were.
  std::vector<RatePieces> parts{RatePieces{HostClock::RatePiece{start, 0}}};
  if (with_steps) {
    Random random = Random::stream(o.seed, "clock-steps", host);
    parts.push_back(steps(o, random, start, end));
  }
  if (with_slews) {
    Random random = Random::stream(o.seed, "clock-slews", host);
    parts.push_back(slews(o, random, start, end));
  }
  if (with_wander) {
    Random random = Random::stream(o.seed, "clock-wander", host);
    parts.push_back(wander(o, random, start, end));
  }
  return add_rates(parts);
}

}  // namespace tracesync::simulate
