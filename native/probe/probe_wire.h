// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <array>
#include <cstdint>
#include <optional>

namespace tracesync::probe {

// One message of the probe protocol, 16 bytes on the wire, each written
// with its own TCP segment (TCP_NODELAY), so that a kernel trace records it
// as one send and one receive:
//   bytes 0-3   "TSPR"
//   byte  4     the protocol version, 1
//   byte  5     the kind (below)
//   bytes 6-7   zero
//   bytes 8-15  the round id, big-endian
// Either end of a connection may start a burst: it sends requests one at a
// time, each answered before the next; `kDone` says the sender will start
// no more requests on this connection (it is stopping).
enum class WireKind : uint8_t {
  kRequest = 0,  // leg 0 of a round
  kAnswer = 1,   // leg 1: the request's round id, sent back
  kDone = 2,
};

struct WireMessage {
  WireKind kind = WireKind::kRequest;
  uint64_t round = 0;
};

inline constexpr std::size_t kWireSize = 16;
inline constexpr uint8_t kWireVersion = 1;

std::array<unsigned char, kWireSize> encode(const WireMessage& message);
// nullopt when the bytes are not a probe message of this version.
std::optional<WireMessage> decode(const unsigned char* bytes);

}  // namespace tracesync::probe
