// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ctf/trace_class.h"

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
};

// The registers of one stream: the integers that sequences and variants
// refer to, and its clock. A plan reads and writes them.
struct ReadState {
  std::vector<uint64_t> registers;
  uint64_t clock = 0;  // the default clock's value in cycles, wrap-around applied
};

// The stream's clock after a field of `bits` low bits of it (CTF 1.8, 8;
// CTF 2, 6.3): a value below the clock's low bits means they wrapped.
inline void update_clock(ReadState& state, uint64_t value, unsigned bits) {
  if (bits >= 64) {
    state.clock = value;
    return;
  }
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  const uint64_t low = value & mask;
  if (low < (state.clock & mask)) state.clock += uint64_t{1} << bits;
  state.clock = (state.clock & ~mask) | low;
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

  // A plan that reads nothing and only moves past a layout of fixed size:
  // at most an alignment, then a number of bits. Such a plan is run by one
  // addition where its bits are in the packet (run() where they might not
  // be, to say what is wrong).
  struct FixedSize {
    uint64_t alignment = 1;  // bits, a power of two
    uint64_t bits = 0;
  };
  const std::optional<FixedSize>& fixed_size() const { return fixed_size_; }

  // What a plan is made of (PlanCompiler writes it, run() follows it).
  struct Instruction {
    enum class Op : uint8_t {
      kAlign, kSkip, kInteger, kString, kSkipElements, kLoop, kLoopEnd, kVariant, kJump,
      kVarInt,  // a LEB128 integer (CTF 2), as kInteger does with its value
    };
    Op op = Op::kSkip;
    ByteOrder order = ByteOrder::kLittle;
    bool is_signed = false;
    bool clock = false;   // kInteger: updates the stream's clock
    bool append = false;  // kInteger: appends its bytes to the capture
    uint32_t size = 0;    // kInteger: bits; kSkipElements: the element's bits; kString: bytes of a code unit
    uint64_t count = 0;   // kSkip: bits; kAlign: the alignment; kLoop: a fixed count
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

 private:
  friend class PlanCompiler;
  void note_fixed_size();  // once compiled
  std::vector<Instruction> code_;
  std::vector<VariantTable> tables_;
  std::deque<std::string> names_;  // the field names instructions point into
  std::size_t captures_ = 0;
  std::optional<FixedSize> fixed_size_;
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
