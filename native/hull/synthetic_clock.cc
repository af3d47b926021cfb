// SPDX-License-Identifier: EPL-2.0
#include "hull/synthetic_clock.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

namespace tracesync::hull {

long double SyntheticClock::relative_b_at(int64_t a) const {
  const auto t = static_cast<long double>(a - start_ns);
  long double error_ppm_ns = drift_ppm * t;  // ppm * ns
  for (const RateStep& s : steps) error_ppm_ns += s.ppm * std::max(0.0L, t - static_cast<long double>(s.at_ns));
  for (const RateSlew& s : slews) {
    const long double inside = std::clamp(t - static_cast<long double>(s.at_ns), 0.0L,
                                          static_cast<long double>(s.duration_ns));
    error_ppm_ns += s.ppm * inside;
  }
  if (wander.amplitude_ppm != 0) {
    const long double w = 2 * std::numbers::pi_v<long double> / wander.period_ns;
    error_ppm_ns += wander.amplitude_ppm / w * (std::cos(static_cast<long double>(wander.phase)) -
                                                std::cos(w * t + wander.phase));
  }
  return offset_ns + t + error_ppm_ns * 1e-6L;
}

model::Quad SyntheticClock::b_at(int64_t a) const {
  return static_cast<model::Quad>(start_ns) + static_cast<model::Quad>(relative_b_at(a));
}

std::vector<LinkMessage> generate_traffic(const SyntheticClock& clock, const SyntheticTraffic& traffic) {
  std::mt19937_64 rng(traffic.seed);
  std::exponential_distribution<double> extra(1.0 / traffic.mean_extra_delay_ns);
  std::exponential_distribution<double> gap(1.0 / traffic.mean_gap_ns);
  std::bernoulli_distribution a_sends(0.5);
  auto quiet = [&](int64_t t) {
    return std::any_of(traffic.quiet.begin(), traffic.quiet.end(),
                       [&](const TimeSpan& q) { return t >= q.first && t <= q.last; });
  };
  auto b_up = [&](int64_t a) { return clock.start_ns + static_cast<int64_t>(std::ceil(clock.relative_b_at(a))); };
  auto b_down = [&](int64_t a) { return clock.start_ns + static_cast<int64_t>(std::floor(clock.relative_b_at(a))); };
  struct Arrival {
    int64_t at;  // on a's clock
    LinkMessage message;
  };
  std::vector<Arrival> arrivals;
  for (int64_t t = static_cast<int64_t>(gap(rng)) + 1; t < traffic.duration_ns; t += static_cast<int64_t>(gap(rng)) + 1) {
    const auto delay = static_cast<int64_t>(traffic.min_delay_ns + extra(rng));
    const bool a_to_b = a_sends(rng);
    if (quiet(t) || quiet(t + delay)) continue;
    const int64_t a_time = clock.start_ns + t;
    if (a_to_b) {
      arrivals.push_back({a_time + delay, LinkMessage::a_to_b(a_time, b_up(a_time + delay))});
    } else {
      arrivals.push_back({a_time + delay, LinkMessage::b_to_a(b_down(a_time), a_time + delay)});
    }
  }
  std::stable_sort(arrivals.begin(), arrivals.end(), [](const Arrival& x, const Arrival& y) { return x.at < y.at; });
  std::vector<LinkMessage> out;
  out.reserve(arrivals.size());
  for (const Arrival& a : arrivals) out.push_back(a.message);
  return out;
}

}  // namespace tracesync::hull
