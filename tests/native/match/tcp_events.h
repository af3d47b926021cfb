// SPDX-License-Identifier: EPL-2.0
#pragma once

// Hand-made TCP packet events for the matcher tests.

#include "match/packet_event.h"

namespace tracesync::match::testing {

inline PacketEvent tcp(TraceIndex trace, model::Nanoseconds time, Direction direction, uint32_t seq, uint32_t ack = 7,
                       uint16_t flags = 0x10) {
  PacketEvent e;
  e.trace = trace;
  e.time = time;
  e.direction = direction;
  e.tcp = {seq, ack, flags};
  return e;
}
inline PacketEvent send(TraceIndex trace, model::Nanoseconds time, uint32_t seq) {
  return tcp(trace, time, Direction::kSend, seq);
}
inline PacketEvent receive(TraceIndex trace, model::Nanoseconds time, uint32_t seq) {
  return tcp(trace, time, Direction::kReceive, seq);
}

}  // namespace tracesync::match::testing
