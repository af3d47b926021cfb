// SPDX-License-Identifier: EPL-2.0
#include "simulate/host_timeline.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "simulate/signals.h"

namespace tracesync::simulate {
namespace {

using model::Nanoseconds;

// The mix of filler activities and how many events each makes.
constexpr double kWakeShare = 0.45;       // 4 events
constexpr double kInterruptShare = 0.35;  // 5 events
constexpr double kTickShare = 0.20;       // 3 events
constexpr double kEventsPerActivity = kWakeShare * 4 + kInterruptShare * 5 + kTickShare * 3;

// sched_switch prev_state values (the kernel's task state bits).
constexpr int64_t kTaskRunning = 0;
constexpr int64_t kTaskInterruptible = 1;
constexpr int64_t kIrqHandled = 1;

}  // namespace

HostTimeline::HostTimeline(const Experiment& experiment, const std::vector<Transmission>& transmissions,
                           const SimulationOptions& options, uint32_t host)
    : cpus_(options.cpus_per_host),
      processes_(make_host_processes(options.seed, host, options.cpus_per_host)),
      random_(Random::stream(options.seed, "timeline", host)),
      running_(processes_.idle_task),
      filler_ratio_(options.filler_ratio) {
  for (uint32_t i = 0; i < transmissions.size(); ++i) {
    const Transmission& m = transmissions[i];
    if (m.sender == host) {
      // Sent from whatever CPU the sending thread runs on.
      network_.push_back({m.local_send, static_cast<uint32_t>(random_.below(cpus_)), EventKind::kNetDevQueue, i});
    }
    if (m.receiver == host && !m.lost) {
      // Received on the CPU the NIC steers the connection to.
      const auto cpu = static_cast<uint32_t>((m.link * 2654435761ULL >> 8) % cpus_);
      network_.push_back({m.local_receive, cpu, EventKind::kNetIfReceiveSkb, i});
    }
  }
  std::stable_sort(network_.begin(), network_.end(),
                   [](const KernelEvent& x, const KernelEvent& y) { return x.time < y.time; });

  const SimulatedHost& self = experiment.hosts[host];
  const uint64_t filler_base = network_.size();  // filler is in proportion to the network events, not the signal
  if (options.signal_rate_hz > 0) {
    // The signal's own IRQ line, before the disk (the last line).
    const auto line = static_cast<uint32_t>(processes_.irqs.size() - 1);
    processes_.irqs.insert(processes_.irqs.begin() + line, IrqLine{kSignalIrq, kSignalIrqName, kSoftirqTimer});
    for (const Nanoseconds t : draw_signals(experiment, options, host).local) {
      network_.push_back({t, 0, EventKind::kIrqHandlerEntry, line});
      ++signal_events_;
    }
    std::stable_sort(network_.begin(), network_.end(),
                     [](const KernelEvent& x, const KernelEvent& y) { return x.time < y.time; });
  }
  filler_start_ = self.clock.local_ns(experiment.start_ns);
  filler_span_ = static_cast<double>(self.clock.local_ns(experiment.end_ns) - filler_start_);
  const double filler_events = filler_ratio_ * static_cast<double>(filler_base);
  if (filler_events > 0 && filler_span_ > 0) {
    activity_interval_ns_ = filler_span_ * kEventsPerActivity / filler_events;
    activity_clock_ = random_.exponential(activity_interval_ns_);
  }
}

uint64_t HostTimeline::expected_events() const {
  const uint64_t network = network_.size() - signal_events_;
  return network_.size() + static_cast<uint64_t>(std::llround(filler_ratio_ * static_cast<double>(network)));
}

bool HostTimeline::next(KernelEvent& event) {
  while (true) {
    const bool have_network = network_next_ < network_.size();
    Nanoseconds earliest = std::numeric_limits<Nanoseconds>::max();
    if (have_network) earliest = network_[network_next_].time;
    if (!filler_.empty()) earliest = std::min(earliest, filler_.top().event.time);

    // Start every activity that begins before the earliest queued event:
    // its events can come first.
    if (activity_interval_ns_ > 0 && activity_clock_ < filler_span_) {
      const Nanoseconds start = filler_start_ + static_cast<Nanoseconds>(activity_clock_);
      if (start <= earliest) {
        start_activity(start);
        activity_clock_ += random_.exponential(activity_interval_ns_);
        continue;
      }
    }
    if (earliest == std::numeric_limits<Nanoseconds>::max()) return false;
    if (have_network && (filler_.empty() || network_[network_next_].time <= filler_.top().event.time)) {
      event = network_[network_next_++];
    } else {
      event = filler_.top().event;
      filler_.pop();
    }
    return true;
  }
}

void HostTimeline::queue(Nanoseconds t, uint32_t cpu, EventKind kind, uint32_t a, uint32_t b, int64_t value) {
  filler_.push({{t, cpu, kind, a, b, value}, queued_++});
}

Nanoseconds HostTimeline::micros(double mean_us) {
  return 100 + static_cast<Nanoseconds>(std::llround(random_.exponential(mean_us * 1e3)));
}

void HostTimeline::start_activity(Nanoseconds t) {
  const double pick = random_.uniform();
  if (pick < kWakeShare) {
    wake_and_run(t);
  } else if (pick < kWakeShare + kInterruptShare) {
    device_interrupt(t);
  } else {
    timer_tick(t);
  }
}

void HostTimeline::wake_and_run(Nanoseconds t) {
  const auto cpu = static_cast<uint32_t>(random_.below(cpus_));
  const auto waker_cpu = static_cast<uint32_t>(random_.below(cpus_));
  const uint32_t task = processes_.wakeable[random_.below(processes_.wakeable.size())];
  const uint32_t idle = processes_.idle_task[cpu];
  const uint32_t previous = running_[cpu];
  queue(t, waker_cpu, EventKind::kSchedWaking, task, cpu);
  t += micros(2);
  queue(t, cpu, EventKind::kSchedWakeup, task, cpu);
  t += micros(5);
  queue(t, cpu, EventKind::kSchedSwitch, previous, task, previous == idle ? kTaskRunning : kTaskInterruptible);
  t += micros(80);
  queue(t, cpu, EventKind::kSchedSwitch, task, idle, kTaskInterruptible);
  running_[cpu] = idle;
}

void HostTimeline::device_interrupt(Nanoseconds t) {
  const auto cpu = static_cast<uint32_t>(random_.below(cpus_));
  // Mostly this CPU's NIC queue, sometimes the disk (the last line).
  const auto line = static_cast<uint32_t>(random_.chance(0.9) ? cpu : processes_.irqs.size() - 1);
  const uint32_t softirq = processes_.irqs[line].softirq;
  queue(t, cpu, EventKind::kIrqHandlerEntry, line);
  t += micros(0.5);
  queue(t, cpu, EventKind::kSoftirqRaise, softirq);
  t += micros(1);
  queue(t, cpu, EventKind::kIrqHandlerExit, line, 0, kIrqHandled);
  t += micros(0.5);
  queue(t, cpu, EventKind::kSoftirqEntry, softirq);
  t += micros(10);
  queue(t, cpu, EventKind::kSoftirqExit, softirq);
}

void HostTimeline::timer_tick(Nanoseconds t) {
  const auto cpu = static_cast<uint32_t>(random_.below(cpus_));
  queue(t, cpu, EventKind::kSoftirqRaise, kSoftirqTimer);
  t += micros(0.3);
  queue(t, cpu, EventKind::kSoftirqEntry, kSoftirqTimer);
  t += micros(3);
  queue(t, cpu, EventKind::kSoftirqExit, kSoftirqTimer);
}

}  // namespace tracesync::simulate
