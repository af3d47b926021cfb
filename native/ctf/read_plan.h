// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ctf/trace_class.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tracesync::ctf {

// A field someone wants the value of: its names from the root of `scope`
// (one leading underscore aside), through a variant by the option's name:
// {"network_header", "ipv4", "transport_header", "tcp", "seq"}.
struct FieldRequest {
  Scope scope = Scope::kEventPayload;
  std::vector<std::string> names;
};

// What a plan's last run kept of one requested field.
struct CapturedField {
  bool present = false;   // the field was read (not in an option not taken)
  uint64_t value = 0;     // an integer (sign-extended), a variant's option index, or a string's length
  const uint8_t* text = nullptr;  // a string: its bytes, in the mapping (valid while it is)
  uint8_t byte_count = 0; // an array or sequence of integers: its elements' bytes,
  std::array<uint8_t, 16> bytes{};  // most significant first, the first 16

  // Appends `count` bytes of a captured byte array, keeping the first 16.
  // An IPv4 or IPv6 address is a copy of a constant size, inline.
  void keep_bytes(const uint8_t* from, uint64_t count) {
    if (count > 0) present = true;
    const std::size_t kept = count < bytes.size() - byte_count ? count : bytes.size() - byte_count;
    if (kept == 4) {
      std::memcpy(bytes.data() + byte_count, from, 4);
    } else if (kept == 16) {
      std::memcpy(bytes.data() + byte_count, from, 16);
    } else {
      std::memcpy(bytes.data() + byte_count, from, kept);
    }
    byte_count = static_cast<uint8_t>(byte_count + kept);
  }
};

// The registers of one stream: the integers that sequences and variants
// refer to, and its clock. A plan reads and writes them.
struct ReadState {
  std::vector<uint64_t> registers;
  uint64_t clock = 0;  // the default clock's value in cycles, wrap-around applied
};

// The stream's clock after a field of `bits` low bits of it (CTF 1.8, 8;
// CTF 2, 6.3): a value below the clock's low bits means they wrapped.
inline void update_clock(uint64_t& clock, uint64_t value, unsigned bits) {
  if (bits >= 64) {
    clock = value;
    return;
  }
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  const uint64_t low = value & mask;
  if (low < (clock & mask)) clock += uint64_t{1} << bits;
  clock = (clock & ~mask) | low;
}
inline void update_clock(ReadState& state, uint64_t value, unsigned bits) { update_clock(state.clock, value, bits); }

// `position` rounded up to a multiple of `mask + 1` (a power of two). Most
// positions a scanner meets are aligned already, so this is a branch the
// processor predicts rather than arithmetic the next reads wait for: each
// event's position depends on the one before, and its reads on its position.
inline uint64_t align_up(uint64_t position, uint64_t mask) {
  if ((position & mask) != 0) [[unlikely]] position = (position + mask) & ~mask;
  return position;
}

// Where a plan reads: the mapped bytes of one packet, read from `position`
// (in bits from `data`) up to `limit` (in bits; never beyond).
struct BitCursor {
  const uint8_t* data = nullptr;
  uint64_t position = 0;
  uint64_t limit = 0;
};

// How to read one scope (or an event class's context and payload): compiled
// once, run for every packet or event. Fields no one asked for are skipped:
// a fixed-size run by one addition, a string by a search for its NUL, an
// array of fixed-size elements by one multiplication; variants, optionals
// and sequences read only their selector or length, LEB128 integers their
// bytes.
class ReadPlan {
 public:
  ReadPlan() = default;
  ReadPlan(ReadPlan&&) = default;
  ReadPlan& operator=(ReadPlan&&) = default;
  ReadPlan(const ReadPlan&) = delete;  // its instructions point into names_
  ReadPlan& operator=(const ReadPlan&) = delete;

  // Runs the plan from `cursor`, moving it past the fields; false with
  // `problem` said (the cursor then at the field that could not be read).
  bool run(BitCursor& cursor, ReadState& state, CapturedField* captures, std::string& problem) const;

  std::size_t captures() const { return captures_; }
  bool empty() const { return code_.empty(); }

  // A plan that reads nothing it keeps (no capture, register or clock) only
  // moves past its fields: it is then also a few skip steps, each an
  // alignment, a number of bits, then maybe a UTF-8 string, run without
  // the interpreter (a fixed-size layout is one step: one addition). False
  // where the fields might not be in the packet: run() then says what is
  // wrong. Plans that keep something have no steps (false at once).
  bool skips() const { return !skip_steps_.empty(); }
  // A plan whose skip is one step without a string (a fixed-size layout):
  // its alignment and bits, for a table of such skips (ScanPlan's).
  struct FixedSkip {
    uint64_t alignment, bits;
  };
  std::optional<FixedSkip> fixed_skip() const {
    if (skip_steps_.size() != 1 || skip_steps_[0].string) return std::nullopt;
    return FixedSkip{skip_steps_[0].alignment, skip_steps_[0].bits};
  }
  // Its skip steps, for a table of skips of fixed runs and strings
  // (ScanPlan's); empty where skips() is false.
  struct SkipStep {
    uint64_t alignment = 1;  // bits, a power of two
    uint64_t bits = 0;
    bool string = false;  // then a NUL-ended UTF-8 string
  };
  const std::vector<SkipStep>& skip_steps() const { return skip_steps_; }
  bool skip(const uint8_t* data, uint64_t& at, uint64_t limit) const {
    if (skip_steps_.empty()) return false;
    uint64_t position = at;
    for (const SkipStep& step : skip_steps_) {
      position = align_up(position, step.alignment - 1);
      if (position > limit || limit - position < step.bits) return false;
      position += step.bits;
      if (step.string) {
        const uint8_t* end = find_nul(data + position / 8, data + limit / 8);
        if (end == nullptr) return false;
        position = static_cast<uint64_t>(end - data + 1) * 8;
      }
    }
    at = position;
    return true;
  }

  // The first NUL byte from `p` on, before `end`; nullptr when none. Most
  // strings of a kernel trace are short (task and device names): their end
  // is found 16 bytes at a time (SSE2) or a word at a time, without a
  // call; longer ones go to memchr.
  static const uint8_t* find_nul(const uint8_t* p, const uint8_t* end) {
#if defined(__SSE2__)
    for (int block = 0; block < 2 && end - p >= 16; ++block, p += 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const int zeros = _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_setzero_si128()));
      if (zeros != 0) return p + __builtin_ctz(static_cast<unsigned>(zeros));
    }
#endif
    for (int word = 0; word < 4 && end - p >= 8; ++word, p += 8) {
      uint64_t w;
      std::memcpy(&w, p, 8);
      // A byte's high bit set where it is zero (a little-endian host: the
      // lowest such bit is the first zero byte; later ones may be false).
      const uint64_t zeros = (w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL;
      if (zeros != 0) return p + (__builtin_ctzll(zeros) >> 3);
    }
    return static_cast<const uint8_t*>(std::memchr(p, 0, static_cast<std::size_t>(end - p)));
  }

  // What a plan is made of (PlanCompiler writes it, run() follows it).
  struct Instruction {
    enum class Op : uint8_t {
      kAlign, kSkip, kInteger, kString, kSkipElements, kLoop, kLoopEnd, kVariant, kJump,
      kVarInt,  // a LEB128 integer (CTF 2), as kInteger does with its value
      kBytes,   // the `count` bytes of a captured array of bytes, as a loop of 8-bit kIntegers appends them
      kRun,     // the fixed run that follows (runs_[target]): one bounds check where the packet has room
    };
    Op op = Op::kSkip;
    ByteOrder order = ByteOrder::kLittle;
    bool is_signed = false;
    bool clock = false;   // kInteger: updates the stream's clock
    bool append = false;  // kInteger: appends its bytes to the capture
    uint32_t size = 0;    // kInteger: bits; kSkipElements: the element's bits; kString: bytes of a code unit
    uint64_t count = 0;   // kSkip: bits; kAlign: the alignment; kLoop, kBytes: a fixed count
    int32_t reg = -1;      // kInteger: where its value goes
    int32_t capture = -1;  // kInteger, kVariant: which CapturedField
    int32_t length_reg = -1;  // kLoop, kSkipElements: the count, from a register
    uint32_t target = 0;  // kLoop: just after its kLoopEnd; kLoopEnd: the body; kVariant: the table; kJump
    const char* name = nullptr;  // what problems call the field
  };
  struct VariantTable {
    int32_t selector = -1;  // a register
    bool is_signed = false;
    struct Choice {
      int64_t lower, upper;
      uint32_t option;      // its index among the variant's options
      uint32_t start;       // where its instructions begin
    };
    std::vector<Choice> choices;
    // Where to go when no choice is taken: an optional field left out.
    // kNoChoice: a variant, for which that is an error.
    static constexpr uint32_t kNoChoice = UINT32_MAX;
    uint32_t otherwise = kNoChoice;
  };
  // A fixed run: the kSkip, kInteger and kBytes instructions after a kRun,
  // up to `end`, whose positions from the run's start do not depend on the
  // data and which no jump enters. Where the packet's content has room for
  // all `bits`, the run reads its integers and byte arrays at those
  // positions with one bounds check and goes on at `end`; otherwise the
  // instructions themselves follow, each with its own check (so a damaged
  // packet gets the same problem either way).
  struct Run {
    uint64_t bits = 0;
    uint32_t end = 0;
    struct Read {
      uint64_t offset;  // bits from the run's start
      uint32_t pc;      // its kInteger or kBytes
    };
    std::vector<Read> reads;
  };

 private:
  friend class PlanCompiler;
  friend class StraightPlan;  // regroups the instructions (ctf/straight_plan.h)
  void note_skip_steps();  // once compiled
  void note_runs();        // once compiled, after note_skip_steps
  std::vector<Instruction> code_;
  std::vector<VariantTable> tables_;
  std::vector<Run> runs_;
  std::deque<std::string> names_;  // the field names instructions point into
  std::size_t captures_ = 0;
  std::vector<SkipStep> skip_steps_;
};

// What makes a plan: per stream class, the integers its sequences and
// variants refer to get registers, shared by its scopes' plans.
class PlanCompiler {
 public:
  // nullopt, with `unsupported` said, when the stream class holds what no
  // plan can read (a reference that names no integer before it).
  static std::optional<PlanCompiler> for_stream(const TraceClass& trace, const StreamClass& stream,
                                                std::string* unsupported);

  // One scope's plan. `by_name`: integers (or arrays of them) kept wherever
  // they are in the scope, by their name (packet header and context
  // members, the event header's `id`); `requests` by their path.
  std::optional<ReadPlan> compile(Scope scope, const FieldClassPtr& root, const std::map<std::string, int>& by_name,
                                  const std::vector<FieldRequest>& requests, std::string* unsupported);
  // An event class's stream event context, context and payload, as one
  // plan: what follows its event header, in one run.
  std::optional<ReadPlan> compile_event(const EventClass& event, const std::vector<FieldRequest>& requests,
                                        std::string* unsupported);

  std::size_t registers() const { return registers_.size(); }
  // The register of the integer at `names` in `scope`, -1 when nothing
  // refers to it; how many registers the scope's integers have.
  int register_of(Scope scope, const std::vector<std::string>& names) const;
  std::size_t registers_in(Scope scope) const;

 private:
  struct Frame;
  class Emitter;
  PlanCompiler() = default;
  bool collect_targets(Scope scope, const FieldClassPtr& root, std::string* unsupported);
  std::optional<std::string> resolve(const FieldPath& path, Scope scope, const std::vector<const Frame*>& frames,
                                     const FieldClass** found) const;

  const TraceClass* trace_ = nullptr;
  const StreamClass* stream_ = nullptr;
  std::map<std::string, int> registers_;  // target key -> register
  const FieldClass* event_context_ = nullptr;  // of the event class being compiled
  const FieldClass* event_payload_ = nullptr;
};

}  // namespace tracesync::ctf
