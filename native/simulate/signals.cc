// SPDX-License-Identifier: EPL-2.0
#include "simulate/signals.h"

#include <algorithm>
#include <cmath>

#include "simulate/random.h"

namespace tracesync::simulate {

HostSignals draw_signals(const Experiment& experiment, const SimulationOptions& options, uint32_t host) {
  HostSignals out;
  if (options.signal_rate_hz <= 0) return out;
  const SimulatedHost& self = experiment.hosts[host];
  const double period = 1e9 / options.signal_rate_hz;
  const double span = static_cast<double>(experiment.end_ns - experiment.start_ns);
  // Every host sees the same pulses: their phase is the experiment's.
  Random phase = Random::stream(options.seed, "signal-phase");
  const double first = phase.uniform(0, period);
  Random random = Random::stream(options.seed, "signal", host);
  const double jitter = options.signal_jitter_us * 1e3;
  for (double at = first; at < span; at += period) {
    ++out.pulses;
    const bool missed = options.signal_missed > 0 && random.chance(options.signal_missed);
    const double error = jitter > 0 ? random.uniform(-jitter, jitter) : 0.0;  // drawn either way: misses change no other draw
    if (missed) {
      ++out.missed;
      continue;
    }
    const auto true_ns = experiment.start_ns + static_cast<model::Nanoseconds>(std::llround(at + error));
    out.local.push_back(self.clock.local_ns(true_ns));
  }
  if (options.signal_extra_per_s > 0) {
    Random extra = Random::stream(options.seed, "signal-extra", host);
    for (double at = extra.exponential(1e9 / options.signal_extra_per_s); at < span;
         at += extra.exponential(1e9 / options.signal_extra_per_s)) {
      ++out.extra;
      out.local.push_back(self.clock.local_ns(experiment.start_ns + static_cast<model::Nanoseconds>(std::llround(at))));
    }
    std::sort(out.local.begin(), out.local.end());
  }
  return out;
}

}  // namespace tracesync::simulate
