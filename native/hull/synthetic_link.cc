// SPDX-License-Identifier: EPL-2.0
#include "hull/synthetic_link.h"

#include <algorithm>
#include <random>

namespace tracesync::hull {

std::vector<LinkMessage> generate_messages(const SyntheticLink& c, std::size_t count) {
  std::mt19937_64 rng(c.seed);
  std::exponential_distribution<double> extra(1.0 / c.mean_extra_delay_ns);
  std::exponential_distribution<double> gap(1.0 / c.mean_gap_ns);
  std::bernoulli_distribution a_sends(0.5);
  // True time runs on a's clock, kept as an integer so that 1.7e18 keeps its nanoseconds.
  const long double slope = 1.0L + static_cast<long double>(c.drift_ppm) * 1e-6L;
  auto on_b = [&](int64_t a_time) {
    return static_cast<int64_t>(static_cast<long double>(a_time - c.start_ns) * slope) + c.start_ns +
           static_cast<int64_t>(c.offset_ns);
  };
  struct Arrival {
    int64_t at;  // arrival time on a's clock
    LinkMessage message;
  };
  std::vector<Arrival> arrivals;
  arrivals.reserve(count);
  int64_t a_time = c.start_ns;
  for (std::size_t i = 0; i < count; ++i) {
    a_time += static_cast<int64_t>(gap(rng)) + 1;
    const auto delay = static_cast<int64_t>(c.min_delay_ns + extra(rng));
    if (a_sends(rng)) {
      arrivals.push_back({a_time + delay, LinkMessage::a_to_b(a_time, on_b(a_time + delay))});
    } else {
      arrivals.push_back({a_time + delay, LinkMessage::b_to_a(on_b(a_time), a_time + delay)});
    }
  }
  std::stable_sort(arrivals.begin(), arrivals.end(), [](const Arrival& x, const Arrival& y) { return x.at < y.at; });
  std::vector<LinkMessage> out;
  out.reserve(count);
  for (const Arrival& a : arrivals) out.push_back(a.message);
  return out;
}

}  // namespace tracesync::hull
