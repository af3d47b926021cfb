// SPDX-License-Identifier: EPL-2.0
#include "apply/every_kind_trace.h"

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <vector>

#include "support/run_command.h"

namespace tracesync::apply::testing {
namespace {

constexpr const char* kMetadata = R"(/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 16; align = 8; signed = false; } := uint16_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;

trace {
	major = 1;
	minor = 8;
	uuid = "0a1b2c3d-4e5f-4061-8273-8495a6b7c8d9";
	byte_order = le;
	packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id; };
};

env {
	hostname = "every-kind";
	domain = "kernel";
	tracer_name = "handmade";
	tracer_major = 1;
	quote = "a \"quoted\" word";
};

clock {
	name = monotonic;
	uuid = "11111111-2222-4333-8444-555555555555";
	description = "The test's clock";
	freq = 1000000000;
	precision = 7;
	offset_s = 1600000000;
	offset = 250;
	absolute = true;
};

typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_t;

stream {
	id = 0;
	event.header := struct { uint16_t id; uint64_clock_t timestamp; };
	packet.context := struct {
		uint64_clock_t timestamp_begin;
		uint64_clock_t timestamp_end;
		uint64_t content_size;
		uint64_t packet_size;
		uint64_t events_discarded;
		uint32_t _cpu_id;
	};
	event.context := struct { integer { size = 32; align = 8; signed = true; } _tid; };
};

event {
	name = "every:kind";
	id = 0;
	stream_id = 0;
	loglevel = 13;
	model.emf.uri = "http://example.com/every";
	context := struct { uint8_t _flag; };
	fields := struct {
		integer { size = 5; align = 8; signed = false; base = 2; } _small;
		integer { size = 64; align = 8; signed = true; base = 10; } _negative;
		integer { size = 32; align = 8; signed = false; base = 16; } _hex;
		integer { size = 16; align = 8; signed = false; base = 8; } _octal;
		floating_point { exp_dig = 8; mant_dig = 24; align = 8; } _single;
		floating_point { exp_dig = 11; mant_dig = 53; align = 8; } _double;
		string _name;
		integer { size = 8; align = 8; signed = false; encoding = UTF8; } _comm[8];
		uint16_t _words[3];
		uint8_t _count;
		uint32_t _values[_count];
		struct { uint8_t _a; integer { size = 32; align = 8; signed = true; } _b; } _pair;
		enum : integer { size = 8; align = 8; signed = true; } {
			"minus" = -2 ... -1, "zero" = 0, "many" = 1 ... 100, "_odd" = 101, "_odd" = 103
		} _signed_enum;
		enum : uint8_t { "_unknown" = 0, "_ipv4" = 4, "_ipv6" = 6 } _network_header_type;
		variant <_network_header_type> {
			struct { } _unknown;
			struct {
				uint32_t _saddr;
				enum : uint8_t { "_udp" = 17, "_tcp" = 6 } _transport_type;
				variant <_transport_type> {
					struct { uint16_t _port; } _udp;
					struct { uint32_t _seq; } _tcp;
				} _transport;
			} _ipv4;
			struct { uint8_t _saddr[16]; } _ipv6;
		} _network_header;
	};
};

event {
	name = "empty";
	id = 1;
	stream_id = 0;
	fields := struct { };
};
)";

// An event class without events, whose fields a test chooses.
constexpr const char* kExtraEventHead = R"(
event {
	name = "extra";
	id = 2;
	stream_id = 0;
	fields := struct {
)";
constexpr const char* kExtraEventTail = R"(	};
};
)";

// Little-endian bytes, as the metadata says.
struct Bytes {
  std::vector<uint8_t> data;
  void put(uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) data.push_back(static_cast<uint8_t>(value >> (8 * i)));
  }
  void put_string(const std::string& s) {
    data.insert(data.end(), s.begin(), s.end());
    data.push_back(0);
  }
  template <typename T>
  void put_raw(T value) {
    uint8_t raw[sizeof value];
    std::memcpy(raw, &value, sizeof value);
    data.insert(data.end(), raw, raw + sizeof value);
  }
};

constexpr uint8_t kUuid[16] = {0x0a, 0x1b, 0x2c, 0x3d, 0x4e, 0x5f, 0x40, 0x61,
                               0x82, 0x73, 0x84, 0x95, 0xa6, 0xb7, 0xc8, 0xd9};

struct Network {
  uint8_t type;          // 0, 4, 6
  uint8_t transport;     // 17 or 6 (ipv4)
  uint32_t value;        // port or seq (ipv4), first address byte (ipv6)
};

void every_event(Bytes& b, uint64_t at, int seed, Network network) {
  b.put(0, 2);
  b.put(at, 8);
  b.put(static_cast<uint32_t>(1000 + seed), 4);   // tid
  b.put(static_cast<uint8_t>(seed & 1), 1);       // flag
  b.put(static_cast<uint8_t>(seed % 32), 1);      // small, 5 bits
  b.put(static_cast<uint64_t>(-1234567890123LL * seed), 8);
  b.put(0xdeadbeefu + seed, 4);
  b.put(0755 + seed, 2);
  b.put_raw(1.5f * static_cast<float>(seed));
  b.put_raw(-2.25e-300 * seed);
  b.put_string("name " + std::to_string(seed));
  const char comm[8] = {'s', 'c', 'p', static_cast<char>('0' + seed), 0, 'x', 'y', 'z'};
  for (const char c : comm) b.put(static_cast<uint8_t>(c), 1);
  for (int i = 0; i < 3; ++i) b.put(static_cast<uint16_t>(seed * 10 + i), 2);
  const uint8_t count = static_cast<uint8_t>(seed % 4);
  b.put(count, 1);
  for (int i = 0; i < count; ++i) b.put(static_cast<uint32_t>(seed * 100 + i), 4);
  b.put(static_cast<uint8_t>(seed), 1);
  b.put(static_cast<uint32_t>(-seed), 4);
  const int8_t enums[] = {-2, 0, 50, 101, 103};
  b.put(static_cast<uint8_t>(enums[seed % 5]), 1);
  b.put(network.type, 1);
  if (network.type == 4) {
    b.put(0x0a000001u + seed, 4);
    b.put(network.transport, 1);
    b.put(network.value, network.transport == 17 ? 2 : 4);
  } else if (network.type == 6) {
    for (int i = 0; i < 16; ++i) b.put(static_cast<uint8_t>(network.value + i), 1);
  }
}

void empty_event(Bytes& b, uint64_t at, int seed) {
  b.put(1, 2);
  b.put(at, 8);
  b.put(static_cast<uint32_t>(1000 + seed), 4);
}

// One packet around `events`.
void packet(Bytes& stream, uint64_t begin, uint64_t end, uint64_t discarded, const Bytes& events) {
  Bytes p;
  p.put(0xC1FC1FC1u, 4);
  p.data.insert(p.data.end(), kUuid, kUuid + 16);
  p.put(0, 4);
  p.put(begin, 8);
  p.put(end, 8);
  const uint64_t bits = (p.data.size() + 8 + 8 + 8 + 4 + events.data.size()) * 8;
  p.put(bits, 8);
  p.put(bits, 8);
  p.put(discarded, 8);
  p.put(3, 4);  // cpu_id
  p.data.insert(p.data.end(), events.data.begin(), events.data.end());
  stream.data.insert(stream.data.end(), p.data.begin(), p.data.end());
}

}  // namespace

void write_every_kind_trace(const std::string& directory) { write_every_kind_trace(directory, ""); }

void write_every_kind_trace(const std::string& directory, const std::string& extra_event_fields) {
  std::filesystem::create_directories(directory);
  std::string metadata = kMetadata;
  if (!extra_event_fields.empty()) metadata += kExtraEventHead + extra_event_fields + kExtraEventTail;
  tracesync::testing::write_file(directory + "/metadata", metadata);
  Bytes first;
  every_event(first, 1000, 1, {4, 17, 8080});
  every_event(first, 2000, 2, {6, 0, 0x20});
  every_event(first, 3000, 3, {4, 6, 123456789});
  Bytes second;
  empty_event(second, 4500, 4);
  every_event(second, 5500, 5, {0, 0, 0});
  Bytes stream;
  packet(stream, 500, 3500, 0, first);
  packet(stream, 4000, 6000, 3, second);
  tracesync::testing::write_file(directory + "/stream_a", std::string(stream.data.begin(), stream.data.end()));
}

}  // namespace tracesync::apply::testing
