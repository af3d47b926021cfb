// SPDX-License-Identifier: EPL-2.0
#include "ingest/network_event_decoder.h"

#include "ingest/network_payload_words.h"

#include <string>

#include "ingest/network_event_names.h"

namespace tracesync::ingest {

namespace words = network_payload_words;

namespace {

using match::Direction;
using match::Layout;

std::string_view bare(const char* name) {
  std::string_view text = name == nullptr ? std::string_view() : std::string_view(name);
  if (!text.empty() && text.front() == '_') text.remove_prefix(1);
  return text;
}

bool is_type(const bt_field_class* field_class, bt_field_class_type type) {
  return field_class != nullptr && bt_field_class_type_is(bt_field_class_get_type(field_class), type);
}

// The member of `structure` named `name` (leading underscores aside).
std::optional<uint64_t> member_index(const bt_field_class* structure, std::string_view name) {
  if (!is_type(structure, BT_FIELD_CLASS_TYPE_STRUCTURE)) return std::nullopt;
  const uint64_t count = bt_field_class_structure_get_member_count(structure);
  for (uint64_t i = 0; i < count; ++i) {
    const auto* member = bt_field_class_structure_borrow_member_by_index_const(structure, i);
    if (bare(bt_field_class_structure_member_get_name(member)) == name) return i;
  }
  return std::nullopt;
}

const bt_field_class* member_class(const bt_field_class* structure, uint64_t index) {
  return bt_field_class_structure_member_borrow_field_class_const(
      bt_field_class_structure_borrow_member_by_index_const(structure, index));
}

uint64_t read_unsigned(const bt_field* field, bool is_signed) {
  return is_signed ? static_cast<uint64_t>(bt_field_integer_signed_get_value(field))
                   : bt_field_integer_unsigned_get_value(field);
}

const bt_field* member(const bt_field* structure, uint64_t index) {
  return bt_field_structure_borrow_member_field_by_index_const(structure, index);
}

}  // namespace

std::optional<Direction> network_direction(std::string_view name) {
  const auto index = network_event_index(name);
  if (!index) return std::nullopt;
  return kNetworkEventNames[*index].direction;
}

// "`seq`, `flags`": the TCP key members `structure` lacks (or holds as no integer).
std::string NetworkEventDecoder::missing_tcp_members(const bt_field_class* structure) {
  return words::missing_tcp_members([&](std::string_view name) {
    const auto index = member_index(structure, name);
    return !index || !is_type(member_class(structure, *index), BT_FIELD_CLASS_TYPE_INTEGER);
  });
}

std::optional<NetworkEventDecoder::TcpPlan> NetworkEventDecoder::plan_tcp(const bt_field_class* structure) {
  auto integer = [&](std::string_view name) -> std::optional<IntegerMember> {
    const auto index = member_index(structure, name);
    if (!index || !is_type(member_class(structure, *index), BT_FIELD_CLASS_TYPE_INTEGER)) return std::nullopt;
    return IntegerMember{*index, is_type(member_class(structure, *index), BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)};
  };
  auto seq = integer("seq");
  auto ack_seq = integer("ack_seq");
  auto flags = integer("flags");
  if (!seq || !ack_seq || !flags) return std::nullopt;
  TcpPlan plan{*seq, *ack_seq, *flags, integer("source_port"), integer("dest_port")};
  if (!plan.source_port) plan.source_port = integer("sport");
  if (!plan.dest_port) plan.dest_port = integer("dport");
  return plan;
}

namespace {

// saddr / daddr: an array of 8- or 16-bit integers, or one integer.
std::optional<uint64_t> address_index(const bt_field_class* structure, std::string_view name, bool& is_array,
                                      unsigned& bits) {
  const auto index = member_index(structure, name);
  if (!index) return std::nullopt;
  const bt_field_class* field_class = member_class(structure, *index);
  if (is_type(field_class, BT_FIELD_CLASS_TYPE_ARRAY)) {
    field_class = bt_field_class_array_borrow_element_field_class_const(field_class);
    is_array = true;
  } else {
    is_array = false;
  }
  if (!is_type(field_class, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER)) return std::nullopt;
  bits = static_cast<unsigned>(bt_field_class_integer_get_field_value_range(field_class));
  const bool usable = is_array ? (bits == 8 || bits == 16) : (bits == 32 || bits == 64);
  return usable ? index : std::nullopt;
}

// Returns the number of bytes written into `out` (at most 16).
unsigned read_address_bytes(const bt_field* field, bool is_array, unsigned bits, std::array<uint8_t, 16>& out) {
  unsigned written = 0;
  auto put = [&](uint64_t value, unsigned width) {
    for (unsigned shift = width; shift >= 8 && written < out.size(); shift -= 8) {
      out[written++] = static_cast<uint8_t>(value >> (shift - 8));
    }
  };
  if (!is_array) {
    put(bt_field_integer_unsigned_get_value(field), bits);
    return written;
  }
  const uint64_t length = bt_field_array_get_length(field);
  for (uint64_t i = 0; i < length && written < out.size(); ++i) {
    put(bt_field_integer_unsigned_get_value(bt_field_array_borrow_element_field_by_index_const(field, i)), bits);
  }
  return written;
}

}  // namespace

std::optional<NetworkEventDecoder::NetworkOption> NetworkEventDecoder::plan_ip(const bt_field_class* structure,
                                                                               uint8_t family, std::string& missing) {
  NetworkOption option;
  option.content = Content::kIp;
  option.family = family;
  for (auto [name, plan] : {std::pair{"saddr", &option.saddr}, std::pair{"daddr", &option.daddr}}) {
    AddressPlan address;
    const auto index = address_index(structure, name, address.is_array, address.element_bits);
    if (!index) {
      missing = words::no_usable_address(family, name);
      return std::nullopt;
    }
    address.index = *index;
    *plan = address;
  }
  const auto transport = member_index(structure, "transport_header");
  const bt_field_class* variant = transport ? member_class(structure, *transport) : nullptr;
  if (!is_type(variant, BT_FIELD_CLASS_TYPE_VARIANT)) {
    missing = words::no_transport_variant(family);
    return std::nullopt;
  }
  option.transport_index = *transport;
  const uint64_t count = bt_field_class_variant_get_option_count(variant);
  bool has_tcp = false;
  for (uint64_t i = 0; i < count; ++i) {
    const auto* choice = bt_field_class_variant_borrow_option_by_index_const(variant, i);
    TransportOption transport_option;
    if (bare(bt_field_class_variant_option_get_name(choice)) == "tcp") {
      has_tcp = true;
      const bt_field_class* tcp_class = bt_field_class_variant_option_borrow_field_class_const(choice);
      const auto tcp = plan_tcp(tcp_class);
      transport_option.content = tcp ? Content::kTcp : Content::kUndecodable;
      if (tcp) {
        transport_option.tcp = *tcp;
      } else {
        missing = words::tcp_option_lacks(family, missing_tcp_members(tcp_class));
      }
    }
    option.transport_options.push_back(transport_option);
  }
  if (!has_tcp) missing = words::no_tcp_option(family);
  return option;
}

std::optional<NetworkEventDecoder> NetworkEventDecoder::for_class(const bt_event_class* event_class) {
  const char* name = bt_event_class_get_name(event_class);
  const auto index = network_event_index(name == nullptr ? "" : name);
  if (!index) return std::nullopt;
  NetworkEventDecoder decoder;
  decoder.name_index_ = *index;
  decoder.direction_ = kNetworkEventNames[*index].direction;
  const bt_field_class* payload = bt_event_class_borrow_payload_field_class_const(event_class);
  if (!is_type(payload, BT_FIELD_CLASS_TYPE_STRUCTURE)) {
    decoder.missing_ = words::no_payload();
    return decoder;  // undecodable
  }

  if (const auto network_header = member_index(payload, "network_header")) {
    const bt_field_class* variant = member_class(payload, *network_header);
    if (!is_type(variant, BT_FIELD_CLASS_TYPE_VARIANT)) {
      decoder.missing_ = words::network_header_not_a_variant();
      return decoder;
    }
    decoder.form_ = Form::kNested;
    decoder.network_header_index_ = *network_header;
    const uint64_t count = bt_field_class_variant_get_option_count(variant);
    bool has_ip = false;
    for (uint64_t i = 0; i < count; ++i) {
      const auto* choice = bt_field_class_variant_borrow_option_by_index_const(variant, i);
      const std::string_view option_name = bare(bt_field_class_variant_option_get_name(choice));
      const bt_field_class* structure = bt_field_class_variant_option_borrow_field_class_const(choice);
      NetworkOption option;  // any other option: not an IP packet
      if (option_name == "ipv4" || option_name == "ipv6") {
        has_ip = true;
        std::string missing;
        const auto ip = plan_ip(structure, option_name == "ipv4" ? 4 : 6, missing);
        if (ip) {
          option = *ip;
        } else {
          option.content = Content::kUndecodable;
        }
        if (!missing.empty() && decoder.missing_.empty()) decoder.missing_ = std::move(missing);
      }
      decoder.network_options_.push_back(std::move(option));
    }
    if (!has_ip) decoder.missing_ = words::no_ip_option();
    return decoder;
  }

  const auto tcp = plan_tcp(payload);
  if (!tcp) {
    decoder.missing_ = words::flat_payload_lacks(missing_tcp_members(payload));
    return decoder;
  }
  decoder.form_ = Form::kFlat;
  decoder.flat_tcp_ = *tcp;
  AddressPlan saddr, daddr;
  const auto s = address_index(payload, "saddr", saddr.is_array, saddr.element_bits);
  const auto d = address_index(payload, "daddr", daddr.is_array, daddr.element_bits);
  if (s && d && tcp->source_port && tcp->dest_port) {
    saddr.index = *s;
    daddr.index = *d;
    decoder.flat_saddr_ = saddr;
    decoder.flat_daddr_ = daddr;
  }
  return decoder;
}

void NetworkEventDecoder::read_tcp(const bt_field* structure, const TcpPlan& plan, match::TcpFields& out) {
  out.seq = static_cast<uint32_t>(read_unsigned(member(structure, plan.seq.index), plan.seq.is_signed));
  out.ack_seq = static_cast<uint32_t>(read_unsigned(member(structure, plan.ack_seq.index), plan.ack_seq.is_signed));
  out.flags = static_cast<uint16_t>(read_unsigned(member(structure, plan.flags.index), plan.flags.is_signed));
}

void NetworkEventDecoder::read_ports(const bt_field* structure, const TcpPlan& plan, match::Endpoints& endpoints) {
  if (plan.source_port && plan.dest_port) {
    endpoints.source_port =
        static_cast<uint16_t>(read_unsigned(member(structure, plan.source_port->index), plan.source_port->is_signed));
    endpoints.dest_port =
        static_cast<uint16_t>(read_unsigned(member(structure, plan.dest_port->index), plan.dest_port->is_signed));
  }
}

void NetworkEventDecoder::read_address(const bt_field* structure, const AddressPlan& plan,
                                       std::array<uint8_t, 16>& out) {
  read_address_bytes(member(structure, plan.index), plan.is_array, plan.element_bits, out);
}

void NetworkEventDecoder::decode(const bt_event* event, match::PacketEvent& out, bool endpoints) const {
  out.direction = direction_;
  out.endpoints = {};
  const bt_field* payload = bt_event_borrow_payload_field_const(event);
  if (form_ == Form::kUndecodable || payload == nullptr) {
    out.layout = Layout::kUnknown;
    return;
  }
  if (form_ == Form::kFlat) {
    out.layout = Layout::kTcp;
    read_tcp(payload, flat_tcp_, out.tcp);
    if (endpoints && flat_saddr_ && flat_daddr_) {
      match::Endpoints found;
      read_ports(payload, flat_tcp_, found);
      const unsigned s = read_address_bytes(member(payload, flat_saddr_->index), flat_saddr_->is_array,
                                            flat_saddr_->element_bits, found.saddr);
      const unsigned d = read_address_bytes(member(payload, flat_daddr_->index), flat_daddr_->is_array,
                                            flat_daddr_->element_bits, found.daddr);
      if (s == d && (s == 4 || s == 16)) {
        found.family = s == 4 ? 4 : 6;
        out.endpoints = found;
      }
    }
    return;
  }

  const bt_field* network_header = member(payload, network_header_index_);
  const uint64_t network_choice = bt_field_variant_get_selected_option_index(network_header);
  if (network_choice >= network_options_.size()) {
    out.layout = Layout::kUnknown;
    return;
  }
  const NetworkOption& ip = network_options_[network_choice];
  if (ip.content != Content::kIp) {
    out.layout = ip.content == Content::kNotTcp ? Layout::kNonTcp : Layout::kUnknown;
    return;
  }
  const bt_field* ip_header = bt_field_variant_borrow_selected_option_field_const(network_header);
  const bt_field* transport_header = member(ip_header, ip.transport_index);
  const uint64_t transport_choice = bt_field_variant_get_selected_option_index(transport_header);
  if (transport_choice >= ip.transport_options.size()) {
    out.layout = Layout::kUnknown;
    return;
  }
  const TransportOption& transport = ip.transport_options[transport_choice];
  if (transport.content != Content::kTcp) {
    out.layout = transport.content == Content::kNotTcp ? Layout::kNonTcp : Layout::kUnknown;
    return;
  }
  out.layout = Layout::kTcp;
  const bt_field* tcp = bt_field_variant_borrow_selected_option_field_const(transport_header);
  read_tcp(tcp, transport.tcp, out.tcp);
  if (endpoints && transport.tcp.source_port && transport.tcp.dest_port) {
    out.endpoints.family = ip.family;
    read_address(ip_header, *ip.saddr, out.endpoints.saddr);
    read_address(ip_header, *ip.daddr, out.endpoints.daddr);
    read_ports(tcp, transport.tcp, out.endpoints);
  }
}

}  // namespace tracesync::ingest
