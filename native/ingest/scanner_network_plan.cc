// SPDX-License-Identifier: EPL-2.0
#include "ingest/scanner_network_plan.h"

#include "ingest/network_event_names.h"
#include "ingest/network_payload_words.h"
#include "ctf/member_names.h"

namespace tracesync::ingest {

namespace {

using ctf::CapturedField;
using ctf::FieldClass;
using FC = FieldClass;
using match::Layout;
namespace words = network_payload_words;

// As babeltrace2 sees a CTF 1.8 field class: an array of 8-bit text
// integers is a string; integers and enumerations are integers.
bool is_integer(const FC* fc) { return fc != nullptr && fc->is_integer(); }
bool is_array(const FC* fc) {
  return fc != nullptr && (fc->kind == FC::Kind::kArray || fc->kind == FC::Kind::kSequence) && !fc->is_text_array();
}
bool is_structure(const FC* fc) { return fc != nullptr && fc->kind == FC::Kind::kStructure; }
bool is_variant(const FC* fc) { return fc != nullptr && fc->kind == FC::Kind::kVariant; }

}  // namespace

// What NetworkEventDecoder compares with "seq", "tcp"... (ctf/member_names.h).
std::string ScannerNetworkPlan::seen_name(const std::string& written) const {
  return ctf::compared_name(written, tsdl_names_);
}

const ctf::Member* ScannerNetworkPlan::member(const FC& structure, const std::string& name) const {
  for (const ctf::Member& m : structure.members) {
    if (seen_name(m.name) == name) return &m;
  }
  return nullptr;
}

const FC* ScannerNetworkPlan::member_class(const FC& structure, const std::string& name) const {
  const ctf::Member* found = member(structure, name);
  return found == nullptr ? nullptr : found->type.get();
}

// The member's name as written (the path a read plan follows).
std::string ScannerNetworkPlan::written(const FC& structure, const std::string& name) const {
  const ctf::Member* found = member(structure, name);
  return found == nullptr ? name : found->name;
}

namespace {

std::vector<std::string> then(std::vector<std::string> at, std::string name) {
  at.push_back(std::move(name));
  return at;
}

}  // namespace

std::string ScannerNetworkPlan::missing_tcp_members(const FC& structure) const {
  return words::missing_tcp_members(
      [&](std::string_view name) { return !is_integer(member_class(structure, std::string(name))); });
}

int ScannerNetworkPlan::request(std::vector<std::string> names) {
  requests_.push_back(ctf::FieldRequest{ctf::Scope::kEventPayload, std::move(names)});
  return static_cast<int>(requests_.size() - 1);
}

std::optional<ScannerNetworkPlan::TcpPlan> ScannerNetworkPlan::plan_tcp(const FC& structure,
                                                                         const std::vector<std::string>& at) {
  auto integer = [&](const std::string& name) -> std::optional<IntegerField> {
    const FC* fc = member_class(structure, name);
    if (!is_integer(fc)) return std::nullopt;
    return IntegerField{-1, fc->size};
  };
  auto seq = integer("seq"), ack_seq = integer("ack_seq"), flags = integer("flags");
  if (!seq || !ack_seq || !flags) return std::nullopt;
  TcpPlan plan{*seq, *ack_seq, *flags, integer("source_port"), integer("dest_port")};
  std::string source = "source_port", dest = "dest_port";
  if (!plan.source_port) plan.source_port = integer(source = "sport");
  if (!plan.dest_port) plan.dest_port = integer(dest = "dport");
  plan.seq.slot = request(then(at, written(structure, "seq")));
  plan.ack_seq.slot = request(then(at, written(structure, "ack_seq")));
  plan.flags.slot = request(then(at, written(structure, "flags")));
  if (endpoints_ && plan.source_port) plan.source_port->slot = request(then(at, written(structure, source)));
  if (endpoints_ && plan.dest_port) plan.dest_port->slot = request(then(at, written(structure, dest)));
  return plan;
}

// saddr / daddr: an array of 8- or 16-bit unsigned integers, or one of 32 or 64 bits.
std::optional<ScannerNetworkPlan::AddressPlan> ScannerNetworkPlan::plan_address(const FC& structure,
                                                                                const std::string& name) const {
  const FC* fc = member_class(structure, name);
  if (fc == nullptr) return std::nullopt;
  AddressPlan plan;
  plan.is_array = is_array(fc);
  if (plan.is_array) fc = fc->element.get();
  if (!is_integer(fc) || fc->is_signed) return std::nullopt;
  plan.bits = fc->size;
  const bool usable = plan.is_array ? (plan.bits == 8 || plan.bits == 16) : (plan.bits == 32 || plan.bits == 64);
  if (!usable) return std::nullopt;
  return plan;
}

std::optional<ScannerNetworkPlan::NetworkOption> ScannerNetworkPlan::plan_ip(const FC& structure, uint8_t family,
                                                                             const std::vector<std::string>& at,
                                                                             std::string& missing) {
  NetworkOption option;
  option.content = Content::kIp;
  option.family = family;
  for (auto [name, plan] : {std::pair{"saddr", &option.saddr}, std::pair{"daddr", &option.daddr}}) {
    auto address = is_structure(&structure) ? plan_address(structure, name) : std::nullopt;
    if (!address) {
      missing = words::no_usable_address(family, name);
      return std::nullopt;
    }
    *plan = address;
  }
  const FC* variant = member_class(structure, "transport_header");
  if (!is_variant(variant)) {
    missing = words::no_transport_variant(family);
    return std::nullopt;
  }
  // Requested only once the option is known to decode: a request the read
  // plan captures but no one reads costs every network event.
  if (endpoints_) {
    option.saddr->slot = request(then(at, written(structure, "saddr")));
    option.daddr->slot = request(then(at, written(structure, "daddr")));
  }
  const std::vector<std::string> transport_at = then(at, written(structure, "transport_header"));
  option.transport_slot = request(transport_at);
  bool has_tcp = false;
  for (const ctf::Member& choice : variant->members) {
    TransportOption transport;
    if (seen_name(choice.name) == "tcp") {
      has_tcp = true;
      const FC& tcp_class = *choice.type;
      const auto tcp = is_structure(&tcp_class) ? plan_tcp(tcp_class, then(transport_at, choice.name)) : std::nullopt;
      transport.content = tcp ? Content::kTcp : Content::kUndecodable;
      if (tcp) {
        transport.tcp = *tcp;
      } else {
        missing = words::tcp_option_lacks(family, missing_tcp_members(tcp_class));
      }
    }
    option.transport_options.push_back(transport);
  }
  if (!has_tcp) missing = words::no_tcp_option(family);
  return option;
}

std::optional<ScannerNetworkPlan> ScannerNetworkPlan::for_class(const ctf::EventClass& event_class, bool tsdl_names,
                                                                bool endpoints) {
  const auto index = network_event_index(event_class.name);
  if (!index) return std::nullopt;
  ScannerNetworkPlan plan;
  plan.tsdl_names_ = tsdl_names;
  plan.endpoints_ = endpoints;
  plan.name_index_ = *index;
  plan.direction_ = kNetworkEventNames[*index].direction;
  const FC* payload = event_class.payload.get();
  if (!is_structure(payload)) {
    plan.missing_ = words::no_payload();
    return plan;
  }
  if (const ctf::Member* network_header = plan.member(*payload, "network_header")) {
    const FC* variant = network_header->type.get();
    if (!is_variant(variant)) {
      plan.missing_ = words::network_header_not_a_variant();
      return plan;
    }
    plan.form_ = Form::kNested;
    plan.network_slot_ = plan.request({network_header->name});
    bool has_ip = false;
    for (const ctf::Member& choice : variant->members) {
      const std::string option_name = plan.seen_name(choice.name);
      NetworkOption option;
      if (option_name == "ipv4" || option_name == "ipv6") {
        has_ip = true;
        std::string missing;
        const auto ip = plan.plan_ip(*choice.type, option_name == "ipv4" ? 4 : 6, {network_header->name, choice.name},
                                     missing);
        if (ip) {
          option = *ip;
        } else {
          option.content = Content::kUndecodable;
        }
        if (!missing.empty() && plan.missing_.empty()) plan.missing_ = std::move(missing);
      }
      plan.network_options_.push_back(std::move(option));
    }
    if (!has_ip) plan.missing_ = words::no_ip_option();
    return plan;
  }
  const auto tcp = plan.plan_tcp(*payload, {});
  if (!tcp) {
    plan.missing_ = words::flat_payload_lacks(plan.missing_tcp_members(*payload));
    return plan;
  }
  plan.form_ = Form::kFlat;
  plan.flat_tcp_ = *tcp;
  auto saddr = plan.plan_address(*payload, "saddr");
  auto daddr = plan.plan_address(*payload, "daddr");
  if (endpoints && saddr && daddr && tcp->source_port && tcp->dest_port) {
    saddr->slot = plan.request({plan.written(*payload, "saddr")});
    daddr->slot = plan.request({plan.written(*payload, "daddr")});
    plan.flat_saddr_ = saddr;
    plan.flat_daddr_ = daddr;
  }
  return plan;
}

void ScannerNetworkPlan::read_tcp(const CapturedField* captured, const TcpPlan& plan, match::TcpFields& out) {
  out.seq = static_cast<uint32_t>(captured[plan.seq.slot].value);
  out.ack_seq = static_cast<uint32_t>(captured[plan.ack_seq.slot].value);
  out.flags = static_cast<uint16_t>(captured[plan.flags.slot].value);
}

bool ScannerNetworkPlan::read_ports(const CapturedField* captured, const TcpPlan& plan, match::Endpoints& endpoints) {
  if (!plan.source_port || !plan.dest_port) return false;
  endpoints.source_port = static_cast<uint16_t>(captured[plan.source_port->slot].value);
  endpoints.dest_port = static_cast<uint16_t>(captured[plan.dest_port->slot].value);
  return true;
}

// Returns the number of bytes written into `out` (at most 16).
unsigned ScannerNetworkPlan::read_address(const CapturedField* captured, const AddressPlan& plan,
                                          std::array<uint8_t, 16>& out) {
  const CapturedField& field = captured[plan.slot];
  if (plan.is_array) {
    for (unsigned i = 0; i < field.byte_count; ++i) out[i] = field.bytes[i];
    return field.byte_count;
  }
  unsigned written = 0;
  for (unsigned shift = plan.bits; shift >= 8 && written < out.size(); shift -= 8) {
    out[written++] = static_cast<uint8_t>(field.value >> (shift - 8));
  }
  return written;
}

void ScannerNetworkPlan::decode(const CapturedField* captured, match::PacketEvent& out) const {
  out.direction = direction_;
  out.endpoints = {};
  if (form_ == Form::kUndecodable) {
    out.layout = Layout::kUnknown;
    return;
  }
  if (form_ == Form::kFlat) {
    out.layout = Layout::kTcp;
    read_tcp(captured, flat_tcp_, out.tcp);
    if (flat_saddr_ && flat_daddr_) {  // requested (endpoints_) and usable
      match::Endpoints found;
      read_ports(captured, flat_tcp_, found);
      const unsigned s = read_address(captured, *flat_saddr_, found.saddr);
      const unsigned d = read_address(captured, *flat_daddr_, found.daddr);
      if (s == d && (s == 4 || s == 16)) {
        found.family = s == 4 ? 4 : 6;
        out.endpoints = found;
      }
    }
    return;
  }
  const uint64_t network_choice = captured[network_slot_].value;
  if (!captured[network_slot_].present || network_choice >= network_options_.size()) {
    out.layout = Layout::kUnknown;
    return;
  }
  const NetworkOption& ip = network_options_[network_choice];
  if (ip.content != Content::kIp) {
    out.layout = ip.content == Content::kNotTcp ? Layout::kNonTcp : Layout::kUnknown;
    return;
  }
  const uint64_t transport_choice = captured[ip.transport_slot].value;
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
  read_tcp(captured, transport.tcp, out.tcp);
  if (endpoints_ && transport.tcp.source_port && transport.tcp.dest_port) {
    out.endpoints.family = ip.family;
    read_address(captured, *ip.saddr, out.endpoints.saddr);
    read_address(captured, *ip.daddr, out.endpoints.daddr);
    read_ports(captured, transport.tcp, out.endpoints);
  }
}

}  // namespace tracesync::ingest
