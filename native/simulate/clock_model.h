// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <vector>

#include "simulate/host_clock.h"
#include "simulate/simulation_options.h"

namespace tracesync::simulate {

// The rate changes of one host's clock under options.clock_model, drawn
// from the seed, as rate pieces (drift in ppm added to the host's own drift)
// over [start, end) of the experiment:
//   steps:  at times 0.5 to 1.5 --step-interval apart, the rate is redrawn
//           uniformly in [-size/2, size/2], so a step moves it by at most --step-size;
//   slews:  at times 0.5 to 1.5 --slew-interval apart, the clock runs
//           --slew-rate ppm faster or slower (a random sign) for --slew-length;
//   wander: --wander-amplitude * sin(2 pi t / --wander-period + phase), the
//           phase random per host, held constant over each --wander-step (its
//           value at the step's middle): a piecewise-constant rate, which the
//           clock integrates exactly;
//   combined: the sum of the three; linear: nothing.
// The first piece starts at `start`; the result is never empty.
std::vector<HostClock::RatePiece> draw_rate_changes(const SimulationOptions& options, uint32_t host,
                                                    model::Nanoseconds start, model::Nanoseconds end);

// The sum of rate functions given as pieces (each a step function of time,
// 0 before its first piece): a piece wherever any of them changes.
std::vector<HostClock::RatePiece> add_rates(const std::vector<std::vector<HostClock::RatePiece>>& rates);

}  // namespace tracesync::simulate
