// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

// What a network event class's payload lacks to decode as TCP, in a user's
// words (NetworkEventTally::missing): one place, so that both CTF readers
// (NetworkEventDecoder over babeltrace2's classes, ScannerNetworkPlan over
// ctf::TraceClass) say the same, as the differential test checks.
namespace tracesync::ingest::network_payload_words {

// The TCP key members a flat payload or a `tcp` option must hold, in order.
inline constexpr std::string_view kTcpMembers[] = {"seq", "ack_seq", "flags"};

// "`seq`, `flags`": the TCP key members for which `lacks(name)` is true.
template <typename Lacks>
std::string missing_tcp_members(Lacks lacks) {
  std::string missing;
  for (const std::string_view name : kTcpMembers) {
    if (!lacks(name)) continue;
    missing += (missing.empty() ? "`" : ", `") + std::string(name) + "`";
  }
  return missing;
}

inline std::string no_payload() { return "it has no payload fields"; }
inline std::string network_header_not_a_variant() { return "its `network_header` is not a variant"; }
inline std::string no_ip_option() { return "its `network_header` has no `ipv4` or `ipv6` option"; }

// The words for an IP option of the nested layout: "`network_header.ipv4`".
inline std::string ip_option(uint8_t family) { return family == 4 ? "`network_header.ipv4`" : "`network_header.ipv6`"; }
inline std::string no_usable_address(uint8_t family, std::string_view name) {
  return ip_option(family) + " has no usable `" + std::string(name) +
         "` (an array of 8- or 16-bit integers, or an integer)";
}
inline std::string no_transport_variant(uint8_t family) { return ip_option(family) + " has no `transport_header` variant"; }
inline std::string tcp_option_lacks(uint8_t family, const std::string& members) {
  return ip_option(family) + "'s `transport_header.tcp` lacks " + members;
}
inline std::string no_tcp_option(uint8_t family) { return ip_option(family) + "'s `transport_header` has no `tcp` option"; }

// A flat payload (no `network_header`) that lacks `members` of the 2.1 addons'.
inline std::string flat_payload_lacks(const std::string& members) {
  return members == "`seq`, `ack_seq`, `flags`"
             ? "no TCP header fields: neither `network_header` (lttng-modules 2.9+) nor `seq`, `ack_seq`, `flags` "
               "(the 2.1 addons)"
             : "no `network_header`, and of the 2.1 addons' fields it lacks " + members;
}

}  // namespace tracesync::ingest::network_payload_words
