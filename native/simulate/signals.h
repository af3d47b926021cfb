// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <vector>

#include "simulate/experiment.h"
#include "simulate/simulation_options.h"

namespace tracesync::simulate {

// A simultaneous signal (`--signal-rate`, docs/signals.md): a pulse at
// `signal_rate_hz` in true time (a PPS line wired to every host), which each
// host records as an irq_handler_entry of its IRQ line kSignalIrq ("pps"),
// within +-signal_jitter_us of the pulse's true instant (uniform), missing
// each pulse with probability signal_missed, and recording extra pulses of
// its own at random (Poisson, signal_extra_per_s).
inline constexpr int32_t kSignalIrq = 199;
inline constexpr const char* kSignalIrqName = "pps";

struct HostSignals {
  std::vector<model::Nanoseconds> local;  // the host's records, on its own clock, in order
  uint64_t pulses = 0;                    // pulses in the experiment
  uint64_t missed = 0;
  uint64_t extra = 0;
};

// The same for every call with the same options (seeded).
HostSignals draw_signals(const Experiment& experiment, const SimulationOptions& options, uint32_t host);

}  // namespace tracesync::simulate
