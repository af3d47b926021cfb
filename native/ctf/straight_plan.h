// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ctf/read_plan.h"

namespace tracesync::ctf {

// A read plan regrouped for the events a scanner decodes (the network
// events' payloads): segments of fields at fixed offsets, each checked
// against the packet once and read without dispatch on the fields' kinds,
// joined by what the data decides (a string's end, a variant's option).
// The interpreter runs a TCP event's plan one instruction at a time, and
// its switch on each instruction was most of the scanner's mispredicted
// branches (docs/performance.md, s40).
//
// It gives what ReadPlan::run gives (the position, the registers, the
// captures) where it reads an event, and declines where anything is short
// of that certainty: a segment not all in the packet, a position off a
// byte, a variant without the option. The caller then runs the plan's
// interpreter from the event's start, which says what is wrong; nothing
// a decline leaves (registers, captures) differs from what that run
// overwrites. Plans that update the clock, read LEB128 integers, or loop
// (but over a captured array of a fixed number of integers, read in line)
// have no straight form (compile() gives nullopt).
class StraightPlan {
 public:
  static std::optional<StraightPlan> compile(const ReadPlan& plan);

  // From `at` (bits from `data`) up to `limit`: true with `at` moved past
  // the fields and the registers and captures written; false, `at`
  // unchanged, where the interpreter must read the event instead. The
  // captures are to be reset as for ReadPlan::run.
  bool run(const uint8_t* data, uint64_t& at, uint64_t limit, uint64_t* registers, CapturedField* captures) const;

 private:
  // One integer, captured byte array or appended array element of a segment.
  struct Read {
    uint64_t byte = 0;      // from the segment's start, where its 8-byte load begins (or its bytes)
    uint64_t mask = 0;      // its bits, after the shift
    uint8_t shift = 0;      // of the loaded word (byte-swapped first when big-endian)
    uint8_t sign_shift = 0; // 64 - its size when signed and narrower: up and back down
    bool big = false;
    bool append = false;    // an array's: an element whose `count` bits are appended as bytes,
                            // else a captured byte array of `count` bytes
    int32_t reg = -1;
    int32_t capture = -1;
    uint32_t count = 0;
  };
  enum class End : uint8_t { kNext, kString, kVariant, kDone };
  struct Segment {
    uint64_t alignment_mask = 0;  // the position aligned first (bits, less one)
    uint64_t bits = 0;            // then this many bits of fixed fields
    uint64_t room = 0;            // bits from its start that its reads touch (>= bits)
    uint32_t first_read = 0;      // its integers, then its arrays
    uint32_t integers = 0, arrays = 0;
    End end = End::kDone;
    int32_t string_capture = -1;  // kString: where its bytes go
    uint32_t next = 0;            // kNext, kString: the segment after it
    uint32_t table = 0;           // kVariant
  };
  struct Table {
    int32_t selector = -1;  // a register
    int32_t capture = -1;   // the option's index goes there
    bool is_signed = false;
    struct Choice {
      int64_t lower, upper;
      uint32_t option, segment;
    };
    std::vector<Choice> choices;
    static constexpr uint32_t kNone = UINT32_MAX;
    uint32_t otherwise = kNone;  // an optional field left out, else none
    // By the selector's value, where every choice lies in [0, 256): the
    // choice taken (its index) or kNone, as the choices in order decide.
    std::vector<uint32_t> dense;
  };

  std::vector<Segment> segments_;
  std::vector<Read> reads_;
  std::vector<Table> tables_;
};

}  // namespace tracesync::ctf
