// SPDX-License-Identifier: EPL-2.0
#include "ctf/read_plan.h"

#include <algorithm>
#include <cstring>

#include "ctf/member_names.h"

namespace tracesync::ctf {

namespace {

using FC = FieldClass;
using Instruction = ReadPlan::Instruction;
using Op = Instruction::Op;

constexpr int kMaxLoopDepth = 8;

bool same_name(const std::string& written, const std::string& asked) { return bare(written) == bare(asked); }

std::string key_of(Scope scope, const std::vector<std::string>& names) {
  std::string key = to_string(scope);
  for (const std::string& name : names) key += "/" + name;
  return key;
}

// The bits of a field class laid out from a position aligned to it, when
// they do not depend on the data (and its elements keep their alignment).
std::optional<uint64_t> fixed_bits(const FC& fc) {
  switch (fc.kind) {
    case FC::Kind::kInteger:
    case FC::Kind::kEnumeration:
      if (fc.variable_length) return std::nullopt;
      return fc.size;
    case FC::Kind::kFloat:
      return fc.size;
    case FC::Kind::kStructure: {
      uint64_t at = 0;
      for (const Member& m : fc.members) {
        const auto bits = fixed_bits(*m.type);
        if (!bits) return std::nullopt;
        const uint64_t align = m.type->alignment;
        at = (at + align - 1) / align * align + *bits;
      }
      return at;
    }
    case FC::Kind::kArray: {
      const auto bits = fixed_bits(*fc.element);
      if (!bits || *bits % fc.element->alignment != 0 || fc.length > (uint64_t{1} << 40)) return std::nullopt;
      return *bits * fc.length;
    }
    default:
      return std::nullopt;
  }
}

bool maps_a_clock(const FC& fc) {
  if (fc.is_integer()) return !fc.mapped_clock.empty();
  if (fc.element && maps_a_clock(*fc.element)) return true;
  return std::any_of(fc.members.begin(), fc.members.end(), [](const Member& m) { return maps_a_clock(*m.type); });
}

// What `by_name` knows a field by: its CTF 2 role when it has one, else its
// name (CTF 1.8).
std::string slot_key(const FC& fc, const std::string& name) { return fc.role.empty() ? bare(name) : fc.role; }

bool holds_name(const FC& fc, const std::map<std::string, int>& by_name) {
  if (fc.element && holds_name(*fc.element, by_name)) return true;
  return std::any_of(fc.members.begin(), fc.members.end(), [&](const Member& m) {
    return by_name.count(slot_key(*m.type, m.name)) != 0 || holds_name(*m.type, by_name);
  });
}

// A field that does not begin on a byte, or of another size than 8, 16,
// 32 or 64 bits: its bytes one at a time (at most 9).
[[gnu::noinline]] uint64_t read_bits_bitwise(const uint8_t* data, uint64_t position, unsigned size, ByteOrder order) {
  const uint64_t byte = position >> 3;
  const unsigned shift = static_cast<unsigned>(position & 7);
  const uint64_t mask = size == 64 ? ~uint64_t{0} : (uint64_t{1} << size) - 1;
  const unsigned bytes = (shift + size + 7) / 8;  // at most 9
  if (order == ByteOrder::kLittle && bytes <= 8) {  // most: a few bits of a byte or two
    uint64_t bits = 0;
    for (unsigned i = 0; i < bytes; ++i) bits |= static_cast<uint64_t>(data[byte + i]) << (8 * i);
    return (bits >> shift) & mask;
  }
  unsigned __int128 bits = 0;
  if (order == ByteOrder::kLittle) {
    for (unsigned i = 0; i < bytes; ++i) bits |= static_cast<unsigned __int128>(data[byte + i]) << (8 * i);
    return static_cast<uint64_t>(bits >> shift) & mask;
  }
  for (unsigned i = 0; i < bytes; ++i) bits = (bits << 8) | data[byte + i];
  return static_cast<uint64_t>(bits >> (bytes * 8 - shift - size)) & mask;
}

// Whole bytes are loads of a constant size (a little-endian host), inline;
// anything else goes bit by bit.
inline uint64_t read_bits(const uint8_t* data, uint64_t position, unsigned size, ByteOrder order) {
  if ((position & 7) == 0) {
    const uint8_t* p = data + (position >> 3);
    switch (size) {
      case 8:
        return *p;
      case 16: {
        uint16_t v;
        std::memcpy(&v, p, 2);
        return order == ByteOrder::kBig ? __builtin_bswap16(v) : v;
      }
      case 32: {
        uint32_t v;
        std::memcpy(&v, p, 4);
        return order == ByteOrder::kBig ? __builtin_bswap32(v) : v;
      }
      case 64: {
        uint64_t v;
        std::memcpy(&v, p, 8);
        return order == ByteOrder::kBig ? __builtin_bswap64(v) : v;
      }
      default:
        break;
    }
  }
  return read_bits_bitwise(data, position, size, order);
}

std::string offset_text(uint64_t bits) {
  return "byte " + std::to_string(bits / 8) + (bits % 8 != 0 ? " bit " + std::to_string(bits % 8) : "");
}

// The longest LEB128 integer read: 10 bytes carry 70 bits, enough for any
// 64-bit value; a longer one (zero bytes a producer would not write) is
// refused rather than read.
constexpr unsigned kMaxVarIntBytes = 10;

}  // namespace

// --- running ---

namespace {

// The problems of a run, out of its loop: made only when a read fails.
[[gnu::noinline, gnu::cold]] bool past_content(std::string& problem, const char* name, uint64_t at, uint64_t bits,
                                               uint64_t limit) {
  problem = std::string("field `") + (name ? name : "?") + "` at " + offset_text(at) + " needs " + std::to_string(bits) +
            " bits, past the packet's content (which ends at " + offset_text(limit) + ")";
  return false;
}

[[gnu::noinline, gnu::cold]] bool too_long(std::string& problem, const char* what, const char* name, uint64_t at,
                                           uint64_t count, uint64_t limit) {
  problem = std::string(what) + " `" + (name ? name : "?") + "` at " + offset_text(at) + " of " +
            std::to_string(count) + " elements runs past the packet's content (which ends at " + offset_text(limit) +
            ")";
  return false;
}

[[gnu::noinline, gnu::cold]] bool unended_string(std::string& problem, const char* name, uint64_t at, uint64_t limit) {
  problem = std::string("string `") + (name ? name : "?") + "` at " + offset_text(at) +
            " has no end before the packet's content ends (at " + offset_text(limit) + ")";
  return false;
}

[[gnu::noinline, gnu::cold]] bool unfit_varint(std::string& problem, const char* name, uint64_t at, unsigned bytes,
                                               bool is_signed) {
  problem = std::string("variable-length integer `") + (name ? name : "?") + "` at " + offset_text(at) + " (" +
            std::to_string(bytes) + " bytes) does not fit " + (is_signed ? "a signed" : "an unsigned") +
            " 64-bit integer";
  return false;
}

[[gnu::noinline, gnu::cold]] bool no_option(std::string& problem, const char* name, uint64_t at, uint64_t raw,
                                            bool is_signed) {
  problem = std::string("variant `") + (name ? name : "?") + "` at " + offset_text(at) + ": its selector's value " +
            (is_signed ? std::to_string(static_cast<int64_t>(raw)) : std::to_string(raw)) + " selects no option";
  return false;
}

// What an integer's value goes to, whatever its encoding: its register,
// the clock (which reads `clock_bits` of it), its capture (whose bytes,
// when appended, are the low `appended_bits`, most significant first).
inline void keep_integer(const Instruction& in, uint64_t value, unsigned clock_bits, unsigned appended_bits,
                         ReadState& state, CapturedField* captures) {
  if (in.reg >= 0) state.registers[static_cast<std::size_t>(in.reg)] = value;
  if (in.clock) update_clock(state, value, clock_bits);
  if (in.capture >= 0) {
    CapturedField& out = captures[in.capture];
    out.present = true;
    if (!in.append) {
      out.value = value;
    } else {
      for (unsigned shift = appended_bits; shift >= 8 && out.byte_count < out.bytes.size(); shift -= 8) {
        out.bytes[out.byte_count++] = static_cast<uint8_t>(value >> (shift - 8));
      }
    }
  }
}

// What a kInteger does with the value it read (in a run too): its sign,
// then what any integer's value does.
inline void take_integer(const Instruction& in, uint64_t value, ReadState& state, CapturedField* captures) {
  if (in.is_signed && in.size < 64 && (value >> (in.size - 1)) != 0) value |= ~uint64_t{0} << in.size;
  keep_integer(in, value, in.size, in.size, state, captures);
}

// What a kBytes does with the `fit` of its bytes at `from` that are in the
// packet: the first 16 kept.
inline void take_bytes(const Instruction& in, const uint8_t* from, uint64_t fit, CapturedField* captures) {
  captures[in.capture].keep_bytes(from, fit);
}

}  // namespace

bool ReadPlan::run(BitCursor& cursor, ReadState& state, CapturedField* captures, std::string& problem) const {
  struct Loop {
    uint64_t remaining;
    uint32_t body;
  };
  Loop loops[kMaxLoopDepth];
  int depth = 0;
  uint64_t at = cursor.position;
  const uint64_t limit = cursor.limit;
  // The cursor is left where the read stopped, on failure too.
  struct Store {
    BitCursor& cursor;
    const uint64_t& at;
    ~Store() { cursor.position = at; }
  } store{cursor, at};
  // The instructions and their count, loaded once: the stores below (to
  // registers, captures) could alias code_ as far as the compiler knows.
  const Instruction* const code = code_.data();
  const std::size_t code_size = code_.size();
  for (std::size_t pc = 0; pc < code_size;) {
    const Instruction& in = code[pc];
    switch (in.op) {
      case Op::kAlign: {
        const uint64_t aligned = align_up(at, in.count - 1);
        if (aligned > limit) [[unlikely]] return past_content(problem, in.name, at, aligned - at, limit);
        at = aligned;
        ++pc;
        break;
      }
      case Op::kSkip:
        if (limit - at < in.count) [[unlikely]] return past_content(problem, in.name, at, in.count, limit);
        at += in.count;
        ++pc;
        break;
      case Op::kInteger: {
        if (limit - at < in.size) [[unlikely]] return past_content(problem, in.name, at, in.size, limit);
        const uint64_t value = read_bits(cursor.data, at, in.size, in.order);
        at += in.size;
        take_integer(in, value, state, captures);
        ++pc;
        break;
      }
      case Op::kRun: {
        const Run& run = runs_[in.target];
        if (limit - at < run.bits) {  // not all in the packet: each instruction checks its own
          ++pc;
          break;
        }
        for (const Run::Read& read : run.reads) {
          const Instruction& field = code[read.pc];
          const uint64_t from = at + read.offset;
          if (field.op == Op::kBytes) {
            take_bytes(field, cursor.data + from / 8, field.count, captures);
          } else {
            take_integer(field, read_bits(cursor.data, from, field.size, field.order), state, captures);
          }
        }
        at += run.bits;
        pc = run.end;
        break;
      }
      case Op::kVarInt: {
        // LEB128: 7 bits a byte, the least significant first, bit 7 set
        // on every byte but the last.
        const uint64_t start = at;
        unsigned __int128 bits = 0;
        unsigned count = 0;
        uint8_t byte = 0;
        do {
          if (limit - at < 8) [[unlikely]] return past_content(problem, in.name, at, 8, limit);
          if (count == kMaxVarIntBytes) [[unlikely]] return unfit_varint(problem, in.name, start, count + 1, in.is_signed);
          byte = cursor.data[at / 8];
          bits |= static_cast<unsigned __int128>(byte & 0x7f) << (7 * count);
          ++count;
          at += 8;
        } while ((byte & 0x80) != 0);
        const unsigned width = 7 * count;
        uint64_t value;
        if (in.is_signed) {
          __int128 signed_bits = static_cast<__int128>(bits);
          if ((byte & 0x40) != 0) signed_bits -= static_cast<__int128>(1) << width;  // its sign bit set
          if (signed_bits < INT64_MIN || signed_bits > INT64_MAX) [[unlikely]] {
            return unfit_varint(problem, in.name, start, count, true);
          }
          value = static_cast<uint64_t>(static_cast<int64_t>(signed_bits));
        } else {
          if ((bits >> 64) != 0) [[unlikely]] return unfit_varint(problem, in.name, start, count, false);
          value = static_cast<uint64_t>(bits);
        }
        keep_integer(in, value, width, 64, state, captures);
        ++pc;
        break;
      }
      case Op::kString: {
        const uint64_t byte = at / 8;
        const uint8_t* end = nullptr;
        if (in.size <= 1) {
          end = find_nul(cursor.data + byte, cursor.data + limit / 8);
        } else {
          // UTF-16 or UTF-32: a code unit of zero bytes ends it.
          static constexpr uint8_t zeros[4] = {};
          for (uint64_t unit = byte; limit / 8 - unit >= in.size; unit += in.size) {
            if (std::memcmp(cursor.data + unit, zeros, in.size) == 0) {
              end = cursor.data + unit;
              break;
            }
          }
        }
        if (end == nullptr) [[unlikely]] return unended_string(problem, in.name, at, limit);
        if (in.capture >= 0) {
          CapturedField& out = captures[in.capture];
          out.present = true;
          out.text = cursor.data + byte;
          out.value = static_cast<uint64_t>(end - out.text);
        }
        at = (static_cast<uint64_t>(end - cursor.data) + std::max<uint32_t>(in.size, 1)) * 8;
        ++pc;
        break;
      }
      case Op::kSkipElements: {
        const uint64_t count = state.registers[static_cast<std::size_t>(in.length_reg)];
        uint64_t bits = 0;
        if (__builtin_mul_overflow(count, uint64_t{in.size}, &bits) || limit - at < bits) [[unlikely]] {
          return too_long(problem, "sequence", in.name, at, count, limit);
        }
        at += bits;
        ++pc;
        break;
      }
      case Op::kLoop: {
        const uint64_t count = in.length_reg >= 0 ? state.registers[static_cast<std::size_t>(in.length_reg)] : in.count;
        if (count == 0) {
          pc = in.target;
          break;
        }
        // Every element takes a bit at least (an empty one is refused when
        // compiled): a damaged length cannot loop longer than the packet.
        if (count > limit - at || depth == kMaxLoopDepth) [[unlikely]] {
          return too_long(problem, "array", in.name, at, count, limit);
        }
        loops[depth++] = Loop{count, static_cast<uint32_t>(pc + 1)};
        ++pc;
        break;
      }
      case Op::kBytes: {
        // As kLoop then a kInteger of 8 bits per element would: the count
        // checked against the bits left, then each element that fits
        // appended (the first 16), the first that does not a problem.
        const uint64_t count = in.count;
        if (count > limit - at) [[unlikely]] return too_long(problem, "array", in.name, at, count, limit);
        const uint64_t fit = std::min(count, (limit - at) / 8);
        take_bytes(in, cursor.data + at / 8, fit, captures);
        at += fit * 8;
        if (fit < count) [[unlikely]] return past_content(problem, in.name, at, 8, limit);
        ++pc;
        break;
      }
      case Op::kLoopEnd:
        if (--loops[depth - 1].remaining != 0) {
          pc = loops[depth - 1].body;
        } else {
          --depth;
          ++pc;
        }
        break;
      case Op::kVariant: {
        const VariantTable& table = tables_[in.target];
        const uint64_t raw = state.registers[static_cast<std::size_t>(table.selector)];
        const VariantTable::Choice* chosen = nullptr;
        for (const VariantTable::Choice& choice : table.choices) {
          const bool in_range = table.is_signed ? static_cast<int64_t>(raw) >= choice.lower &&
                                                      static_cast<int64_t>(raw) <= choice.upper
                                                : raw >= static_cast<uint64_t>(choice.lower) &&
                                                      raw <= static_cast<uint64_t>(choice.upper);
          if (in_range) {
            chosen = &choice;
            break;
          }
        }
        if (chosen == nullptr) {
          if (table.otherwise == VariantTable::kNoChoice) [[unlikely]] {
            return no_option(problem, in.name, at, raw, table.is_signed);
          }
          pc = table.otherwise;  // an optional field left out
          break;
        }
        if (in.capture >= 0) {
          captures[in.capture].present = true;
          captures[in.capture].value = chosen->option;
        }
        pc = chosen->start;
        break;
      }
      case Op::kJump:
        pc = in.target;
        break;
    }
  }
  return true;
}

void ReadPlan::note_skip_steps() {
  std::vector<SkipStep> steps(1);
  for (const Instruction& in : code_) {
    SkipStep& step = steps.back();
    switch (in.op) {
      case Op::kAlign:
        if (step.bits != 0 || step.alignment != 1) steps.emplace_back();
        steps.back().alignment = in.count;
        break;
      case Op::kSkip:
        step.bits += in.count;
        break;
      case Op::kString:
        if (in.size > 1 || in.capture >= 0) return;
        step.string = true;
        steps.emplace_back();
        break;
      default:
        return;  // it keeps something, or loops, or chooses
    }
  }
  skip_steps_ = std::move(steps);
}

void ReadPlan::note_runs() {
  // Where jumps land: a run may begin there, not go on through one.
  std::vector<bool> landing(code_.size() + 1, false);
  for (const Instruction& in : code_) {
    if (in.op == Op::kLoop || in.op == Op::kLoopEnd || in.op == Op::kJump) landing[in.target] = true;
  }
  for (const VariantTable& table : tables_) {
    for (const VariantTable::Choice& choice : table.choices) landing[choice.start] = true;
    if (table.otherwise != VariantTable::kNoChoice) landing[table.otherwise] = true;
  }
  // Each run's first instruction and its Run, in order.
  std::vector<std::pair<std::size_t, Run>> found;
  constexpr uint64_t kMostBits = uint64_t{1} << 40;  // no overflow in a run's sums
  for (std::size_t i = 0; i < code_.size();) {
    Run run;
    std::size_t j = i;
    for (; j < code_.size() && (j == i || !landing[j]); ++j) {
      const Instruction& in = code_[j];
      uint64_t bits = 0;
      if (in.op == Op::kSkip) {
        bits = in.count;
      } else if (in.op == Op::kInteger) {
        bits = in.size;
      } else if (in.op == Op::kBytes && in.count < kMostBits / 8) {
        bits = in.count * 8;
      } else {
        break;
      }
      if (bits >= kMostBits || run.bits + bits >= kMostBits) break;
      if (in.op != Op::kSkip) run.reads.push_back({run.bits, static_cast<uint32_t>(j)});
      run.bits += bits;
    }
    // Worth a run: two instructions or more, one of them kept.
    if (j - i >= 2 && !run.reads.empty()) {
      run.end = static_cast<uint32_t>(j);
      found.emplace_back(i, std::move(run));
      i = j;
    } else {
      i = std::max(j, i + 1);
    }
  }
  if (found.empty()) return;
  // Insert a kRun before each run's first instruction; every jump to that
  // instruction now lands on its kRun.
  std::vector<uint32_t> moved(code_.size() + 1);   // where a jump to each instruction lands now
  std::vector<uint32_t> placed(code_.size() + 1);  // where each instruction is now
  std::vector<Instruction> code;
  code.reserve(code_.size() + found.size());
  std::size_t next = 0;
  for (std::size_t i = 0; i <= code_.size(); ++i) {
    if (next < found.size() && found[next].first == i) {
      Instruction in;
      in.op = Op::kRun;
      in.target = static_cast<uint32_t>(runs_.size());
      in.name = code_[i].name;
      moved[i] = static_cast<uint32_t>(code.size());
      code.push_back(in);
      runs_.push_back(std::move(found[next].second));
      ++next;
    } else {
      moved[i] = static_cast<uint32_t>(code.size());
    }
    placed[i] = static_cast<uint32_t>(code.size());
    if (i < code_.size()) code.push_back(code_[i]);
  }
  for (Instruction& in : code) {
    if (in.op == Op::kLoop || in.op == Op::kLoopEnd || in.op == Op::kJump) in.target = moved[in.target];
  }
  for (VariantTable& table : tables_) {
    for (VariantTable::Choice& choice : table.choices) choice.start = moved[choice.start];
    if (table.otherwise != VariantTable::kNoChoice) table.otherwise = moved[table.otherwise];
  }
  for (Run& run : runs_) {
    run.end = moved[run.end];
    for (Run::Read& read : run.reads) read.pc = placed[read.pc];
  }
  code_ = std::move(code);
}

// --- compiling ---

int PlanCompiler::register_of(Scope scope, const std::vector<std::string>& names) const {
  const auto found = registers_.find(key_of(scope, names));
  return found == registers_.end() ? -1 : found->second;
}

std::size_t PlanCompiler::registers_in(Scope scope) const {
  const std::string prefix = std::string(to_string(scope)) + "/";
  std::size_t count = 0;
  for (auto it = registers_.lower_bound(prefix); it != registers_.end() && it->first.compare(0, prefix.size(), prefix) == 0;
       ++it) {
    ++count;
  }
  return count;
}

struct PlanCompiler::Frame {
  const FC* structure;
  std::vector<std::string> path;  // its names from the scope's root, as written
};

// Writes one plan's instructions, folding fixed-size runs: it knows the
// position modulo `anchor_` bits wherever the data cannot move it.
class PlanCompiler::Emitter {
 public:
  Emitter(PlanCompiler& compiler, ReadPlan& plan, Scope scope, const std::map<std::string, int>& by_name,
          const std::vector<FieldRequest>& requests)
      : compiler_(compiler), plan_(plan), scope_(scope), by_name_(by_name), requests_(requests) {}

  bool field(const FC& fc, const std::string& name, std::vector<std::string>& path, std::vector<const Frame*>& frames) {
    switch (fc.kind) {
      case FC::Kind::kInteger:
      case FC::Kind::kEnumeration: {
        const int reg = register_of(path);
        const int capture = capture_of(path, fc, name);
        const bool clock = !fc.mapped_clock.empty() && !(scope_ == Scope::kPacketContext && name == "timestamp_end");
        align(fc.alignment);
        if (fc.variable_length) {
          // Read even when no one needs it: its bytes say where it ends.
          Instruction in = named(Op::kVarInt, name);
          in.is_signed = fc.is_signed;
          in.reg = reg;
          in.capture = capture;
          in.clock = clock;
          emit(in);
          anchor_ = 8;  // whole bytes
          offset_ = 0;
          return true;
        }
        if (reg < 0 && capture < 0 && !clock) {
          skip(fc.size);
          return true;
        }
        Instruction in = named(Op::kInteger, name);
        in.order = fc.byte_order;
        in.is_signed = fc.is_signed;
        in.size = fc.size;
        in.reg = reg;
        in.capture = capture;
        in.clock = clock;
        emit(in);
        advance(fc.size);
        return true;
      }
      case FC::Kind::kFloat:
        align(fc.alignment);
        skip(fc.size);
        return true;
      case FC::Kind::kString: {
        align(8);
        Instruction in = named(Op::kString, name);
        in.size = fc.code_unit;
        in.capture = capture_of(path, fc, name);
        emit(in);
        anchor_ = 8;
        offset_ = 0;
        return true;
      }
      case FC::Kind::kStructure: {
        align(fc.alignment);
        Frame frame{&fc, path};
        frames.push_back(&frame);
        for (const Member& m : fc.members) {
          path.push_back(m.name);
          const bool fine = field(*m.type, m.name, path, frames);
          path.pop_back();
          if (!fine) return false;
        }
        frames.pop_back();
        return true;
      }
      case FC::Kind::kArray:
      case FC::Kind::kSequence:
        return array(fc, name, path, frames);
      case FC::Kind::kVariant:
        return variant(fc, name, path, frames);
      case FC::Kind::kOptional:
        return optional(fc, name, path, frames);
    }
    return true;
  }

  std::string unsupported;

 private:
  Instruction named(Op op, const std::string& name) {
    Instruction in;
    in.op = op;
    in.name = plan_.names_.emplace_back(name).c_str();  // a deque: it stays where it is
    return in;
  }
  std::size_t emit(const Instruction& in) {
    plan_.code_.push_back(in);
    return plan_.code_.size() - 1;
  }
  void label() { barrier_ = plan_.code_.size(); }
  void unknown_position() {
    anchor_ = 1;
    offset_ = 0;
  }
  void advance(uint64_t bits) { offset_ = (offset_ + bits) % anchor_; }
  void align(uint64_t alignment) {
    if (alignment <= 1) return;
    if (anchor_ >= alignment) {
      skip((alignment - offset_ % alignment) % alignment);
      return;
    }
    Instruction in;
    in.op = Op::kAlign;
    in.count = alignment;
    emit(in);
    anchor_ = alignment;
    offset_ = 0;
  }
  void skip(uint64_t bits) {
    if (bits == 0) return;
    if (plan_.code_.size() > barrier_ && plan_.code_.back().op == Op::kSkip) {
      plan_.code_.back().count += bits;
    } else {
      Instruction in;
      in.op = Op::kSkip;
      in.count = bits;
      emit(in);
    }
    advance(bits);
  }

  int register_of(const std::vector<std::string>& path) const {
    const auto found = compiler_.registers_.find(key_of(scope_, path));
    return found == compiler_.registers_.end() ? -1 : found->second;
  }
  bool request_matches(const FieldRequest& request, const std::vector<std::string>& path, bool prefix) const {
    if (request.scope != scope_ || (prefix ? request.names.size() <= path.size() : request.names.size() != path.size())) {
      return false;
    }
    for (std::size_t i = 0; i < path.size(); ++i) {
      if (!same_name(path[i], request.names[i])) return false;
    }
    return true;
  }
  int capture_of(const std::vector<std::string>& path, const FC& fc, const std::string& name) {
    for (std::size_t i = 0; i < requests_.size(); ++i) {
      if (request_matches(requests_[i], path, false)) return static_cast<int>(i);
    }
    const auto found = by_name_.find(slot_key(fc, name));
    return found == by_name_.end() ? -1 : found->second;
  }
  bool wanted_below(const FC& fc, const std::vector<std::string>& path) const {
    for (const FieldRequest& request : requests_) {
      if (request_matches(request, path, true)) return true;
    }
    const std::string prefix = key_of(scope_, path) + "/";
    const auto next = compiler_.registers_.lower_bound(prefix);
    if (next != compiler_.registers_.end() && next->first.compare(0, prefix.size(), prefix) == 0) return true;
    return maps_a_clock(fc) || holds_name(fc, by_name_);
  }

  bool array(const FC& fc, const std::string& name, std::vector<std::string>& path, std::vector<const Frame*>& frames) {
    const FC& element = *fc.element;
    int length_reg = -1;
    if (fc.kind == FC::Kind::kSequence) {
      const FC* length_class = nullptr;
      const auto key = compiler_.resolve(fc.length_field, scope_, frames, &length_class);
      if (!key || compiler_.registers_.count(*key) == 0) {
        unsupported = "sequence `" + name + "`: its length `" + fc.length_field.text() + "` names no integer";
        return false;
      }
      length_reg = compiler_.registers_.at(*key);
    }
    const int capture = capture_of(path, fc, name);
    const auto element_bits = fixed_bits(element);
    // The array's own alignment first (CTF 2's minimum alignment may exceed
    // its elements'), each element's then.
    align(fc.alignment);
    if (capture < 0 && element_bits && *element_bits % element.alignment == 0 && *element_bits > 0 &&
        !wanted_below(element, path)) {
      if (fc.kind == FC::Kind::kArray) {
        skip(*element_bits * fc.length);
      } else {
        Instruction in = named(Op::kSkipElements, name);
        in.length_reg = length_reg;
        in.size = static_cast<uint32_t>(std::min<uint64_t>(*element_bits, UINT32_MAX));
        if (*element_bits > UINT32_MAX) {
          unsupported = "sequence `" + name + "`: elements of over 2^32 bits";
          return false;
        }
        emit(in);
        anchor_ = element.alignment;  // n elements of a multiple of it
        offset_ = 0;
      }
      return true;
    }
    if ((fc.kind == FC::Kind::kArray && fc.length == 0) || (element_bits && *element_bits == 0)) {
      align(element.alignment);  // nothing to read
      return true;
    }
    if (capture >= 0 && !element.is_integer()) {
      unsupported = "field `" + name + "` is asked for, but is an array of non-integers";
      return false;
    }
    if (capture >= 0 && fc.kind == FC::Kind::kArray && fc.alignment >= 8 && element.is_integer() &&
        !element.variable_length && element.size == 8 && element.alignment == 8 && element.mapped_clock.empty() &&
        loop_depth_ < kMaxLoopDepth) {
      // A captured array of bytes (an address): one copy where the loop
      // below reads an element at a time, with the same checks and problems.
      Instruction in = named(Op::kBytes, name);
      in.count = fc.length;
      in.capture = capture;
      emit(in);
      label();
      // Whole bytes from a position aligned to 8 at least: where it ends is
      // known as well as where it began (a fixed run may go on past it).
      advance(fc.length * 8);
      return true;
    }
    Instruction loop = named(Op::kLoop, name);
    loop.count = fc.length;
    loop.length_reg = length_reg;
    const std::size_t loop_at = emit(loop);
    label();
    unknown_position();
    const std::size_t body = plan_.code_.size();
    if (capture >= 0) {
      align(element.alignment);
      Instruction in = named(element.variable_length ? Op::kVarInt : Op::kInteger, name);
      in.order = element.byte_order;
      in.is_signed = element.is_signed;
      in.size = element.size;
      in.capture = capture;
      in.append = true;
      in.clock = !element.mapped_clock.empty();
      emit(in);
    } else {
      ++loop_depth_;
      const bool fine = field(element, name, path, frames);
      --loop_depth_;
      if (!fine) return false;
    }
    Instruction end;
    end.op = Op::kLoopEnd;
    end.target = static_cast<uint32_t>(body);
    emit(end);
    label();
    plan_.code_[loop_at].target = static_cast<uint32_t>(plan_.code_.size());
    unknown_position();
    return true;
  }

  bool variant(const FC& fc, const std::string& name, std::vector<std::string>& path,
               std::vector<const Frame*>& frames) {
    const FC* selector = nullptr;
    const auto key = compiler_.resolve(fc.selector, scope_, frames, &selector);
    if (!key || compiler_.registers_.count(*key) == 0 || selector == nullptr ||
        (selector->kind != FC::Kind::kEnumeration && fc.option_ranges.empty())) {
      unsupported = "variant `" + name + "`: its selector `" + fc.selector.text() + "` names no enumeration";
      return false;
    }
    ReadPlan::VariantTable table;
    table.selector = compiler_.registers_.at(*key);
    table.is_signed = selector->is_signed;
    const std::size_t table_index = plan_.tables_.size();
    plan_.tables_.emplace_back();
    Instruction in = named(Op::kVariant, name);
    in.target = static_cast<uint32_t>(table_index);
    in.capture = capture_of(path, fc, name);
    emit(in);
    const uint64_t anchor = anchor_, offset = offset_;
    std::vector<std::size_t> jumps;
    std::vector<uint32_t> starts(fc.members.size());
    bool same_end = true;
    uint64_t end_anchor = 0, end_offset = 0;
    for (std::size_t o = 0; o < fc.members.size(); ++o) {
      label();
      anchor_ = anchor;
      offset_ = offset;
      starts[o] = static_cast<uint32_t>(plan_.code_.size());
      path.push_back(fc.members[o].name);
      const bool fine = field(*fc.members[o].type, fc.members[o].name, path, frames);
      path.pop_back();
      if (!fine) return false;
      Instruction jump;
      jump.op = Op::kJump;
      jumps.push_back(emit(jump));
      if (o == 0) {
        end_anchor = anchor_;
        end_offset = offset_;
      } else if (anchor_ != end_anchor || offset_ != end_offset) {
        same_end = false;
      }
    }
    label();
    for (const std::size_t jump : jumps) plan_.code_[jump].target = static_cast<uint32_t>(plan_.code_.size());
    if (same_end) {
      anchor_ = end_anchor;
      offset_ = end_offset;
    } else {
      unknown_position();
    }
    // CTF 2: each option says which selector values pick it.
    for (const FC::OptionRange& range : fc.option_ranges) {
      table.choices.push_back({range.lower, range.upper, static_cast<uint32_t>(range.option), starts[range.option]});
    }
    // CTF 1.8: each mapping of the selector picks the option of its label's name.
    const std::vector<Mapping> no_labels;
    for (const Mapping& mapping : fc.option_ranges.empty() ? selector->mappings : no_labels) {
      for (std::size_t o = 0; o < fc.members.size(); ++o) {
        if (fc.members[o].name == mapping.label || same_name(fc.members[o].name, mapping.label)) {
          table.choices.push_back({mapping.lower, mapping.upper, static_cast<uint32_t>(o), starts[o]});
          break;
        }
      }
    }
    plan_.tables_[table_index] = std::move(table);
    return true;
  }

  // CTF 2's optional: a table of one choice (the field) whose otherwise
  // goes past it.
  bool optional(const FC& fc, const std::string& name, std::vector<std::string>& path,
                std::vector<const Frame*>& frames) {
    const FC* selector = nullptr;
    const auto key = compiler_.resolve(fc.selector, scope_, frames, &selector);
    if (!key || compiler_.registers_.count(*key) == 0 || selector == nullptr) {
      unsupported = "optional `" + name + "`: its selector `" + fc.selector.text() + "` names no boolean or integer";
      return false;
    }
    if (!selector->boolean && fc.option_ranges.empty()) {
      unsupported = "optional `" + name + "`: its selector `" + fc.selector.text() +
                    "` is an integer, but it has no `selector-field-ranges`";
      return false;
    }
    ReadPlan::VariantTable table;
    table.selector = compiler_.registers_.at(*key);
    Instruction in = named(Op::kVariant, name);
    in.target = static_cast<uint32_t>(plan_.tables_.size());
    in.capture = capture_of(path, fc, name);
    plan_.tables_.emplace_back();
    emit(in);
    label();
    const auto start = static_cast<uint32_t>(plan_.code_.size());
    if (selector->boolean) {
      table.choices.push_back({1, -1, 0, start});  // any bit set: true (unsigned: 1 .. 2^64 - 1)
    } else {
      table.is_signed = selector->is_signed;
      for (const FC::OptionRange& range : fc.option_ranges) table.choices.push_back({range.lower, range.upper, 0, start});
    }
    if (!field(*fc.element, name, path, frames)) return false;
    label();
    table.otherwise = static_cast<uint32_t>(plan_.code_.size());
    plan_.tables_[in.target] = std::move(table);
    unknown_position();
    return true;
  }

 public:
  // The payload follows the context in one plan.
  void enter(Scope scope) { scope_ = scope; }

  void finish() {
    // Alignment and skips have no names of their own: the field after them
    // (or before, at the end) is what a problem names.
    const char* next = nullptr;
    for (std::size_t i = plan_.code_.size(); i-- > 0;) {
      if (plan_.code_[i].name != nullptr) next = plan_.code_[i].name;
      else plan_.code_[i].name = next;
    }
    const char* previous = "(the start)";
    for (Instruction& in : plan_.code_) {
      if (in.name == nullptr) in.name = previous;
      previous = in.name;
    }
  }

 private:
  PlanCompiler& compiler_;
  ReadPlan& plan_;
  Scope scope_;
  const std::map<std::string, int>& by_name_;
  const std::vector<FieldRequest>& requests_;
  uint64_t anchor_ = 1;  // the position is known modulo this many bits ...
  uint64_t offset_ = 0;  // ... to be this
  std::size_t barrier_ = 0;  // no skip before here may grow: a jump lands here
  int loop_depth_ = 0;       // loops open around what is being emitted
};

std::optional<std::string> PlanCompiler::resolve(const FieldPath& path, Scope scope,
                                                 const std::vector<const Frame*>& frames, const FC** found) const {
  // Its member named `name`: as written, else one leading underscore aside.
  auto member_of = [](const FC& structure, const std::string& name) -> const Member* {
    for (const Member& m : structure.members) {
      if (m.name == name) return &m;
    }
    return structure.member(name);
  };
  // Down from `start` along `names`: into the element being read of an
  // array, the field of an optional; through a variant by its option's name
  // (CTF 1.8), or into the one option whose structure has the name (CTF 2:
  // a variant's value is its option's).
  auto walk = [&](const FC* at, std::vector<std::string> written, std::size_t from) -> std::optional<std::string> {
    for (std::size_t i = from; i < path.names.size(); ++i) {
      while (at != nullptr && (at->kind == FC::Kind::kArray || at->kind == FC::Kind::kSequence ||
                               at->kind == FC::Kind::kOptional)) {
        at = at->element.get();
      }
      if (at == nullptr || (at->kind != FC::Kind::kStructure && at->kind != FC::Kind::kVariant)) return std::nullopt;
      const Member* member = member_of(*at, path.names[i]);
      if (member == nullptr && at->kind == FC::Kind::kVariant) {
        const Member* option = nullptr;
        for (const Member& o : at->members) {
          if (o.type->kind != FC::Kind::kStructure || member_of(*o.type, path.names[i]) == nullptr) continue;
          if (option != nullptr) return std::nullopt;  // in two options: which one is read is not known here
          option = &o;
        }
        if (option == nullptr) return std::nullopt;
        written.push_back(option->name);
        member = member_of(*option->type, path.names[i]);
      }
      if (member == nullptr) return std::nullopt;
      written.push_back(member->name);
      at = member->type.get();
    }
    if (at == nullptr || !at->is_integer()) return std::nullopt;
    *found = at;
    return key_of(scope, written);
  };
  if (path.names.empty()) return std::nullopt;
  if (path.absolute) {
    const FC* root = nullptr;
    switch (path.scope) {
      case Scope::kPacketHeader: root = trace_->packet_header.get(); break;
      case Scope::kPacketContext: root = stream_->packet_context.get(); break;
      case Scope::kEventHeader: root = stream_->event_header.get(); break;
      case Scope::kStreamEventContext: root = stream_->event_context.get(); break;
      case Scope::kEventContext: root = event_context_; break;
      case Scope::kEventPayload: root = event_payload_; break;
    }
    const Scope saved = scope;
    scope = path.scope;
    auto key = walk(root, {}, 0);
    scope = saved;
    return key;
  }
  if (path.climb > 0) {
    // CTF 2: `climb` structures up from the one holding the field, exactly.
    if (frames.size() <= path.climb) return std::nullopt;
    const Frame* frame = frames[frames.size() - 1 - path.climb];
    return walk(frame->structure, frame->path, 0);
  }
  for (auto frame = frames.rbegin(); frame != frames.rend(); ++frame) {
    if ((*frame)->structure->member(path.names[0]) == nullptr) continue;
    return walk((*frame)->structure, (*frame)->path, 0);
  }
  return std::nullopt;
}

bool PlanCompiler::collect_targets(Scope scope, const FieldClassPtr& root, std::string* unsupported) {
  if (!root) return true;
  std::vector<const Frame*> frames;
  std::vector<std::string> path;
  // Depth first, as the emitter walks, so that relative references see the
  // same enclosing structures.
  struct Walker {
    PlanCompiler& compiler;
    Scope scope;
    std::vector<const Frame*>& frames;
    std::string* unsupported;
    bool reference(const FieldPath& ref, const std::string& name, const char* what) {
      const FC* target = nullptr;
      const auto key = compiler.resolve(ref, scope, frames, &target);
      if (!key) {
        if (unsupported) *unsupported = std::string(what) + " `" + name + "`: `" + ref.text() + "` names no integer before it";
        return false;
      }
      compiler.registers_.emplace(*key, static_cast<int>(compiler.registers_.size()));
      return true;
    }
    bool walk(const FC& fc, const std::string& name, std::vector<std::string>& path) {
      switch (fc.kind) {
        case FC::Kind::kStructure: {
          Frame frame{&fc, path};
          frames.push_back(&frame);
          for (const Member& m : fc.members) {
            path.push_back(m.name);
            const bool fine = walk(*m.type, m.name, path);
            path.pop_back();
            if (!fine) return false;
          }
          frames.pop_back();
          return true;
        }
        case FC::Kind::kSequence:
          if (!reference(fc.length_field, name, "sequence")) return false;
          return walk(*fc.element, name, path);
        case FC::Kind::kArray:
          return walk(*fc.element, name, path);
        case FC::Kind::kOptional:
          if (!reference(fc.selector, name, "optional")) return false;
          return walk(*fc.element, name, path);
        case FC::Kind::kVariant: {
          if (!reference(fc.selector, name, "variant")) return false;
          for (const Member& m : fc.members) {
            path.push_back(m.name);
            const bool fine = walk(*m.type, m.name, path);
            path.pop_back();
            if (!fine) return false;
          }
          return true;
        }
        default:
          return true;
      }
    }
  };
  Walker walker{*this, scope, frames, unsupported};
  return walker.walk(*root, to_string(scope), path);
}

std::optional<PlanCompiler> PlanCompiler::for_stream(const TraceClass& trace, const StreamClass& stream,
                                                     std::string* unsupported) {
  PlanCompiler compiler;
  compiler.trace_ = &trace;
  compiler.stream_ = &stream;
  if (!compiler.collect_targets(Scope::kPacketHeader, trace.packet_header, unsupported) ||
      !compiler.collect_targets(Scope::kPacketContext, stream.packet_context, unsupported) ||
      !compiler.collect_targets(Scope::kEventHeader, stream.event_header, unsupported) ||
      !compiler.collect_targets(Scope::kStreamEventContext, stream.event_context, unsupported)) {
    return std::nullopt;
  }
  for (const auto& [id, event] : stream.event_classes) {
    compiler.event_context_ = event.context.get();
    compiler.event_payload_ = event.payload.get();
    if (!compiler.collect_targets(Scope::kEventContext, event.context, unsupported) ||
        !compiler.collect_targets(Scope::kEventPayload, event.payload, unsupported)) {
      if (unsupported) *unsupported = "event `" + event.name + "`: " + *unsupported;
      return std::nullopt;
    }
  }
  compiler.event_context_ = compiler.event_payload_ = nullptr;
  return compiler;
}

std::optional<ReadPlan> PlanCompiler::compile(Scope scope, const FieldClassPtr& root,
                                              const std::map<std::string, int>& by_name,
                                              const std::vector<FieldRequest>& requests, std::string* unsupported) {
  ReadPlan plan;
  int captures = static_cast<int>(requests.size());
  for (const auto& [name, slot] : by_name) captures = std::max(captures, slot + 1);
  plan.captures_ = static_cast<std::size_t>(captures);
  if (!root) return plan;
  Emitter emitter(*this, plan, scope, by_name, requests);
  std::vector<std::string> path;
  std::vector<const Frame*> frames;
  if (!emitter.field(*root, to_string(scope), path, frames)) {
    if (unsupported) *unsupported = emitter.unsupported;
    return std::nullopt;
  }
  emitter.finish();
  plan.note_skip_steps();
  plan.note_runs();
  return plan;
}

std::optional<ReadPlan> PlanCompiler::compile_event(const EventClass& event, const std::vector<FieldRequest>& requests,
                                                    std::string* unsupported) {
  event_context_ = event.context.get();
  event_payload_ = event.payload.get();
  static const std::map<std::string, int> none;
  ReadPlan plan;
  plan.captures_ = requests.size();
  Emitter emitter(*this, plan, Scope::kStreamEventContext, none, requests);
  std::vector<std::string> path;
  std::vector<const Frame*> frames;
  bool fine = !stream_->event_context || emitter.field(*stream_->event_context, "stream.event.context", path, frames);
  if (fine && event.context) {
    emitter.enter(Scope::kEventContext);
    fine = emitter.field(*event.context, "event.context", path, frames);
  }
  if (fine && event.payload) {
    emitter.enter(Scope::kEventPayload);
    fine = emitter.field(*event.payload, "event.fields", path, frames);
  }
  event_context_ = event_payload_ = nullptr;
  if (!fine) {
    if (unsupported) *unsupported = "event `" + event.name + "`: " + emitter.unsupported;
    return std::nullopt;
  }
  emitter.finish();
  plan.note_skip_steps();
  plan.note_runs();
  return plan;
}

}  // namespace tracesync::ctf
