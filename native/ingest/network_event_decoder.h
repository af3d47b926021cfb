// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <babeltrace2/babeltrace.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "match/packet_event.h"

namespace tracesync::ingest {

// Whether an event class of this name records a network send or receive
// (DESIGN.md, "Matching"): the lttng-modules 2.1 addons' inet_sock_local_out
// and inet_sock_local_in; lttng-modules 2.9+'s net_dev_queue,
// net_if_receive_skb and the kernel's name for it, netif_receive_skb.
std::optional<match::Direction> network_direction(std::string_view event_class_name);

// How to decode the payload of one network event class, worked out once per
// class so that each event costs a few indexed field lookups.
//
// Two payload layouts are known:
//   - flat (lttng-modules 2.1 addons): seq, ack_seq and flags are payload
//     members; addresses and ports too when present (the addons have none);
//   - nested (lttng-modules 2.9 .. 2.13+): a `network_header` variant whose
//     ipv4 / ipv6 options hold saddr, daddr and a `transport_header` variant
//     whose tcp option holds source_port, dest_port, seq, ack_seq and flags.
//     2.9 and 2.10 select the transport by the IP protocol number, 2.11+ by
//     a `transport_header_type` member; 2.13 adds udp and icmp options. Only
//     the option names matter here, so all of them decode alike.
// Addresses may be byte arrays (IPv4: 4 x 8 bits), 16-bit word arrays
// (IPv6: 8 x 16 bits) or plain integers; all become network-order bytes.
// Member names are compared without one leading underscore (CTF 1.8 TSDL
// writes `_seq` for `seq`).
//
// A payload that fits neither layout decodes as Layout::kUnknown; a packet
// that is not IP, or whose transport is not TCP, as Layout::kNonTcp.
class NetworkEventDecoder {
 public:
  // nullopt when `event_class` is not a network event class.
  static std::optional<NetworkEventDecoder> for_class(const bt_event_class* event_class);

  match::Direction direction() const { return direction_; }
  // Its event name's place in kNetworkEventNames.
  std::size_t name_index() const { return name_index_; }
  // What its payload lacks to decode TCP packets, in a user's words; empty
  // when nothing is lacking (NetworkEventTally::missing).
  const std::string& missing() const { return missing_; }

  // Sets out.layout, out.tcp and, when `endpoints`, out.endpoints from the
  // event's payload.
  void decode(const bt_event* event, match::PacketEvent& out, bool endpoints = true) const;

 private:
  struct IntegerMember {
    uint64_t index = 0;
    bool is_signed = false;
  };
  struct TcpPlan {
    IntegerMember seq, ack_seq, flags;
    std::optional<IntegerMember> source_port, dest_port;
  };
  struct AddressPlan {
    uint64_t index = 0;
    bool is_array = false;
    unsigned element_bits = 0;  // of an array element, or of the integer
  };
  // What one option of a variant (network or transport header) holds.
  enum class Content : uint8_t { kNotTcp, kUndecodable, kTcp, kIp };
  struct TransportOption {
    Content content = Content::kNotTcp;
    TcpPlan tcp;
  };
  struct NetworkOption {
    Content content = Content::kNotTcp;
    uint8_t family = 0;
    std::optional<AddressPlan> saddr, daddr;
    uint64_t transport_index = 0;
    std::vector<TransportOption> transport_options;
  };
  enum class Form : uint8_t { kUndecodable, kFlat, kNested };

  static std::optional<TcpPlan> plan_tcp(const bt_field_class* structure);
  static std::string missing_tcp_members(const bt_field_class* structure);
  // nullopt, with `missing` said, when the option cannot decode at all;
  // `missing` may be said of an option that decodes in part, too.
  static std::optional<NetworkOption> plan_ip(const bt_field_class* structure, uint8_t family, std::string& missing);
  static void read_tcp(const bt_field* structure, const TcpPlan& plan, match::TcpFields& out);
  static void read_ports(const bt_field* structure, const TcpPlan& plan, match::Endpoints& endpoints);
  static void read_address(const bt_field* structure, const AddressPlan& plan, std::array<uint8_t, 16>& out);

  std::size_t name_index_ = 0;
  match::Direction direction_ = match::Direction::kSend;
  std::string missing_;
  Form form_ = Form::kUndecodable;
  // kFlat
  TcpPlan flat_tcp_;
  std::optional<AddressPlan> flat_saddr_, flat_daddr_;
  // kNested
  uint64_t network_header_index_ = 0;
  std::vector<NetworkOption> network_options_;
};

}  // namespace tracesync::ingest
