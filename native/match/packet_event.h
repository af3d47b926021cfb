// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "match/app_key.h"
#include "model/point.h"

namespace tracesync::match {

// A trace of the experiment, numbered densely in the order it was given.
using TraceIndex = uint32_t;

enum class Direction : uint8_t { kSend, kReceive };

// Which stream file of its trace an event was read from: an index into
// ingest::TraceInfo::stream_files. kNoStream when the reader cannot say
// (babeltrace2 names ports, not files; extracts and match files keep none).
using StreamIndex = uint16_t;
inline constexpr StreamIndex kNoStream = 0xFFFF;

// What kind of message an event sends or receives: 0 for a TCP segment
// (kernel network events), 1.. for the application kinds of `--messages`,
// numbered in the order the user declared them. A kind is never matched
// with another.
using MessageKind = uint8_t;
inline constexpr MessageKind kTcpKind = 0;
inline constexpr std::size_t kMaxAppKinds = 255;

// What the reader could make of a network event's payload.
enum class Layout : uint8_t {
  kTcp,      // a TCP segment: the key fields are set
  kNonTcp,   // another transport, or no IP header at all: not matched
  kUnknown,  // a payload layout the reader cannot decode: not matched
  // (never a TCP segment) an application event whose key does not fit in
  // AppKey: not matched, counted (MatchStatistics::key_too_long)
  kKeyTooLong,
};

// The fields of the default key (Trace Compass's): they identify a segment
// on both of its ends.
struct TcpFields {
  uint32_t seq = 0;
  uint32_t ack_seq = 0;
  uint16_t flags = 0;  // as recorded: 9 bits in lttng-modules 2.9+, a 16-bit word in the 2.1 addons
};

// The extra fields of the strict key.
struct Endpoints {
  uint8_t family = 0;                // 4 or 6; 0 when the event carries no addresses
  std::array<uint8_t, 16> saddr{};   // network byte order; IPv4 in the first 4 bytes
  std::array<uint8_t, 16> daddr{};
  uint16_t source_port = 0;
  uint16_t dest_port = 0;

  bool present() const { return family != 0; }
  friend bool operator==(const Endpoints&, const Endpoints&) = default;
};

// One send or receive of one message, whatever carried it, as the matcher
// needs it (docs/layout.md, "The reading path").
struct PacketEvent {
  model::Nanoseconds time = 0;  // ns from origin, on the trace's own clock
  TraceIndex trace = 0;
  Direction direction = Direction::kSend;
  Layout layout = Layout::kTcp;  // kTcp: the key is set (tcp and endpoints, or app for an application kind)
  MessageKind kind = kTcpKind;
  StreamIndex stream = kNoStream;  // in the byte padding before `tcp`: the event's size is unchanged
  TcpFields tcp;         // kind kTcpKind only
  Endpoints endpoints;   // kind kTcpKind only
  AppKey app;            // application kinds only
};

}  // namespace tracesync::match
