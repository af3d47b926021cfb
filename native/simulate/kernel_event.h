// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>

#include "model/point.h"

namespace tracesync::simulate {

// The lttng-modules 2.12 kernel events a simulated trace holds.
enum class EventKind : uint8_t {
  kNetDevQueue,       // a segment leaves (send)
  kNetIfReceiveSkb,   // a segment arrives (receive)
  kSchedSwitch,
  kSchedWaking,
  kSchedWakeup,
  kIrqHandlerEntry,
  kIrqHandlerExit,
  kSoftirqRaise,
  kSoftirqEntry,
  kSoftirqExit,
};
inline constexpr int kEventKindCount = 10;

// One event of a host's trace, at a local time on one CPU. What the
// arguments mean depends on the kind:
//   net_*:             a = index of the Transmission
//   sched_switch:      a = previous task, b = next task, value = previous task's state
//   sched_waking/up:   a = woken task, b = target CPU
//   irq_handler_*:     a = index of the IRQ line, value = handler result (exit)
//   softirq_*:         a = softirq vector
// Tasks and IRQ lines index the host's HostProcesses.
struct KernelEvent {
  model::Nanoseconds time = 0;
  uint32_t cpu = 0;
  EventKind kind = EventKind::kSchedSwitch;
  uint32_t a = 0;
  uint32_t b = 0;
  int64_t value = 0;
};

}  // namespace tracesync::simulate
