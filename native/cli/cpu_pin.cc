// SPDX-License-Identifier: EPL-2.0
#include "cli/cpu_pin.h"

namespace tracesync::cli {

CpuPin::CpuPin() {
  if (sched_getaffinity(0, sizeof previous_, &previous_) != 0) return;
  const int cpu = sched_getcpu();
  if (cpu < 0) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  if (sched_setaffinity(0, sizeof one, &one) == 0) cpu_ = cpu;
}

CpuPin::~CpuPin() {
  if (cpu_) sched_setaffinity(0, sizeof previous_, &previous_);
}

}  // namespace tracesync::cli
