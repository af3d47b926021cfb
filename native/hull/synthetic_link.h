// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <vector>

#include "hull/link_message.h"

namespace tracesync::hull {

// Realistic traffic on one link, for benchmarks and tests: two clocks
// b = a * (1 + drift) + offset, messages both ways with one-way delays of a
// minimum plus exponential noise, returned in arrival order.
struct SyntheticLink {
  double drift_ppm = 25;
  double offset_ns = 3.5e8;
  double min_delay_ns = 20'000;
  double mean_extra_delay_ns = 40'000;
  double mean_gap_ns = 100'000;  // between consecutive messages
  int64_t start_ns = 1'700'000'000'000'000'000;
  uint64_t seed = 1;
};

std::vector<LinkMessage> generate_messages(const SyntheticLink& link, std::size_t count);

}  // namespace tracesync::hull
