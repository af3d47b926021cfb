// SPDX-License-Identifier: EPL-2.0
#pragma once

// Writes small CTF 1.8 traces for the ingest tests: TSDL metadata in text
// form and little-endian stream files, with the network event layouts of
// lttng-modules (the 2.1 addons' flat payload; 2.9/2.10, 2.11/2.12 and 2.13
// nested headers), so the decoder meets each shape babeltrace2 gives them.
// The layouts follow lttng-modules' field lists (names, types, byte orders,
// variant tags); alignment is whatever the metadata written here says, which
// is all a CTF reader needs.

#include <stdlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace tracesync::ingest::testing {

namespace fs = std::filesystem;

// Appends integers at bit positions, in CTF's bit order: little-endian
// fields fill each byte from its least significant bit, big-endian ones from
// its most significant bit.
class BitWriter {
 public:
  // Fields align from the packet's start (as babeltrace2 2.0 reads
  // them): write_packet sets it for each packet.
  void set_origin(uint64_t bit) { origin_ = bit; }
  void align(unsigned bits) {
    while ((position_ - origin_) % bits != 0) ++position_;
    grow();
  }
  void put(uint64_t value, unsigned bits, unsigned alignment, bool big_endian = false) {
    align(alignment);
    if (position_ % 8 == 0 && bits % 8 == 0) {  // whole bytes: the common case, done bytewise
      const unsigned n = bits / 8;
      grow(position_ + bits);
      for (unsigned i = 0; i < n; ++i) {
        bytes_[position_ / 8 + i] = static_cast<uint8_t>(value >> (8 * (big_endian ? n - 1 - i : i)));
      }
      position_ += bits;
      return;
    }
    for (unsigned i = 0; i < bits; ++i) {
      const unsigned bit = big_endian ? bits - 1 - i : i;
      if ((value >> bit) & 1) {
        const uint64_t at = position_ + i;
        grow(at + 1);
        bytes_[at / 8] |= static_cast<uint8_t>(big_endian ? 0x80 >> (at % 8) : 1 << (at % 8));
      }
    }
    position_ += bits;
    grow();
  }
  void put_string(const std::string& text) {
    align(8);
    for (char c : text) put(static_cast<uint8_t>(c), 8, 8);
    put(0, 8, 8);
  }
  uint64_t position() const { return position_; }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  void grow(uint64_t bits = 0) {
    const uint64_t need = (std::max(bits, position_) + 7) / 8;
    if (bytes_.size() < need) {
      if (bytes_.capacity() < need) bytes_.reserve(std::max<uint64_t>(need, 2 * bytes_.capacity()));
      bytes_.resize(need, 0);
    }
  }
  std::vector<uint8_t> bytes_;
  uint64_t position_ = 0;
  uint64_t origin_ = 0;
};

enum class Layout {
  kAddons21,          // lttng-modules 2.1 addons: inet_sock_local_out / _in, flat seq, ack_seq, flags
  kLttng29,           // 2.9, 2.10: transport variant tagged by the IP protocol number
  kLttng211,          // 2.11, 2.12: transport variant tagged by transport_header_type
  kLttng213,          // 2.13+: as 2.11 with udp and icmp options
  kIntegerAddresses,  // 2.11 shape with IPv4 saddr/daddr as 32-bit integers
  kPre29,             // before 2.9: net_dev_queue without any header fields
};

enum class Network { kNone, kIpv4, kIpv6 };
enum class Transport { kTcp, kUdp, kOther };

struct NetEvent {
  std::string name;  // event class: net_dev_queue, net_if_receive_skb, ..., or "timer_init" (not network)
  uint64_t time = 0;  // clock cycles (1 GHz: ns from the clock's offset)
  Network network = Network::kIpv4;
  Transport transport = Transport::kTcp;
  std::array<uint8_t, 16> saddr{};
  std::array<uint8_t, 16> daddr{};
  uint16_t source_port = 0;
  uint16_t dest_port = 0;
  uint32_t seq = 0;
  uint32_t ack_seq = 0;
  uint16_t flags = 0;  // 9 bits in the nested layouts
};

// An event `name` of a TCP segment from 10.0.0.1 to 10.0.0.2 (ACK set).
inline NetEvent tcp_segment(const std::string& name, uint64_t time, uint32_t seq, uint32_t ack_seq = 1) {
  NetEvent e;
  e.name = name;
  e.time = time;
  e.saddr = {10, 0, 0, 1};
  e.daddr = {10, 0, 0, 2};
  e.seq = seq;
  e.ack_seq = ack_seq;
  e.flags = 0x10;
  return e;
}

// The event header: a 32-bit id and the 64-bit time, or one of LTTng's
// (whose compact form holds 27 or 32 bits of the time and ids below 31 or
// 65535; the extended form the rest). LTTng's need `timestamps`.
enum class EventHeader { kIdAndTime, kLttngCompact, kLttngLarge };

struct TraceShape {
  Layout layout = Layout::kLttng211;
  EventHeader event_header = EventHeader::kIdAndTime;
  std::string hostname = "host";
  std::optional<std::string> clock_uuid;
  bool with_clock = true;   // a clock block, mapped by the timestamp fields
  bool timestamps = true;   // timestamp fields in the packet context and event header
  int64_t clock_offset_seconds = 1'700'000'000;
  std::size_t streams = 1;  // events are dealt to the stream files in turn
  std::size_t events_per_packet = 0;  // 0: one packet per stream file
  // Each packet's timestamp_begin this much before its first event, so that
  // it may precede the previous packet's end (as real LTTng 2.1 traces do).
  uint64_t packet_begin_step_back = 0;
  // More non-network event classes, "filler_0", "filler_1", ..., with ids
  // after the named ones and timer_init's payload.
  std::size_t filler_classes = 0;
  // The fillers' payload fixed runs and strings instead (string_filler_tsdl).
  bool string_fillers = false;
  // Each packet ends this many bytes after its content's last byte, so
  // that packets begin off a 64-bit boundary of the file; unset: the next
  // packet begins on a byte (on 64 bits with string fillers).
  std::optional<unsigned> packet_padding_bytes;
};

// A filler payload of fixed runs and NUL-ended strings, as sched_switch's:
// after a string, a bit field (alignment 1) and a 64-bit-aligned integer.
inline std::string string_filler_tsdl() {
  return R"(struct {
    integer { size = 32; align = 8; signed = 1; } _prio;
    string _comm;
    integer { size = 3; align = 1; signed = 0; } _flags;
    integer { size = 64; align = 64; signed = 1; } _state;
    string _next_comm;
    integer { size = 32; align = 8; signed = 1; } _next_prio;
  })";
}

// Its strings, of a length given by the event's seq: empty to 70 bytes
// (past the word-at-a-time NUL search's 32).
inline std::string filler_comm(uint32_t seq, int which) {
  const std::size_t length = (seq * 7 + static_cast<uint32_t>(which) * 13) % 71;
  std::string text;
  for (std::size_t i = 0; i < length; ++i) text += static_cast<char>('a' + (seq + i) % 26);
  return text;
}

inline bool is_filler(const std::string& event_name) { return event_name.rfind("filler_", 0) == 0; }

inline const std::vector<std::string>& event_names() {
  static const std::vector<std::string> names = {"net_dev_queue",           "net_if_receive_skb",
                                                 "netif_receive_skb",       "net_if_receive_skb_entry",
                                                 "timer_init",              "inet_sock_local_out",
                                                 "inet_sock_local_in"};
  return names;
}

inline std::string tcp_fields_tsdl() {
  return R"(struct {
        integer { size = 16; align = 8; signed = 0; byte_order = be; } _source_port;
        integer { size = 16; align = 8; signed = 0; byte_order = be; } _dest_port;
        integer { size = 32; align = 8; signed = 0; byte_order = be; } _seq;
        integer { size = 32; align = 8; signed = 0; byte_order = be; } _ack_seq;
        integer { size = 4; align = 4; signed = 0; byte_order = be; } _data_offset;
        integer { size = 3; align = 1; signed = 0; byte_order = be; } _reserved;
        integer { size = 9; align = 1; signed = 0; byte_order = be; base = 16; } _flags;
        integer { size = 16; align = 8; signed = 0; byte_order = be; } _window_size;
        integer { size = 16; align = 8; signed = 0; byte_order = be; base = 16; } _checksum;
        integer { size = 16; align = 8; signed = 0; byte_order = be; } _urg_ptr;
      } _tcp;)";
}

// The transport variant of an IP header struct, and the member that tags it.
inline std::string transport_tsdl(Layout layout, const std::string& protocol_member) {
  std::string options = "struct { } _unknown;\n      " + tcp_fields_tsdl();
  if (layout == Layout::kLttng213) {
    options += R"(
      struct {
        integer { size = 16; align = 8; signed = 0; byte_order = be; } _source_port;
        integer { size = 16; align = 8; signed = 0; byte_order = be; } _dest_port;
        integer { size = 16; align = 8; signed = 0; byte_order = be; } _len;
        integer { size = 16; align = 8; signed = 0; byte_order = be; } _check;
      } _udp;
      struct {
        integer { size = 8; align = 8; signed = 0; } _type;
        integer { size = 8; align = 8; signed = 0; } _code;
        integer { size = 16; align = 8; signed = 0; byte_order = be; } _checksum;
        integer { size = 32; align = 8; signed = 0; byte_order = be; } _gateway;
      } _icmp;)";
  }
  if (layout == Layout::kLttng29) {
    return "variant <" + protocol_member + "> {\n      " + options + "\n    } _transport_header;";
  }
  const std::string labels = layout == Layout::kLttng213 ? R"("_unknown" = 0, "_tcp" = 1, "_udp" = 2, "_icmp" = 3)"
                                                         : R"("_unknown" = 0, "_tcp" = 1)";
  return "enum : integer { size = 8; align = 8; signed = 0; } { " + labels +
         " } _transport_header_type;\n    variant <_transport_header_type> {\n      " + options +
         "\n    } _transport_header;";
}

inline std::string protocol_enum_tsdl(Layout layout) {
  // 2.9, 2.10 tag the transport variant with the IP protocol number itself.
  if (layout == Layout::kLttng29) {
    return R"(enum : integer { size = 8; align = 8; signed = 0; byte_order = be; } { "_unknown" = 0 ... 5, "_tcp" = 6, "_unknown" = 7 ... 255 })";
  }
  return R"(enum : integer { size = 8; align = 8; signed = 0; byte_order = be; } { "_unknown" = 0 ... 5, "_tcp" = 6, "_unknown" = 7 ... 16, "_udp" = 17, "_unknown" = 18 ... 255 })";
}

inline std::string nested_payload_tsdl(Layout layout) {
  const bool integer_addresses = layout == Layout::kIntegerAddresses;
  const std::string v4_address = integer_addresses
                                     ? "integer { size = 32; align = 8; signed = 0; byte_order = be; base = 16; }"
                                     : "integer { size = 8; align = 8; signed = 0; }";
  const std::string v4_suffix = integer_addresses ? "" : "[4]";
  return R"(struct {
    integer { size = 64; align = 8; signed = 0; base = 16; } _skbaddr;
    integer { size = 32; align = 8; signed = 0; } _len;
    string _name;
    enum : integer { size = 8; align = 8; signed = 0; } { "_unknown" = 0, "_ipv4" = 1, "_ipv6" = 2 } _network_header_type;
    variant <_network_header_type> {
      struct { } _unknown;
      struct {
        integer { size = 4; align = 8; signed = 0; byte_order = be; } _version;
        integer { size = 4; align = 1; signed = 0; byte_order = be; } _ihl;
        integer { size = 8; align = 8; signed = 0; } _tos;
        integer { size = 16; align = 8; signed = 0; byte_order = be; } _tot_len;
        integer { size = 16; align = 8; signed = 0; byte_order = be; base = 16; } _id;
        integer { size = 16; align = 8; signed = 0; byte_order = be; } _frag_off;
        integer { size = 8; align = 8; signed = 0; } _ttl;
        )" + protocol_enum_tsdl(layout) + R"( _protocol;
        integer { size = 16; align = 8; signed = 0; byte_order = be; base = 16; } _checksum;
        )" + v4_address + " _saddr" + v4_suffix + R"(;
        )" + v4_address + " _daddr" + v4_suffix + R"(;
        )" + transport_tsdl(layout, "_protocol") + R"(
      } _ipv4;
      struct {
        integer { size = 4; align = 8; signed = 0; byte_order = be; } _version;
        integer { size = 4; align = 1; signed = 0; byte_order = be; } _prio;
        integer { size = 8; align = 8; signed = 0; base = 16; } _flow_lbl[3];
        integer { size = 16; align = 8; signed = 0; byte_order = be; } _payload_len;
        )" + protocol_enum_tsdl(layout) + R"( _nexthdr;
        integer { size = 8; align = 8; signed = 0; } _hop_limit;
        integer { size = 16; align = 8; signed = 0; byte_order = be; base = 16; } _saddr[8];
        integer { size = 16; align = 8; signed = 0; byte_order = be; base = 16; } _daddr[8];
        )" + transport_tsdl(layout, "_nexthdr") + R"(
      } _ipv6;
    } _network_header;
  })";
}

inline std::string payload_tsdl(Layout layout, const std::string& event_name) {
  if (event_name == "timer_init") {
    return "struct { integer { size = 64; align = 8; signed = 0; base = 16; } _timer; }";
  }
  if (event_name == "net_if_receive_skb_entry") {
    return "struct { integer { size = 64; align = 8; signed = 0; base = 16; } _skbaddr; }";
  }
  if (layout == Layout::kAddons21) {
    return R"(struct {
    integer { size = 64; align = 8; signed = 0; base = 16; } _sk;
    integer { size = 32; align = 8; signed = 0; base = 16; byte_order = be; } _seq;
    integer { size = 32; align = 8; signed = 0; base = 16; byte_order = be; } _ack_seq;
    integer { size = 16; align = 8; signed = 0; base = 16; byte_order = be; } _check;
    integer { size = 16; align = 8; signed = 0; base = 16; byte_order = be; } _window;
    integer { size = 16; align = 8; signed = 0; base = 16; byte_order = be; } _flags;
  })";
  }
  if (layout == Layout::kPre29) {
    return R"(struct {
    integer { size = 64; align = 8; signed = 0; base = 16; } _skbaddr;
    integer { size = 32; align = 8; signed = 0; } _len;
    string _name;
  })";
  }
  return nested_payload_tsdl(layout);
}

// The event header's TSDL (LTTng's as lttng-modules writes them).
inline std::string event_header_tsdl(const TraceShape& shape, const std::string& timestamp) {
  if (shape.event_header == EventHeader::kIdAndTime) return "struct { uint32_t id;" + timestamp + " }";
  const bool compact = shape.event_header == EventHeader::kLttngCompact;
  const std::string id = compact ? "integer { size = 5; align = 1; signed = false; }" : "integer { size = 16; align = 8; signed = false; }";
  const std::string last = compact ? "31" : "65535";
  const std::string short_time = compact ? "integer { size = 27; align = 1; signed = false; map = clock.monotonic.value; }"
                                         : "integer { size = 32; align = 8; signed = false; map = clock.monotonic.value; }";
  return "struct {\n    enum : " + id + " { compact = 0 ... " + std::to_string(std::stoull(last) - 1) + ", extended = " + last +
         " } id;\n    variant <id> {\n      struct { " + short_time +
         " timestamp; } compact;\n      struct { uint32_t id; uint64_clock_t timestamp; } extended;\n    } v;\n  } align(8)";
}

inline std::string metadata_text(const TraceShape& shape) {
  std::string clock_type = "uint64_t";
  std::string text = R"(/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;

trace {
  major = 1;
  minor = 8;
  byte_order = le;
  packet.header := struct { uint32_t magic; uint32_t stream_id; };
};

env {
  hostname = ")" + shape.hostname + R"(";
  domain = "kernel";
};
)";
  if (shape.with_clock) {
    text += "\nclock {\n  name = \"monotonic\";\n";
    if (shape.clock_uuid) text += "  uuid = \"" + *shape.clock_uuid + "\";\n";
    text += "  freq = 1000000000;\n  offset_s = " + std::to_string(shape.clock_offset_seconds) + ";\n};\n";
    text += "typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_t;\n";
    clock_type = "uint64_clock_t";
  }
  const std::string begin_end =
      shape.timestamps ? clock_type + " timestamp_begin;\n    " + clock_type + " timestamp_end;\n    " : "";
  const std::string timestamp = shape.timestamps ? " " + clock_type + " timestamp;" : "";
  text += R"(
stream {
  id = 0;
  packet.context := struct {
    )" + begin_end + R"(uint64_t content_size;
    uint64_t packet_size;
  };
  event.header := )" + event_header_tsdl(shape, timestamp) + R"(;
};
)";
  const auto& names = event_names();
  for (std::size_t id = 0; id < names.size(); ++id) {
    const bool addons_event = names[id].rfind("inet_sock", 0) == 0;
    if (addons_event != (shape.layout == Layout::kAddons21) && names[id] != "timer_init") continue;
    text += "\nevent {\n  name = \"" + names[id] + "\";\n  id = " + std::to_string(id) +
            ";\n  stream_id = 0;\n  fields := " + payload_tsdl(shape.layout, names[id]) + ";\n};\n";
  }
  for (std::size_t k = 0; k < shape.filler_classes; ++k) {
    text += "\nevent {\n  name = \"filler_" + std::to_string(k) + "\";\n  id = " + std::to_string(names.size() + k) +
            ";\n  stream_id = 0;\n  fields := " +
            (shape.string_fillers ? string_filler_tsdl() : payload_tsdl(shape.layout, "timer_init")) + ";\n};\n";
  }
  return text;
}

inline void write_tcp(BitWriter& w, const NetEvent& e) {
  w.put(e.source_port, 16, 8, true);
  w.put(e.dest_port, 16, 8, true);
  w.put(e.seq, 32, 8, true);
  w.put(e.ack_seq, 32, 8, true);
  w.put(5, 4, 4, true);  // data_offset
  w.put(0, 3, 1, true);  // reserved
  w.put(e.flags, 9, 1, true);
  w.put(502, 16, 8, true);     // window_size
  w.put(0xbeef, 16, 8, true);  // checksum
  w.put(0, 16, 8, true);       // urg_ptr
}

// The transport header type and header of an IP struct, `protocol` being
// what the IP header says (6 TCP, 17 UDP, 1 ICMP).
inline void write_transport(BitWriter& w, const NetEvent& e, Layout layout) {
  if (layout != Layout::kLttng29) {
    uint64_t type = 0;
    if (e.transport == Transport::kTcp) type = 1;
    if (e.transport == Transport::kUdp && layout == Layout::kLttng213) type = 2;
    w.put(type, 8, 8);
    if (type == 2) {
      w.put(e.source_port, 16, 8, true);
      w.put(e.dest_port, 16, 8, true);
      w.put(8, 16, 8, true);
      w.put(0, 16, 8, true);
      return;
    }
    if (type == 0) return;
  } else if (e.transport != Transport::kTcp) {
    return;
  }
  write_tcp(w, e);
}

inline uint64_t protocol_number(const NetEvent& e) {
  return e.transport == Transport::kTcp ? 6 : e.transport == Transport::kUdp ? 17 : 1;
}

inline void write_payload(BitWriter& w, const NetEvent& e, Layout layout, bool string_fillers = false) {
  if (string_fillers && is_filler(e.name)) {
    w.put(static_cast<uint32_t>(-120), 32, 8);
    w.put_string(filler_comm(e.seq, 0));
    w.put(e.seq % 8, 3, 1);
    w.put(0x8000000000000001ULL, 64, 64);
    w.put_string(filler_comm(e.seq, 1));
    w.put(e.seq, 32, 8);
    return;
  }
  if (e.name == "timer_init" || e.name == "net_if_receive_skb_entry" || is_filler(e.name)) {
    w.put(0xffff8800deadbeefULL, 64, 8);
    return;
  }
  if (layout == Layout::kAddons21) {
    w.put(0xffff88001d510e00ULL, 64, 8);
    w.put(e.seq, 32, 8, true);
    w.put(e.ack_seq, 32, 8, true);
    w.put(0x1234, 16, 8, true);
    w.put(0x295, 16, 8, true);
    w.put(e.flags, 16, 8, true);
    return;
  }
  w.put(0xffff8800cafe0000ULL, 64, 8);  // skbaddr
  w.put(60, 32, 8);                     // len
  w.put_string("eth0");
  if (layout == Layout::kPre29) return;
  const uint64_t network_type = e.network == Network::kIpv4 ? 1 : e.network == Network::kIpv6 ? 2 : 0;
  w.put(network_type, 8, 8);
  if (e.network == Network::kIpv4) {
    w.put(4, 4, 8, true);
    w.put(5, 4, 1, true);
    w.put(0, 8, 8);
    w.put(60, 16, 8, true);
    w.put(0x1c46, 16, 8, true);
    w.put(0x4000, 16, 8, true);
    w.put(64, 8, 8);
    w.put(protocol_number(e), 8, 8, true);
    w.put(0xb1e6, 16, 8, true);
    if (layout == Layout::kIntegerAddresses) {
      w.put((uint64_t{e.saddr[0]} << 24) | (e.saddr[1] << 16) | (e.saddr[2] << 8) | e.saddr[3], 32, 8, true);
      w.put((uint64_t{e.daddr[0]} << 24) | (e.daddr[1] << 16) | (e.daddr[2] << 8) | e.daddr[3], 32, 8, true);
    } else {
      for (int i = 0; i < 4; ++i) w.put(e.saddr[i], 8, 8);
      for (int i = 0; i < 4; ++i) w.put(e.daddr[i], 8, 8);
    }
    write_transport(w, e, layout);
  } else if (e.network == Network::kIpv6) {
    w.put(6, 4, 8, true);
    w.put(0, 4, 1, true);
    for (int i = 0; i < 3; ++i) w.put(0, 8, 8);
    w.put(40, 16, 8, true);
    w.put(protocol_number(e), 8, 8, true);
    w.put(64, 8, 8);
    for (int i = 0; i < 8; ++i) w.put((e.saddr[2 * i] << 8) | e.saddr[2 * i + 1], 16, 8, true);
    for (int i = 0; i < 8; ++i) w.put((e.daddr[2 * i] << 8) | e.daddr[2 * i + 1], 16, 8, true);
    write_transport(w, e, layout);
  }
}

// One packet holding `events` (sorted by time), appended to `w`.
inline void write_packet(BitWriter& w, std::span<const NetEvent> events, const TraceShape& shape) {
  const uint64_t start = w.position();
  w.set_origin(start);
  w.put(0xc1fc1fc1, 32, 8);  // magic
  w.put(0, 32, 8);           // stream_id
  if (shape.timestamps) {
    w.put(events.empty() ? 0 : events.front().time - shape.packet_begin_step_back, 64, 8);
    w.put(events.empty() ? 0 : events.back().time, 64, 8);
  }
  const uint64_t sizes_at = w.position();
  w.put(0, 64, 8);  // content_size, patched below
  w.put(0, 64, 8);  // packet_size
  const auto& names = event_names();
  uint64_t clock = events.empty() ? 0 : events.front().time - shape.packet_begin_step_back;  // timestamp_begin
  for (const NetEvent& e : events) {
    const auto id = is_filler(e.name) ? static_cast<std::ptrdiff_t>(names.size()) + std::stoi(e.name.substr(7))
                                      : std::find(names.begin(), names.end(), e.name) - names.begin();
    if (shape.event_header == EventHeader::kIdAndTime) {
      w.put(static_cast<uint64_t>(id), 32, 8);
      if (shape.timestamps) w.put(e.time, 64, 8);
    } else {
      // Compact where the id fits and the time is less than the short
      // timestamp's range after the stream clock (which then wraps once at
      // most), as LTTng chooses.
      const bool large = shape.event_header == EventHeader::kLttngLarge;
      const unsigned bits = large ? 32 : 27;
      const uint64_t extended = large ? 65535 : 31;
      w.align(8);
      if (static_cast<uint64_t>(id) < extended && e.time >= clock && e.time - clock < (uint64_t{1} << bits)) {
        w.put(static_cast<uint64_t>(id), large ? 16 : 5, large ? 8 : 1);
        w.put(e.time & ((uint64_t{1} << bits) - 1), bits, large ? 8 : 1);
      } else {
        w.put(extended, large ? 16 : 5, large ? 8 : 1);
        w.put(static_cast<uint64_t>(id), 32, 8);
        w.put(e.time, 64, 8);
      }
      clock = e.time;
    }
    write_payload(w, e, shape.layout, shape.string_fillers);
  }
  w.align(8);
  const uint64_t content_bits = w.position() - start;
  if (shape.packet_padding_bytes) {
    for (unsigned i = 0; i < *shape.packet_padding_bytes; ++i) w.put(0, 8, 8);
  } else if (shape.string_fillers) {
    w.align(64);
  }
  const uint64_t packet_bits = w.position() - start;
  std::vector<uint8_t>& bytes = w.bytes();
  for (int i = 0; i < 8; ++i) {
    bytes[sizes_at / 8 + i] = static_cast<uint8_t>(content_bits >> (8 * i));
    bytes[sizes_at / 8 + 8 + i] = static_cast<uint8_t>(packet_bits >> (8 * i));
  }
}

// The packets of one stream file.
inline std::vector<uint8_t> stream_file(const std::vector<NetEvent>& events, const TraceShape& shape) {
  BitWriter w;
  const std::size_t per_packet = shape.events_per_packet == 0 ? std::max<std::size_t>(events.size(), 1)
                                                              : shape.events_per_packet;
  std::size_t at = 0;
  do {
    const std::size_t n = std::min(per_packet, events.size() - at);
    write_packet(w, std::span<const NetEvent>(events).subspan(at, n), shape);
    at += n;
  } while (at < events.size());
  return std::move(w.bytes());
}

inline void write_file(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

inline void write_trace(const fs::path& directory, const TraceShape& shape, const std::vector<NetEvent>& events) {
  fs::create_directories(directory);
  write_file(directory / "metadata", metadata_text(shape));
  std::vector<std::vector<NetEvent>> streams(shape.streams);
  for (std::size_t i = 0; i < events.size(); ++i) streams[i % shape.streams].push_back(events[i]);
  for (std::size_t s = 0; s < shape.streams; ++s) {
    const std::vector<uint8_t> bytes = stream_file(streams[s], shape);
    std::ofstream(directory / ("channel0_" + std::to_string(s)), std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
}

// A small healthy trace of `host` in root/host: `segments` TCP segments,
// alternately sent and received 1 us apart, each followed by a filler
// event; two streams, 50 events a packet.
inline fs::path write_host_trace(const fs::path& root, const std::string& host, uint32_t segments) {
  std::vector<NetEvent> events;
  for (uint32_t i = 0; i < segments; ++i) {
    const uint64_t t = 10'000 + 1000 * static_cast<uint64_t>(i);
    events.push_back(tcp_segment(i % 2 == 0 ? "net_dev_queue" : "netif_receive_skb", t, i));
    events.push_back(tcp_segment("timer_init", t + 10, 0));
  }
  TraceShape shape;
  shape.hostname = host;
  shape.streams = 2;
  shape.events_per_packet = 50;
  const fs::path dir = root / host;
  write_trace(dir, shape, events);
  return dir;
}

// A fresh, empty directory under the system's temporary directory, removed
// when the object goes.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    std::string pattern = (fs::temp_directory_path() / ("tracesync-" + tag + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a temporary directory");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

}  // namespace tracesync::ingest::testing
