// SPDX-License-Identifier: EPL-2.0
#include "match/packet_key.h"

namespace tracesync::match {

std::string_view to_string(KeyKind kind) { return kind == KeyKind::kTc ? "tc" : "strict"; }

std::optional<KeyKind> parse_key_kind(std::string_view text) {
  if (text == "tc") return KeyKind::kTc;
  if (text == "strict") return KeyKind::kStrict;
  return std::nullopt;
}

PacketKey make_key(const PacketEvent& event, KeyKind kind) {
  PacketKey key;
  key.kind = event.kind;
  if (event.kind != kTcpKind) {
    key.app = event.app;
    return key;
  }
  key.tcp = event.tcp;
  if (kind == KeyKind::kStrict && event.endpoints.present()) key.endpoints = event.endpoints;
  return key;
}

namespace {

// A strong 64-bit mixer (the splitmix64 finalizer): sequence numbers are
// close together, so their low bits alone would cluster.
uint64_t mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

uint64_t load64(const std::array<uint8_t, 16>& bytes, std::size_t at) {
  uint64_t value = 0;
  for (std::size_t i = 0; i < 8; ++i) value |= uint64_t{bytes[at + i]} << (8 * i);
  return value;
}

}  // namespace

std::size_t PacketKeyHash::operator()(const PacketKey& key) const {
  if (key.kind != kTcpKind) {
    uint64_t h = mix((uint64_t{key.kind} << 8) | key.app.size);
    for (std::size_t i = 0; i < key.app.size; ++i) h = mix(h ^ key.app.words[i]);
    return static_cast<std::size_t>(h);
  }
  uint64_t h = mix((uint64_t{key.tcp.seq} << 32) | key.tcp.ack_seq);
  h = mix(h ^ key.tcp.flags);
  const Endpoints& e = key.endpoints;
  if (e.present()) {
    h = mix(h ^ ((uint64_t{e.family} << 32) | (uint64_t{e.source_port} << 16) | e.dest_port));
    h = mix(h ^ load64(e.saddr, 0));
    h = mix(h ^ load64(e.saddr, 8));
    h = mix(h ^ load64(e.daddr, 0));
    h = mix(h ^ load64(e.daddr, 8));
  }
  return static_cast<std::size_t>(h);
}

}  // namespace tracesync::match
