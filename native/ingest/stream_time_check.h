// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tracesync::ingest {

// Why a packet's times cannot be trusted.
enum class TimeDamage : uint8_t {
  kNone,
  kEventBeforePacket,      // an event earlier than its packet's timestamp_begin
  kEventAfterPacket,       // an event later than its packet's timestamp_end
  kEventStepsBack,         // an event earlier than the one before it in the packet
  kPacketEndsBeforeBegin,  // timestamp_end earlier than timestamp_begin
  kPacketBeforePrevious,   // it begins before the last good packet's last event (beyond the tolerance)
  kLaterPacketBeginsInside,  // the next packet begins before this one's last event, and agrees with the one before
};

// What to do with a packet's events, once its times are judged.
enum class PacketVerdict : uint8_t {
  kNone,  // no packet is waiting for a verdict
  kUse,
  kDrop,  // damaged: what_was_wrong() says why
};

// CTF time never goes back within a stream: a stream is one ring buffer of
// one CPU, its events in the order they were stamped, each packet's events
// within [timestamp_begin, timestamp_end], each packet after the one before.
// CTF has no checksums, but damaged time shows against that: a flipped bit
// in an event's timestamp, in a compact header's low bits (babeltrace2 then
// reads a wrap-around, seconds of it, into the events after it) or in a
// packet context's timestamps puts an event outside its packet, out of
// order, or a packet out of order. One check per stream, fed by whichever
// CTF reader reads it (docs/layout.md, "Time checks"), decides which
// packets are damaged; their events are not used for matching.
//
// A packet's verdict waits for the next packet's beginning: when two
// packets overlap, the one that disagrees with the last good packet before
// them is the damaged one. (babeltrace2 2.0 replaces the timestamp_end of
// LTTng < 2.11 traces by their packets' last event, so events that jumped
// ahead never show as after their packet's end; only the next packet shows
// them.) So a reader holds at most one packet's events while it waits.
//
// Times are the clock's raw values (cycles): comparisons need no conversion,
// so the per-event check is two compares. The tolerance is in cycles too.
//
// The one step back real LTTng traces show is between packets: LTTng 2.1
// packets begin up to 1.7 us before the previous packet's timestamp_end
// (measured on the scp fixture: 1,505 and 1,698 ns), never before its last
// event and never before its beginning; events never step back (scp and
// django-vote v1 and v2, every stream). The tolerance allows a packet to
// begin that much before the previous packet's last event.
class StreamTimeCheck {
 public:
  explicit StreamTimeCheck(uint64_t tolerance_cycles = 0) : tolerance_(tolerance_cycles) {}
  // A check whose tolerance is `tolerance_ns` of a clock of `frequency` Hz
  // (both readers build theirs so).
  static StreamTimeCheck for_clock(uint64_t tolerance_ns, uint64_t frequency) {
    const unsigned __int128 cycles = static_cast<unsigned __int128>(tolerance_ns) * frequency / 1'000'000'000;
    return StreamTimeCheck(cycles > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(cycles));
  }

  // A packet begins; `begin` is its timestamp_begin. Returns the verdict on
  // the packet before it, if one was waiting.
  PacketVerdict begin_packet(uint64_t begin);

  // An event of the current packet, in stream order. True when it is the
  // first to show the packet damaged: it goes back, before the packet or
  // the event before it. The events before that one, but the one just
  // before it (which may be the one that jumped ahead), are in order and
  // within the packet: a reader may keep them.
  bool event(uint64_t time) {
    if (current_.damage != TimeDamage::kNone) return false;
    if (time < current_.last) {
      damage(current_, time < current_.begin ? TimeDamage::kEventBeforePacket : TimeDamage::kEventStepsBack, time);
      return true;
    }
    current_.last = time;
    return false;
  }

  // The current packet ends; `end` is its timestamp_end. kDrop when its own
  // times are damaged; otherwise kNone: it waits for the next packet.
  PacketVerdict end_packet(uint64_t end);

  // The stream ends: the verdict on the packet still waiting, if any.
  PacketVerdict end_stream();

  // Whether what waits for a verdict (a packet that ended, or the current
  // one so far) shows no damage yet: for a stream that stops being read.
  bool holds_undamaged() const { return waiting_ || current_.damage == TimeDamage::kNone; }

  // About the packet last dropped: in words, with `ns` converting a raw time
  // for people ("packet 3 (from 0): an event at 1234 ns is after ...").
  template <typename ToNs>
  std::string what_was_wrong(ToNs ns) const;
  // The number (from 0) of the packet last dropped.
  uint64_t dropped_packet() const { return dropped_.number; }

 private:
  struct Packet {
    uint64_t number = 0;
    uint64_t begin = 0;
    uint64_t end = 0;
    uint64_t last = 0;  // its latest time so far (its beginning before any event)
    TimeDamage damage = TimeDamage::kNone;
    uint64_t offending = 0;  // the time that showed the damage
    uint64_t other = 0;      // the other packet's time it was compared with
  };
  static void damage(Packet& packet, TimeDamage kind, uint64_t time, uint64_t other = 0) {
    packet.damage = kind;
    packet.offending = time;
    packet.other = other;
  }
  // Whether a packet beginning at `begin` may follow one whose last time is `last`.
  bool may_follow(uint64_t last, uint64_t begin) const { return begin >= last || last - begin <= tolerance_; }
  PacketVerdict drop(const Packet& packet) {
    dropped_ = packet;
    return PacketVerdict::kDrop;
  }

  uint64_t tolerance_;
  uint64_t packets_ = 0;
  Packet current_;
  std::optional<Packet> waiting_;          // ended, undamaged in itself, waiting for the next one's beginning
  std::optional<uint64_t> reference_last_;  // the last good packet's last time
  Packet dropped_;
};

template <typename ToNs>
std::string StreamTimeCheck::what_was_wrong(ToNs ns) const {
  const auto at = [&](uint64_t cycles) { return std::to_string(ns(cycles)) + " ns"; };
  const Packet& p = dropped_;
  std::string text = "packet " + std::to_string(p.number) + " (from 0): ";
  switch (p.damage) {
    case TimeDamage::kNone: return text + "no damage";
    case TimeDamage::kEventBeforePacket:
      return text + "an event at " + at(p.offending) + " is before its packet's beginning (" + at(p.begin) + ")";
    case TimeDamage::kEventAfterPacket:
      return text + "an event at " + at(p.offending) + " is after its packet's end (" + at(p.end) + ")";
    case TimeDamage::kEventStepsBack:
      return text + "an event at " + at(p.offending) + " is earlier than the event before it";
    case TimeDamage::kPacketEndsBeforeBegin:
      return text + "it ends (" + at(p.end) + ") before it begins (" + at(p.begin) + ")";
    case TimeDamage::kPacketBeforePrevious:
      return text + "it begins at " + at(p.begin) + ", before the previous packet's last event (" + at(p.other) + ")";
    case TimeDamage::kLaterPacketBeginsInside:
      return text + "its times run to " + at(p.offending) + ", past the beginning of the next packet (" +
             at(p.other) + "), which follows the packet before it";
  }
  return text + "damaged time";
}

}  // namespace tracesync::ingest
