// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/point.h"
#include "simulate/host_clock.h"
#include "simulate/simulation_options.h"
#include "simulate/topology.h"

namespace tracesync::simulate {

using Uuid = std::array<uint8_t, 16>;

// "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", lower case.
std::string to_string(const Uuid& uuid);

// One traced computer.
struct SimulatedHost {
  uint32_t index = 0;
  std::string name;  // hostname, also its output directory
  HostClock clock;
  Uuid boot_id{};    // the clock class UUID: LTTng writes the boot id, so it is the clock domain
  Uuid trace_uuid{};
  // Epoch time of the clock's zero (its boot): CTF event clock values are
  // local time minus this, and it is the clock class offset.
  model::Nanoseconds boot_epoch_ns = 0;
  std::array<uint8_t, 4> ipv4{};
  std::array<uint16_t, 8> ipv6{};
  // True-time intervals [begin, end) when the host is loaded, sorted and disjoint.
  std::vector<std::pair<model::Nanoseconds, model::Nanoseconds>> load_episodes;

  bool loaded_at(model::Nanoseconds true_ns) const;
};

// The one-way delay of a direction: min + Exp(mean), in ns.
struct DelayModel {
  double min_ns = 0;
  double mean_ns = 0;
};

// One TCP connection between two hosts: a is the client, b the server.
struct SimulatedLink {
  HostPair hosts;
  bool ipv6 = false;
  DelayModel a_to_b;
  DelayModel b_to_a;
  uint16_t client_port = 0;
  uint16_t server_port = 0;
};

// The fixed part of an experiment: who is there, their clocks and who talks
// with whom. Everything is drawn from the options' seed.
struct Experiment {
  model::Nanoseconds start_ns = 0;  // true time
  model::Nanoseconds end_ns = 0;
  std::vector<SimulatedHost> hosts;
  std::vector<SimulatedLink> links;
  // True-time intervals [begin, end) in which no exchange starts (--gap).
  std::vector<std::pair<model::Nanoseconds, model::Nanoseconds>> gaps;
};

// Throws SimulationError when a --link-delay names hosts that do not talk.
Experiment build_experiment(const SimulationOptions& options);

}  // namespace tracesync::simulate
