// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <queue>
#include <vector>

#include "simulate/experiment.h"
#include "simulate/host_processes.h"
#include "simulate/kernel_event.h"
#include "simulate/random.h"
#include "simulate/traffic.h"

namespace tracesync::simulate {

// The events of one host's trace, produced one at a time in local-time
// order (so each per-CPU stream is sorted): the host's network events from
// the experiment's transmissions, merged with filler activity.
//
// Filler comes in short activities started by a Poisson process over the
// host's traced span, at a rate that gives `filler_ratio` filler events per
// network event on average:
//   - a task is woken and runs a while: sched_waking, sched_wakeup,
//     sched_switch in, sched_switch back to idle;
//   - a device interrupt: irq_handler_entry, softirq_raise, irq_handler_exit,
//     softirq_entry, softirq_exit;
//   - a timer tick: softirq_raise, softirq_entry, softirq_exit (TIMER).
// An activity's events are queued as it starts; a small heap merges them.
class HostTimeline {
 public:
  HostTimeline(const Experiment& experiment, const std::vector<Transmission>& transmissions,
               const SimulationOptions& options, uint32_t host);

  // The next event, false at the end.
  bool next(KernelEvent& event);

  const HostProcesses& processes() const { return processes_; }
  uint64_t network_events() const { return network_.size() - signal_events_; }
  // Network events plus the expected number of filler events.
  uint64_t expected_events() const;

 private:
  struct Queued {
    KernelEvent event;
    uint64_t order;  // ties in time keep queueing order
    bool operator>(const Queued& other) const {
      return event.time != other.event.time ? event.time > other.event.time : order > other.order;
    }
  };

  void start_activity(model::Nanoseconds t);
  void queue(model::Nanoseconds t, uint32_t cpu, EventKind kind, uint32_t a, uint32_t b = 0, int64_t value = 0);
  void wake_and_run(model::Nanoseconds t);
  void device_interrupt(model::Nanoseconds t);
  void timer_tick(model::Nanoseconds t);
  model::Nanoseconds micros(double mean_us);

  uint32_t cpus_;
  HostProcesses processes_;
  Random random_;
  std::vector<KernelEvent> network_;  // sorted by time; with the signal's records (simulate/signals.h)
  uint64_t signal_events_ = 0;
  std::size_t network_next_ = 0;

  std::priority_queue<Queued, std::vector<Queued>, std::greater<>> filler_;
  uint64_t queued_ = 0;
  // Activities start at filler_start_ + activity_clock_ (ns, kept as an
  // offset: a double cannot hold an epoch time to the ns).
  double activity_interval_ns_ = 0;  // mean time between starts; 0: no filler
  double activity_clock_ = 0;
  double filler_span_ = 0;
  model::Nanoseconds filler_start_ = 0;
  std::vector<uint32_t> running_;    // per CPU: the task on it
  double filler_ratio_ = 0;
};

}  // namespace tracesync::simulate
