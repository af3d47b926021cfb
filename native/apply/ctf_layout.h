// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <babeltrace2/babeltrace.h>

#include <bit>
#include <cstdint>

namespace tracesync::apply {

// The layout of the CTF 1.8 copies the full rewrite writes. The metadata
// (tsdl_metadata.h) declares it and the writer (ctf_stream_file.h) follows
// it; both read this one description.
//
// Everything is little-endian and byte-aligned: every field starts on a
// byte, an N-bit integer takes ceil(N / 8) bytes (its value in the low N
// bits), a real 4 or 8 bytes, a string its bytes and a NUL. Simple and fast
// to write; slightly larger than LTTng's packed layout.
static_assert(std::endian::native == std::endian::little, "the writer copies integers as the host holds them");

inline constexpr uint32_t kPacketMagic = 0xC1FC1FC1;

// Which of CTF's optional packet and event header fields a stream class's
// copy carries, from what its IR says the source had.
//
//   packet header:  magic u32, [trace uuid u8[16]], stream_id u64, stream_instance_id u64
//   packet context: [timestamp_begin u64], [timestamp_end u64], content_size u64,
//                   packet_size u64, [events_discarded u64], [packet_seq_num u64],
//                   then the stream class's own packet context members
//   event header:   id u32, [timestamp u64]
struct StreamLayout {
  bool timestamps = false;        // events (and packets) have a default clock
  bool timestamp_begin = false;   // packets have a beginning time
  bool timestamp_end = false;     // packets have an end time
  bool events_discarded = false;  // discarded events are counted
  bool packet_seq_num = false;    // discarded packets are counted

  static StreamLayout of(const bt_stream_class* stream_class) {
    StreamLayout layout;
    layout.timestamps = bt_stream_class_borrow_default_clock_class_const(stream_class) != nullptr;
    layout.timestamp_begin = bt_stream_class_packets_have_beginning_default_clock_snapshot(stream_class);
    layout.timestamp_end = bt_stream_class_packets_have_end_default_clock_snapshot(stream_class);
    layout.events_discarded = bt_stream_class_supports_discarded_events(stream_class);
    layout.packet_seq_num = bt_stream_class_supports_discarded_packets(stream_class);
    return layout;
  }
};

}  // namespace tracesync::apply
