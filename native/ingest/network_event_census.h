// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "ingest/network_event_names.h"
#include "match/packet_event.h"

namespace tracesync::ingest {

// What a trace holds of one network event name: whether it was recorded at
// all, whether its payload can give TCP fields, and how its events decoded.
// This is what a user needs to fix a recording (`tracesync check`).
struct NetworkEventTally {
  bool recorded = false;  // an event class of this name is in the trace's metadata
  // What its payload lacks to decode as TCP, in a user's words (for example
  // "no `network_header` ..."); empty when every TCP packet decodes.
  std::string missing;
  uint64_t tcp = 0;          // decoded as TCP segments: the ones matched
  uint64_t not_tcp = 0;      // another transport, or no IP header
  uint64_t undecodable = 0;  // a payload the decoder cannot read

  uint64_t events() const { return tcp + not_tcp + undecodable; }
  // Counts one decoded event (both CTF readers count so).
  void count(match::Layout layout) {
    switch (layout) {
      case match::Layout::kTcp: ++tcp; break;
      case match::Layout::kNonTcp: ++not_tcp; break;
      case match::Layout::kUnknown:
      case match::Layout::kKeyTooLong: ++undecodable; break;  // no TCP key has a length to exceed
    }
  }
  friend bool operator==(const NetworkEventTally&, const NetworkEventTally&) = default;
};

// One tally per name of kNetworkEventNames, in its order.
using NetworkEventCensus = std::array<NetworkEventTally, kNetworkEventNames.size()>;

// The TCP events of one direction, over its names.
inline uint64_t tcp_events(const NetworkEventCensus& census, match::Direction direction) {
  uint64_t sum = 0;
  for (std::size_t i = 0; i < census.size(); ++i) {
    if (kNetworkEventNames[i].direction == direction) sum += census[i].tcp;
  }
  return sum;
}

}  // namespace tracesync::ingest
