// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "ctf/read_plan.h"
#include "ctf/trace_class.h"

namespace tracesync::ctf {

// The event headers most traces have, read without a plan. Every LTTng
// stream class has one of LTTng's two (lttng-modules and lttng-ust alike):
//
//   compact: enum : 5 bits { compact = 0 ... 30, extended = 31 } id;
//            variant <id> { struct { 27-bit timestamp } compact;
//                           struct { uint32 id; uint64 timestamp } extended; } v;
//   large:   the same with a 16-bit id (0 ... 65534, 65535) and a 32-bit
//            compact timestamp.
//
// babeltrace2's sink.ctf.fs (and so `tracesync simulate`) writes a third:
//
//   id and time: struct { uint64 id; uint64 timestamp; }
//
// Recognised from the field classes exactly (sizes, alignments, byte order,
// the enumeration's ranges, the options, the clock); anything else is read
// by the stream's event header plan. Where the header might not fit in the
// packet's content, `read` declines and the plan reads it (and says what is
// wrong), so both paths give the same events and the same problems.
class EventHeaderReader {
 public:
  enum class Layout : uint8_t { kCompact, kLarge, kIdAndTime };

  // `clock`: the name of the stream's clock, which both timestamps must map
  // to; `id_register`: where the stream's plans keep the header's `id` (the
  // variant's selector), -1 when none; `other_registers`: whether any other
  // header field is referred to (then the plan reads it).
  static std::optional<EventHeaderReader> recognise(const FieldClass& header, const std::string& clock, int id_register,
                                                   bool other_registers);

  Layout layout() const { return layout_; }

  // Reads the header at `at` (in bits from `data`; aligned first) as the
  // plan would, for a reader of layout `L` (layout() == L: a scanner's loop
  // is compiled for each layout): the event class id into `id`, the
  // stream's clock into `clock` (wrap-around applied), the id into its
  // register among `registers` if the plans have one, `at` past it. False,
  // with nothing changed, when it might not end by `limit`.
  template <Layout L>
  bool read_as(const uint8_t* data, uint64_t& at, uint64_t limit, uint64_t& id, uint64_t& clock,
               uint64_t* registers) const {
    const uint64_t start = align_up(at, alignment_ - 1);
    // A position is far below 2^64 bits: the sum does not overflow.
    if (start + kLongest[static_cast<int>(L)] > limit) [[unlikely]] {
      // Copies: the caller's position and clock keep their registers
      // (their addresses never leave its loop).
      uint64_t moved = at, new_id = id, new_clock = clock;
      if (!read_near_end(data, moved, limit, new_id, new_clock, registers)) return false;
      at = moved;
      id = new_id;
      clock = new_clock;
      return true;
    }
    read_at_as<L>(data, start, at, id, clock, registers);
    return true;
  }

 private:
  EventHeaderReader(Layout layout, uint32_t alignment, int id_register)
      : layout_(layout), alignment_(alignment), id_register_(id_register) {}
  // Bits of the longest form of each layout (LTTng's extended header).
  static constexpr uint64_t kLongest[3] = {8 + 32 + 64, 16 + 32 + 64, 64 + 64};
  bool read_near_end(const uint8_t* data, uint64_t& at, uint64_t limit, uint64_t& id, uint64_t& clock,
                     uint64_t* registers) const;

  static uint32_t load32(const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  static uint64_t load64(const uint8_t* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  // The header at `start` (aligned, known to fit): its id, the clock.
  template <Layout L>
  void read_at_as(const uint8_t* data, uint64_t start, uint64_t& at, uint64_t& id, uint64_t& clock,
                  uint64_t* registers) const {
    const uint8_t* p = data + start / 8;
    uint64_t selector;
    if constexpr (L == Layout::kIdAndTime) {
      selector = id = load64(p);
      clock = load64(p + 8);
      at = start + 128;
    } else if constexpr (L == Layout::kCompact) {
      const uint32_t word = load32(p);
      selector = word & 0x1f;
      if (selector != 31) {
        id = selector;
        update_clock(clock, word >> 5, 27);
        at = start + 32;
      } else {
        id = load32(p + 1);
        clock = load64(p + 5);
        at = start + 8 + 32 + 64;
      }
    } else {
      uint16_t word;
      std::memcpy(&word, p, 2);
      selector = word;
      if (selector != 65535) {
        id = selector;
        update_clock(clock, load32(p + 2), 32);
        at = start + 16 + 32;
      } else {
        id = load32(p + 2);
        clock = load64(p + 6);
        at = start + 16 + 32 + 64;
      }
    }
    if (id_register_ >= 0) registers[id_register_] = selector;
  }

  Layout layout_;
  uint32_t alignment_;  // the header structure's, in bits
  int id_register_;
};

}  // namespace tracesync::ctf
