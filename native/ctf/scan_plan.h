// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ctf/clock_time.h"
#include "ctf/event_header_reader.h"
#include "ctf/read_plan.h"
#include "ctf/straight_plan.h"
#include "ctf/trace_class.h"

namespace tracesync::ctf {

// Which fields of an event class someone needs (an EventSelection compiled
// against a trace): nullopt for an event class no one needs, whose events
// are only counted and skipped.
using EventRequests = std::function<std::optional<std::vector<FieldRequest>>(const EventClass&)>;

// The packet header and context members a scanner reads, wherever they are.
namespace packet_header_slot {
enum : int { kMagic, kUuid, kStreamId, kInstance, kCount };
}
namespace packet_context_slot {
enum : int { kPacketSize, kContentSize, kBeginTime, kDiscarded, kEndTime, kCount };
}

// Every read plan of a trace, compiled once from its TraceClass: the packet
// header's, and per stream class its packet context's, event header's, event
// context's and each event class's.
class ScanPlan {
 public:
  struct EventPlan {
    const EventClass* event_class = nullptr;
    ReadPlan plan;  // the stream's event context, the class's context and payload
    // The plan regrouped into segments read without the interpreter, for
    // the events that run it (selected, or not skipped by steps), where
    // the plan allows one; the interpreter reads what it declines.
    std::optional<StraightPlan> straight;
    bool selected = false;  // its requests are captured; the visitor hears of it
    std::size_t user = 0;   // free for whoever selected it (an index of theirs)
  };
  struct StreamPlan {
    const StreamClass* stream_class = nullptr;
    const ClockClass* clock = nullptr;  // its default clock
    ClockTime time;
    std::size_t registers = 0;
    ReadPlan packet_context, event_header;
    // LTTng's compact or large event header, read without `event_header`'s
    // plan; nullopt for any other header.
    std::optional<EventHeaderReader> fast_header;
    std::vector<std::unique_ptr<EventPlan>> by_id;  // dense up to kDenseIds
    // By event class id, as by_id: how to skip an event no one reads whose
    // layout after its header is fixed (one alignment, then a number of
    // bits), so that skipping it is one load and one addition; or, marked
    // kStrings, whose layout is fixed runs and NUL-ended strings (its
    // `bits` then say where its steps begin in string_skips). Any other
    // id (selected, variable, undeclared) is neither: read through by_id.
    struct FixedSkip {
      static constexpr uint32_t kNotFixed = UINT32_MAX;
      static constexpr uint32_t kStrings = UINT32_MAX - 1;
      uint32_t alignment_mask = kNotFixed;  // the alignment in bits, less one
      uint32_t bits = 0;
      bool fixed() const { return alignment_mask < kStrings; }
    };
    std::vector<FixedSkip> fixed_skips;
    // The steps of the events marked kStrings, each event's in a row: an
    // alignment and a fixed run, maybe then a string, up to its last step.
    struct StringStep {
      uint32_t alignment_mask = 0;  // the alignment in bits, less one
      uint32_t bits = 0;            // a fixed run
      bool string = false;          // then a NUL-ended string
      bool last = false;            // the event's last step
    };
    std::vector<StringStep> string_skips;
    // Moves `at` past an event of steps `step`, or false where the event
    // would not fit in the packet (the event's plan then says why): the
    // same positions as ReadPlan::skip, without the EventPlan. Positions
    // only grow, so the fixed runs are checked where a string begins (its
    // search must start in the packet) and once at the end: one bounds
    // check an event, not one a step, with the same verdict.
    [[gnu::always_inline]] static bool skip_strings(const StringStep* step, const uint8_t* data, uint64_t& at,
                                                    uint64_t limit) {
      if ((at & 7) != 0) return skip_strings_by_bits(step, data, at, limit);
      // From a whole byte (nearly always), in bytes: each string's search
      // waits for the end of the one before, and bits would add a shift
      // and a multiplication to that wait at every string.
      const uint64_t limit_bytes = limit / 8;
      uint64_t offset = at / 8;
      for (const StringStep* s = step;; ++s) {
        if ((s->bits & 7) != 0) [[unlikely]] return skip_strings_by_bits(step, data, at, limit);
        // An alignment below a byte is kept by a whole byte.
        offset = align_up(offset, s->alignment_mask >> 3) + s->bits / 8;
        if (s->string) {
          if (offset > limit_bytes) return false;
          const uint8_t* end = ReadPlan::find_nul(data + offset, data + limit_bytes);
          if (end == nullptr) return false;
          offset = static_cast<uint64_t>(end - data) + 1;
        }
        if (s->last) break;
      }
      if (offset > limit / 8) return false;
      at = offset * 8;
      return true;
    }
    // The same, in bits, from any position.
    [[gnu::noinline]] static bool skip_strings_by_bits(const StringStep* step, const uint8_t* data, uint64_t& at,
                                                       uint64_t limit) {
      uint64_t position = at;
      for (;; ++step) {
        position = align_up(position, step->alignment_mask) + step->bits;
        if (step->string) {
          if (position > limit) return false;
          const uint8_t* end = ReadPlan::find_nul(data + position / 8, data + limit / 8);
          if (end == nullptr) return false;
          position = static_cast<uint64_t>(end - data + 1) * 8;
        }
        if (step->last) break;
      }
      if (position > limit) return false;
      at = position;
      return true;
    }
    std::map<uint64_t, std::unique_ptr<EventPlan>> sparse;  // beyond
    const EventPlan* event(uint64_t id) const {
      if (id < by_id.size()) return by_id[id].get();
      const auto found = sparse.find(id);
      return found == sparse.end() ? nullptr : found->second.get();
    }
  };

  // nullopt, with `unsupported` said, when some part of the trace is beyond
  // what plans read (babeltrace2 then reads the trace).
  static std::optional<ScanPlan> compile(TraceClass trace, const EventRequests& requests, std::string* unsupported);

  const TraceClass& trace() const { return *trace_; }
  const ReadPlan& packet_header() const { return packet_header_; }
  std::size_t header_registers() const { return header_registers_; }
  const StreamPlan* stream(uint64_t id) const {
    const auto found = streams_.find(id);
    return found == streams_.end() ? nullptr : found->second.get();
  }
  const std::map<uint64_t, std::unique_ptr<StreamPlan>>& streams() const { return streams_; }
  // Every selected event plan, to mark with `user`.
  std::vector<EventPlan*> selected();

 private:
  static constexpr uint64_t kDenseIds = 1 << 16;
  std::unique_ptr<TraceClass> trace_;  // the plans point into it
  ReadPlan packet_header_;
  std::size_t header_registers_ = 0;
  std::map<uint64_t, std::unique_ptr<StreamPlan>> streams_;
};

}  // namespace tracesync::ctf
