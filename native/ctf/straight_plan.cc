// SPDX-License-Identifier: EPL-2.0
#include "ctf/straight_plan.h"

#include <algorithm>
#include <cstring>

namespace tracesync::ctf {

namespace {

using Instruction = ReadPlan::Instruction;
using Op = Instruction::Op;

constexpr uint64_t kMostBits = uint64_t{1} << 40;  // no overflow in a segment's sums
constexpr std::size_t kDenseValues = 256;           // an 8-bit enumeration's values
constexpr uint64_t kMostAppended = 64;              // elements of a captured array read in line

// A captured array of a fixed number of integers that are not bytes (an
// IPv6 address of 16-bit words): a kLoop of a fixed count whose body is an
// alignment to a byte at most and one appended integer. Where it is, the
// plan's pc of its kLoopEnd; nullopt for any other loop.
std::optional<std::size_t> appended_array_end(const std::vector<Instruction>& code, std::size_t pc) {
  const Instruction& loop = code[pc];
  if (loop.length_reg >= 0 || loop.count > kMostAppended) return std::nullopt;
  std::size_t body = pc + 1;
  if (body < code.size() && code[body].op == Op::kAlign && code[body].count <= 8) ++body;
  if (body + 1 >= code.size()) return std::nullopt;
  const Instruction& element = code[body];
  const Instruction& end = code[body + 1];
  if (element.op != Op::kInteger || !element.append || element.clock || element.reg >= 0 || element.capture < 0 ||
      element.size == 0 || element.size > 64 || element.size % 8 != 0 || end.op != Op::kLoopEnd ||
      end.target != pc + 1 || loop.target != body + 2) {
    return std::nullopt;
  }
  return body + 1;
}

}  // namespace

std::optional<StraightPlan> StraightPlan::compile(const ReadPlan& plan) {
  const std::vector<Instruction>& code = plan.code_;
  const std::size_t size = code.size();
  // Where a segment begins: the start, where the data may send the reading
  // (a variant's options, where it goes on, a jump's target), after a
  // string, and at an alignment the plan could not know when compiled.
  std::vector<bool> begins(size + 1, false);
  begins[0] = true;
  begins[size] = true;
  for (std::size_t pc = 0; pc < size; ++pc) {
    const Instruction& in = code[pc];
    switch (in.op) {
      case Op::kAlign:
        begins[pc] = true;
        break;
      case Op::kString:
      case Op::kVariant:
        begins[pc + 1] = true;
        break;
      case Op::kJump:
        begins[pc + 1] = true;
        if (in.target > size) return std::nullopt;
        begins[in.target] = true;
        break;
      case Op::kLoop: {
        const std::optional<std::size_t> end = appended_array_end(code, pc);
        if (!end) return std::nullopt;
        pc = *end;  // its body is read in line
        break;
      }
      case Op::kSkip:
      case Op::kInteger:
      case Op::kBytes:
      case Op::kRun:
        break;
      default:
        return std::nullopt;  // loops, sequences, LEB128 integers: the interpreter's
    }
  }
  for (const ReadPlan::VariantTable& table : plan.tables_) {
    for (const ReadPlan::VariantTable::Choice& choice : table.choices) {
      if (choice.start > size) return std::nullopt;
      begins[choice.start] = true;
    }
    if (table.otherwise != ReadPlan::VariantTable::kNoChoice) {
      if (table.otherwise > size) return std::nullopt;
      begins[table.otherwise] = true;
    }
  }
  std::vector<uint32_t> segment_at(size + 1, 0);
  uint32_t count = 0;
  for (std::size_t pc = 0; pc <= size; ++pc) {
    if (begins[pc]) segment_at[pc] = count++;
  }

  StraightPlan straight;
  straight.segments_.resize(count);
  // Each segment's successors come after it: reading cannot go round.
  auto later = [&](uint32_t from, std::size_t pc, uint32_t& to) {
    to = segment_at[pc];
    return to > from;
  };
  for (std::size_t start = 0; start <= size; ++start) {
    if (!begins[start]) continue;
    const uint32_t index = segment_at[start];
    Segment& segment = straight.segments_[index];
    // Its integers, then its arrays (captured bytes, appended elements):
    // each read by a loop of its own, without a test of its kind.
    std::vector<Read> integers, arrays;
    std::size_t pc = start;
    if (pc < size && code[pc].op == Op::kAlign) {
      if (code[pc].count == 0 || (code[pc].count & (code[pc].count - 1)) != 0) return std::nullopt;
      segment.alignment_mask = code[pc].count - 1;
      ++pc;
    }
    for (;; ++pc) {
      if (pc == size) {
        segment.end = End::kDone;
        break;
      }
      if (pc != start && begins[pc]) {
        segment.end = End::kNext;
        if (!later(index, pc, segment.next)) return std::nullopt;
        break;
      }
      const Instruction& in = code[pc];
      if (in.op == Op::kRun) continue;  // its fields follow it
      if (in.op == Op::kSkip) {
        if (in.count >= kMostBits || segment.bits + in.count >= kMostBits) return std::nullopt;
        segment.bits += in.count;
        continue;
      }
      if (in.op == Op::kInteger) {
        const unsigned shift = static_cast<unsigned>(segment.bits % 8);
        if (in.clock || in.append || in.size == 0 || in.size > 64 || shift + in.size > 64 ||
            segment.bits + in.size >= kMostBits) {
          return std::nullopt;
        }
        Read read;
        read.byte = segment.bits / 8;
        read.mask = in.size == 64 ? ~uint64_t{0} : (uint64_t{1} << in.size) - 1;
        read.big = in.order == ByteOrder::kBig;
        read.shift = static_cast<uint8_t>(read.big ? 64 - shift - in.size : shift);
        read.sign_shift = static_cast<uint8_t>(in.is_signed && in.size < 64 ? 64 - in.size : 0);
        read.reg = in.reg;
        read.capture = in.capture;
        integers.push_back(read);
        segment.room = std::max(segment.room, (read.byte + 8) * 8);
        segment.bits += in.size;
        continue;
      }
      if (in.op == Op::kLoop) {
        // Its elements in line, each a byte-aligned integer whose bytes
        // are appended (the body's alignment, a byte at most, is kept by
        // whole bytes from a byte-aligned start).
        const std::size_t end = *appended_array_end(code, pc);
        const Instruction& element = code[end - 1];
        if (segment.bits % 8 != 0 || segment.bits + in.count * element.size >= kMostBits) return std::nullopt;
        for (uint64_t e = 0; e < in.count; ++e) {
          Read read;
          read.byte = segment.bits / 8;
          read.mask = element.size == 64 ? ~uint64_t{0} : (uint64_t{1} << element.size) - 1;
          read.big = element.order == ByteOrder::kBig;
          read.shift = static_cast<uint8_t>(read.big ? 64 - element.size : 0);
          read.append = true;
          read.count = element.size;
          read.capture = element.capture;
          arrays.push_back(read);
          segment.room = std::max(segment.room, (read.byte + 8) * 8);
          segment.bits += element.size;
        }
        pc = end;  // its kLoopEnd
        continue;
      }
      if (in.op == Op::kBytes) {
        if (in.capture < 0 || in.count >= kMostBits / 8 || segment.bits + in.count * 8 >= kMostBits) {
          return std::nullopt;
        }
        Read read;
        read.byte = segment.bits / 8;
                read.capture = in.capture;
        read.count = static_cast<uint32_t>(in.count);
        arrays.push_back(read);
        segment.bits += in.count * 8;
        segment.room = std::max(segment.room, (read.byte + in.count) * 8);
        continue;
      }
      if (in.op == Op::kString) {
        if (in.size > 1) return std::nullopt;  // UTF-16 or UTF-32: the interpreter's
        segment.end = End::kString;
        segment.string_capture = in.capture;
        if (!later(index, pc + 1, segment.next)) return std::nullopt;
        break;
      }
      if (in.op == Op::kJump) {
        segment.end = End::kNext;
        if (!later(index, in.target, segment.next)) return std::nullopt;
        break;
      }
      if (in.op == Op::kVariant) {
        const ReadPlan::VariantTable& from = plan.tables_[in.target];
        Table table;
        table.selector = from.selector;
        table.capture = in.capture;
        table.is_signed = from.is_signed;
        bool dense = true;
        for (const ReadPlan::VariantTable::Choice& choice : from.choices) {
          uint32_t to = 0;
          if (!later(index, choice.start, to)) return std::nullopt;
          table.choices.push_back({choice.lower, choice.upper, choice.option, to});
          dense = dense && choice.lower >= 0 && choice.upper < static_cast<int64_t>(kDenseValues);
        }
        if (from.otherwise != ReadPlan::VariantTable::kNoChoice &&
            !later(index, from.otherwise, table.otherwise)) {
          return std::nullopt;
        }
        if (dense) {
          // The first choice whose range holds the value, as the choices in
          // order decide; a value beyond 255 is in none of them.
          table.dense.assign(kDenseValues, Table::kNone);
          for (std::size_t c = table.choices.size(); c-- > 0;) {
            const Table::Choice& choice = table.choices[c];
            for (int64_t v = choice.lower; v <= choice.upper; ++v) table.dense[static_cast<std::size_t>(v)] = static_cast<uint32_t>(c);
          }
        }
        segment.end = End::kVariant;
        segment.table = static_cast<uint32_t>(straight.tables_.size());
        straight.tables_.push_back(std::move(table));
        break;
      }
      return std::nullopt;  // an alignment inside: begins[] marks each
    }
    segment.room = std::max(segment.room, segment.bits);
    segment.first_read = static_cast<uint32_t>(straight.reads_.size());
    segment.integers = static_cast<uint32_t>(integers.size());
    segment.arrays = static_cast<uint32_t>(arrays.size());
    straight.reads_.insert(straight.reads_.end(), integers.begin(), integers.end());
    straight.reads_.insert(straight.reads_.end(), arrays.begin(), arrays.end());
  }
  return straight;
}

bool StraightPlan::run(const uint8_t* data, uint64_t& at, uint64_t limit, uint64_t* registers,
                       CapturedField* captures) const {
  uint64_t position = at;
  const Segment* const segments = segments_.data();
  const Read* const reads = reads_.data();
  for (uint32_t s = 0;;) {
    const Segment& segment = segments[s];
    position = align_up(position, segment.alignment_mask);
    if (position > limit || limit - position < segment.room) return false;
    if (segment.integers + segment.arrays != 0) {
      if ((position & 7) != 0) return false;
      const uint8_t* const base = data + position / 8;
      for (const Read *read = reads + segment.first_read, *end = read + segment.integers; read != end; ++read) {
        uint64_t word;
        std::memcpy(&word, base + read->byte, 8);
        if (read->big) word = __builtin_bswap64(word);
        uint64_t value = (word >> read->shift) & read->mask;
        value = static_cast<uint64_t>(static_cast<int64_t>(value << read->sign_shift) >> read->sign_shift);
        if (read->reg >= 0) registers[read->reg] = value;
        if (read->capture >= 0) {
          captures[read->capture].present = true;
          captures[read->capture].value = value;
        }
      }
      for (const Read *read = reads + segment.first_read + segment.integers, *end = read + segment.arrays; read != end;
           ++read) {
        CapturedField& out = captures[read->capture];
        const uint8_t* const from = base + read->byte;
        if (read->append) {
          // An element of a captured array: its bytes, most significant first.
          uint64_t word;
          std::memcpy(&word, from, 8);
          if (read->big) word = __builtin_bswap64(word);
          const uint64_t value = (word >> read->shift) & read->mask;
          out.present = true;
          for (unsigned shift = read->count; shift >= 8 && out.byte_count < out.bytes.size(); shift -= 8) {
            out.bytes[out.byte_count++] = static_cast<uint8_t>(value >> (shift - 8));
          }
          continue;
        }
        // A captured byte array, as the interpreter's: the first 16 kept
        // (an IPv4 or IPv6 address: a copy of a constant size).
        out.keep_bytes(from, read->count);
      }
    }
    position += segment.bits;
    switch (segment.end) {
      case End::kDone:
        at = position;
        return true;
      case End::kNext:
        s = segment.next;
        break;
      case End::kString: {
        const uint64_t byte = position / 8;
        const uint8_t* nul = ReadPlan::find_nul(data + byte, data + limit / 8);
        if (nul == nullptr) return false;
        if (segment.string_capture >= 0) {
          CapturedField& out = captures[segment.string_capture];
          out.present = true;
          out.text = data + byte;
          out.value = static_cast<uint64_t>(nul - out.text);
        }
        position = static_cast<uint64_t>(nul - data + 1) * 8;
        s = segment.next;
        break;
      }
      case End::kVariant: {
        const Table& table = tables_[segment.table];
        const uint64_t raw = registers[table.selector];
        uint32_t chosen = Table::kNone;
        if (!table.dense.empty()) {
          if (raw < table.dense.size()) chosen = table.dense[raw];
        } else {
          for (uint32_t c = 0; c < table.choices.size(); ++c) {
            const Table::Choice& choice = table.choices[c];
            const bool in_range = table.is_signed ? static_cast<int64_t>(raw) >= choice.lower &&
                                                        static_cast<int64_t>(raw) <= choice.upper
                                                  : raw >= static_cast<uint64_t>(choice.lower) &&
                                                        raw <= static_cast<uint64_t>(choice.upper);
            if (in_range) {
              chosen = c;
              break;
            }
          }
        }
        if (chosen == Table::kNone) {
          if (table.otherwise == Table::kNone) return false;  // the interpreter names the selector's value
          s = table.otherwise;
          break;
        }
        if (table.capture >= 0) {
          captures[table.capture].present = true;
          captures[table.capture].value = table.choices[chosen].option;
        }
        s = table.choices[chosen].segment;
        break;
      }
    }
  }
}

}  // namespace tracesync::ctf
