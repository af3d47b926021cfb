// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <sched.h>

#include <optional>

namespace tracesync::cli {

// Keeps the calling thread, and the threads it starts, on the CPU it runs
// on now, for as long as it lives; then restores the previous affinity.
// Benchmarks use it for single-threaded figures: on a shared 2-core machine
// the scheduler otherwise moves a run between cores, and that alone swung
// the network benchmark's figures by 30 % from one run to the next.
class CpuPin {
 public:
  CpuPin();
  ~CpuPin();
  CpuPin(const CpuPin&) = delete;
  CpuPin& operator=(const CpuPin&) = delete;

  // The CPU pinned to, or nullopt when the system refused.
  std::optional<int> cpu() const { return cpu_; }

 private:
  cpu_set_t previous_{};
  std::optional<int> cpu_;
};

}  // namespace tracesync::cli
