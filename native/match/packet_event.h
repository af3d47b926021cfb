// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <array>
#include <cstdint>

#include "model/point.h"

namespace tracesync::match {

// A trace of the experiment, numbered densely in the order it was given.
using TraceIndex = uint32_t;

enum class Direction : uint8_t { kSend, kReceive };

// What the reader could make of a network event's payload.
enum class Layout : uint8_t {
  kTcp,      // a TCP segment: the key fields are set
  kNonTcp,   // another transport, or no IP header at all: not matched
  kUnknown,  // a payload layout the reader cannot decode: not matched
};

// The fields of the default key (Trace Compass's): they identify a segment
// on both of its ends.
struct TcpFields {
  uint32_t seq = 0;
  uint32_t ack_seq = 0;
  uint16_t flags = 0;  // as recorded: 9 bits in lttng-modules 2.9+, a 16-bit word in the 2.1 addons
};

// The extra fields of the strict key.
struct Endpoints {
  uint8_t family = 0;                // 4 or 6; 0 when the event carries no addresses
  std::array<uint8_t, 16> saddr{};   // network byte order; IPv4 in the first 4 bytes
  std::array<uint8_t, 16> daddr{};
  uint16_t source_port = 0;
  uint16_t dest_port = 0;

  bool present() const { return family != 0; }
  friend bool operator==(const Endpoints&, const Endpoints&) = default;
};

// One network send or receive event of a trace, as the matcher needs it.
struct PacketEvent {
  model::Nanoseconds time = 0;  // ns from origin, on the trace's own clock
  TraceIndex trace = 0;
  Direction direction = Direction::kSend;
  Layout layout = Layout::kTcp;
  TcpFields tcp;
  Endpoints endpoints;
};

}  // namespace tracesync::match
