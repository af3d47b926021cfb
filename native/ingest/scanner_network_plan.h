// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ctf/read_plan.h"
#include "ctf/trace_class.h"
#include "match/packet_event.h"

namespace tracesync::ingest {

// NetworkEventDecoder's twin for the scanner: the same two payload layouts
// (flat 2.1 addons; nested 2.9+ network_header / transport_header
// variants), the same names (as babeltrace2 names a TSDL member, then one
// leading underscore aside), the same
// words for what a payload lacks (network_payload_words.h), worked out from a ctf::EventClass instead
// of babeltrace2's classes. It asks the read plan for the fields it needs
// (requests()) and makes a PacketEvent of what the plan captured (decode()).
class ScannerNetworkPlan {
 public:
  // nullopt when `event_class` is not a network event class. `tsdl_names`:
  // its names are CTF 1.8 TSDL identifiers as written (one leading
  // underscore is TSDL's escape, not part of the name); else CTF 2's.
  // `endpoints`: the addresses and ports are to be decoded (the strict
  // key, probe ports); without, they are not requested at all, so the
  // read plan skips them with the fields around them instead of
  // capturing what no one reads.
  static std::optional<ScannerNetworkPlan> for_class(const ctf::EventClass& event_class, bool tsdl_names,
                                                     bool endpoints);

  match::Direction direction() const { return direction_; }
  std::size_t name_index() const { return name_index_; }
  const std::string& missing() const { return missing_; }
  // The fields the read plan is to capture, in the order decode() reads them.
  const std::vector<ctf::FieldRequest>& requests() const { return requests_; }

  // Sets out.direction, out.layout, out.tcp and, when the plan was made
  // for them, out.endpoints from the captured fields.
  void decode(const ctf::CapturedField* captured, match::PacketEvent& out) const;

 private:
  struct IntegerField {
    int slot = -1;
    unsigned bits = 0;
  };
  struct TcpPlan {
    IntegerField seq, ack_seq, flags;
    std::optional<IntegerField> source_port, dest_port;
  };
  struct AddressPlan {
    int slot = -1;
    bool is_array = false;
    unsigned bits = 0;  // of the integer, when not an array
  };
  enum class Content : uint8_t { kNotTcp, kUndecodable, kTcp, kIp };
  struct TransportOption {
    Content content = Content::kNotTcp;
    TcpPlan tcp;
  };
  struct NetworkOption {
    Content content = Content::kNotTcp;
    uint8_t family = 0;
    std::optional<AddressPlan> saddr, daddr;
    int transport_slot = -1;  // the transport_header variant's option
    std::vector<TransportOption> transport_options;
  };
  enum class Form : uint8_t { kUndecodable, kFlat, kNested };

  int request(std::vector<std::string> names);
  std::optional<TcpPlan> plan_tcp(const ctf::FieldClass& structure, const std::vector<std::string>& at);
  std::optional<NetworkOption> plan_ip(const ctf::FieldClass& structure, uint8_t family,
                                       const std::vector<std::string>& at, std::string& missing);
  std::optional<AddressPlan> plan_address(const ctf::FieldClass& structure, const std::string& name) const;
  std::string seen_name(const std::string& written) const;
  const ctf::Member* member(const ctf::FieldClass& structure, const std::string& name) const;
  const ctf::FieldClass* member_class(const ctf::FieldClass& structure, const std::string& name) const;
  std::string written(const ctf::FieldClass& structure, const std::string& name) const;
  std::string missing_tcp_members(const ctf::FieldClass& structure) const;
  static void read_tcp(const ctf::CapturedField* captured, const TcpPlan& plan, match::TcpFields& out);
  static bool read_ports(const ctf::CapturedField* captured, const TcpPlan& plan, match::Endpoints& endpoints);
  static unsigned read_address(const ctf::CapturedField* captured, const AddressPlan& plan, std::array<uint8_t, 16>& out);

  bool tsdl_names_ = true;
  bool endpoints_ = true;  // the addresses and ports requested
  std::size_t name_index_ = 0;
  match::Direction direction_ = match::Direction::kSend;
  std::string missing_;
  Form form_ = Form::kUndecodable;
  std::vector<ctf::FieldRequest> requests_;
  TcpPlan flat_tcp_;
  std::optional<AddressPlan> flat_saddr_, flat_daddr_;
  int network_slot_ = -1;
  std::vector<NetworkOption> network_options_;
};

}  // namespace tracesync::ingest
