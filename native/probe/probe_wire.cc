// SPDX-License-Identifier: EPL-2.0
#include "probe/probe_wire.h"

namespace tracesync::probe {

namespace {
constexpr unsigned char kMagic[4] = {'T', 'S', 'P', 'R'};
}

std::array<unsigned char, kWireSize> encode(const WireMessage& message) {
  std::array<unsigned char, kWireSize> bytes{};
  for (int i = 0; i < 4; ++i) bytes[i] = kMagic[i];
  bytes[4] = kWireVersion;
  bytes[5] = static_cast<unsigned char>(message.kind);
  for (int i = 0; i < 8; ++i) bytes[8 + i] = static_cast<unsigned char>(message.round >> (56 - 8 * i));
  return bytes;
}

std::optional<WireMessage> decode(const unsigned char* bytes) {
  for (int i = 0; i < 4; ++i) {
    if (bytes[i] != kMagic[i]) return std::nullopt;
  }
  if (bytes[4] != kWireVersion || bytes[5] > static_cast<unsigned char>(WireKind::kDone) || bytes[6] != 0 ||
      bytes[7] != 0) {
    return std::nullopt;
  }
  WireMessage message;
  message.kind = static_cast<WireKind>(bytes[5]);
  for (int i = 0; i < 8; ++i) message.round = (message.round << 8) | bytes[8 + i];
  return message;
}

}  // namespace tracesync::probe
