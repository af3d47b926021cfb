// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <cstdint>

namespace tracesync::cli {

struct HullBenchOptions {
  std::size_t messages = 10'000'000;
  int repeat = 5;
  uint64_t seed = 1;
  bool json = false;
};

// Prints figures; returns 1 only if incremental and batch disagree.
int run_bench_hull(const HullBenchOptions& options);

}  // namespace tracesync::cli
