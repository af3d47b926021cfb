// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "match/packet_event.h"

namespace tracesync::match {

// Which fields identify a segment on its two ends (`--match-key`).
enum class KeyKind : uint8_t {
  kTc,      // (seq, ack_seq, flags), as Trace Compass matches TCP
  kStrict,  // those plus (saddr, daddr, source_port, dest_port)
};

std::string_view to_string(KeyKind kind);
std::optional<KeyKind> parse_key_kind(std::string_view text);  // "tc" or "strict"

// The identity of a message: its kind, then for a TCP segment its fields
// (under the strict key an event without addresses, as the lttng-modules 2.1
// addons record none, gets the tc key: it can then only match events that
// have no addresses either), for an application message its AppKey.
// `--match-key` concerns TCP segments only.
struct PacketKey {
  MessageKind kind = kTcpKind;
  TcpFields tcp;        // TCP only
  Endpoints endpoints;  // TCP only; all zero under the tc key
  AppKey app;           // application kinds only
  // TCP only: a segment of tracesync probe's (to or from one of
  // MatchOptions::probe_ports; set by the matcher). A probe segment never
  // matches another one.
  bool probe = false;

  friend bool operator==(const PacketKey& a, const PacketKey& b) {
    return a.kind == b.kind && a.tcp.seq == b.tcp.seq && a.tcp.ack_seq == b.tcp.ack_seq &&
           a.tcp.flags == b.tcp.flags && a.endpoints == b.endpoints && a.app == b.app && a.probe == b.probe;
  }
};

PacketKey make_key(const PacketEvent& event, KeyKind kind);

struct PacketKeyHash {
  std::size_t operator()(const PacketKey& key) const;
};

}  // namespace tracesync::match
