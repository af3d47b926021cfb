// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "simulate/simulation_options.h"

namespace tracesync::cli {

struct AccuracyBenchOptions {
  std::vector<simulate::ClockModel> models{simulate::ClockModel::kLinear, simulate::ClockModel::kSteps,
                                           simulate::ClockModel::kSlews, simulate::ClockModel::kWander,
                                           simulate::ClockModel::kCombined};
  std::vector<double> durations_s{60, 600, 3600, 21600, 86400};
  uint32_t hosts = 2;
  simulate::Topology topology = simulate::Topology::kChain;
  double max_rate = 200;              // segments per second per link, at most
  uint64_t messages_per_link = 200'000;  // the rate is lowered so that a link sends about this many
  uint64_t seed = 1;
  bool json = false;
};

// `tracesync bench accuracy`: for each clock model and duration, simulates
// an experiment (matches only, no traces), synchronizes it with
// `tracesync sync --matches` under --clock-model piecewise, --clock-model
// linear and --algorithm linreg (each run as a child process of this very
// executable, so the figures are the command's), and checks each report
// against the truth (simulate/truth_check.h): worst true error, largest
// bound and violations per row. A variant the sync command does not know
// (an unknown option) is shown as n/a. Prints the table; returns an exit code.
int run_bench_accuracy(const AccuracyBenchOptions& options);

}  // namespace tracesync::cli
