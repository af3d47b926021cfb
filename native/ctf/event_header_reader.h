// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
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
  // plan would: the event class id into `id`, the clock into `state`, `at`
  // past it. False, with nothing changed, when it might not end by `limit`.
  bool read(const uint8_t* data, uint64_t& at, uint64_t limit, uint64_t& id, ReadState& state) const {
    const uint64_t start = (at + alignment_ - 1) & ~uint64_t{alignment_ - 1};
    if (start > limit || limit - start < kLongest[static_cast<int>(layout_)]) return read_near_end(data, at, limit, id, state);
    read_at(data, start, at, id, state);
    return true;
  }

 private:
  EventHeaderReader(Layout layout, uint32_t alignment, int id_register)
      : layout_(layout), alignment_(alignment), id_register_(id_register) {}
  // Bits of the longest form of each layout (LTTng's extended header).
  static constexpr uint64_t kLongest[3] = {8 + 32 + 64, 16 + 32 + 64, 64 + 64};
  bool read_near_end(const uint8_t* data, uint64_t& at, uint64_t limit, uint64_t& id, ReadState& state) const;
  void read_at(const uint8_t* data, uint64_t start, uint64_t& at, uint64_t& id, ReadState& state) const;

  Layout layout_;
  uint32_t alignment_;  // the header structure's, in bits
  int id_register_;
};

}  // namespace tracesync::ctf
