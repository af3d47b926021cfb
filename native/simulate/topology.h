// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <vector>

#include "simulate/simulation_options.h"

namespace tracesync::simulate {

// Two hosts that exchange TCP traffic; a < b.
struct HostPair {
  uint32_t a = 0;
  uint32_t b = 0;
  // Switches a packet crosses between them: 1 except in a fat tree, where
  // the link's delays are scaled by it.
  uint32_t switches = 1;

  friend bool operator==(const HostPair&, const HostPair&) = default;
};

// The links of the chosen topology over options.hosts hosts, sorted by
// (a, b), without duplicates. `random` draws from the seed; every topology
// but `pairs` is connected.
std::vector<HostPair> build_topology(const SimulationOptions& options);

// The number of switch ports k of the fat tree `build_topology` uses.
uint32_t fat_tree_ports(const SimulationOptions& options);

}  // namespace tracesync::simulate
