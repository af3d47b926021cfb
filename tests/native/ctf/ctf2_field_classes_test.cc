// SPDX-License-Identifier: EPL-2.0
// The CTF 2 field classes CTF 1.8 has no word for, read by the read plans:
// variable-length integers (LEB128, on the CTF2-vl-ints trace of
// tests/data/ctf2), optional fields, UTF-16 and UTF-32 strings, arrays with
// a minimum alignment above their elements', and field locations that climb
// with `null` or reach into a variant's option. Each is checked on bytes
// whose reading is known, against its CTF 1.8 twin where one exists (the
// same bytes read through the TSDL parser), and on damaged bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ctf/ctf2_metadata.h"
#include "ctf/ctf2_writer.h"
#include "ctf/read_plan.h"
#include "ctf/scan_plan.h"
#include "ctf/stream_scanner.h"
#include "ctf/tsdl_parser.h"
#include "ctf2_twins.h"

namespace tracesync::ctf {
namespace {

using namespace testing;  // NOLINT: the twins' helpers
using Bytes = std::vector<uint8_t>;

// One event record class `e` whose payload has `members` (JSON member classes).
std::string ctf2_event(const std::string& members) {
  return "\x1e{\"type\":\"preamble\",\"version\":2}\x1e{\"type\":\"data-stream-class\"}"
         "\x1e{\"type\":\"event-record-class\",\"name\":\"e\",\"payload-field-class\":"
         "{\"type\":\"structure\",\"member-classes\":[" +
         members + "]}}";
}
std::string member(const std::string& name, const std::string& field_class) {
  return "{\"name\":\"" + name + "\",\"field-class\":" + field_class + "}";
}
const std::string kU8 = R"({"type":"fixed-length-unsigned-integer","length":8,"byte-order":"little-endian","alignment":8})";
const std::string kU16 = R"({"type":"fixed-length-unsigned-integer","length":16,"byte-order":"little-endian","alignment":8})";
const std::string kS8 = R"({"type":"fixed-length-signed-integer","length":8,"byte-order":"little-endian","alignment":8})";
const std::string kBool8 = R"({"type":"fixed-length-boolean","length":8,"byte-order":"little-endian","alignment":8})";
const std::string kUleb = R"({"type":"variable-length-unsigned-integer"})";
const std::string kSleb = R"({"type":"variable-length-signed-integer"})";

// The same as CTF 1.8 TSDL: `fields` in the payload of event `e`.
std::string tsdl_event(const std::string& fields) {
  return "/* CTF 1.8 */\ntrace { major = 1; minor = 8; byte_order = le; };\n"
         "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
         "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
         "stream { };\nevent { name = e; fields := struct { " +
         fields + " }; };\n";
}

TraceClass parsed(const std::string& text) {
  std::string error;
  auto trace = text.front() == '\x1e' ? parse_ctf2(text, &error) : parse_tsdl(text, &error);
  EXPECT_TRUE(trace) << error << "\n" << text;
  return trace ? std::move(*trace) : TraceClass{};
}

// What the plan of event `e` read from `bytes`: the fields asked for, where
// it stopped, the problem if it failed.
struct Read {
  std::string unsupported;  // the plan could not be compiled
  bool ok = false;
  std::string problem;
  uint64_t end = 0;  // in bits
  std::vector<CapturedField> fields;
  uint64_t clock = 0;
  int64_t value(std::size_t i) const { return static_cast<int64_t>(fields.at(i).value); }
};

Read read(const TraceClass& trace, const std::vector<std::vector<std::string>>& asked, const Bytes& bytes,
          uint64_t clock = 0) {
  Read out;
  if (trace.stream_classes.empty() || trace.stream_classes.begin()->second.event_classes.empty()) {
    out.unsupported = "no event class";
    return out;
  }
  const StreamClass& stream = trace.stream_classes.begin()->second;
  auto compiler = PlanCompiler::for_stream(trace, stream, &out.unsupported);
  if (!compiler) return out;
  std::vector<FieldRequest> requests;
  for (const auto& names : asked) requests.push_back({Scope::kEventPayload, names});
  const auto plan = compiler->compile_event(stream.event_classes.begin()->second, requests, &out.unsupported);
  if (!plan) return out;
  ReadState state;
  state.registers.resize(compiler->registers());
  state.clock = clock;
  out.fields.resize(plan->captures());
  BitCursor cursor{bytes.data(), 0, bytes.size() * 8};
  out.ok = plan->run(cursor, state, out.fields.data(), out.problem);
  out.end = cursor.position;
  out.clock = state.clock;
  return out;
}

// Metadata written back by the translator reads as it was read.
void expect_round_trip(const TraceClass& trace) {
  std::string error;
  const auto written = write_ctf2(trace, &error);
  ASSERT_TRUE(written) << error;
  EXPECT_EQ(LayoutText::of(parsed(*written)), LayoutText::of(trace)) << *written;
}

// --- variable-length integers ---

TEST(Ctf2FieldClasses, ReadsTheVlIntsTrace) {
  // CTF2-vl-ints: no packet header or context, one event of 25 LEB128
  // integers, its stream file 133 bytes: the event is the whole file.
  const TraceClass trace = parsed(file_text(kCtf2Data / "vl-ints" / "ctf2" / "metadata"));
  const std::string stream = file_text(kCtf2Data / "vl-ints" / "streams" / "stream");
  ASSERT_EQ(stream.size(), 133u);
  const std::vector<std::string> names = {"vu1a", "vu1b", "vu2",  "vu3",  "vu4",   "vu5",   "vu6",  "vu7", "vu8",
                                          "vu9",  "vu10", "vi1a", "vi1b", "vi1c",  "vi2",   "vi3",  "vi4", "vi5",
                                          "vi6",  "vi7",  "vi8",  "vi9",  "vi10a", "vi10b", "vi10c"};
  std::vector<std::vector<std::string>> asked;
  for (const std::string& name : names) asked.push_back({name});
  const Read r = read(trace, asked, Bytes(stream.begin(), stream.end()));
  ASSERT_EQ(r.unsupported, "");
  ASSERT_TRUE(r.ok) << r.problem;
  EXPECT_EQ(r.end, 133u * 8);
  // The values its author chose (each field N bytes long, by its name), as
  // LEB128 (DWARF 5, 7.6) gives them.
  const std::vector<uint64_t> unsigned_values = {0,
                                                 77,
                                                 177,
                                                 43123,
                                                 21829382,
                                                 5121829382,
                                                 95121829382,
                                                 13895121829382,
                                                 913895121855555,
                                                 333333333333333333,
                                                 std::numeric_limits<uint64_t>::max()};
  for (std::size_t i = 0; i < unsigned_values.size(); ++i) {
    EXPECT_EQ(r.fields[i].value, unsigned_values[i]) << names[i];
  }
  const std::vector<int64_t> signed_values = {0,
                                              -1,
                                              23,
                                              -156,
                                              8556,
                                              -100101001,
                                              8288491823,
                                              -171717171717,
                                              123456787654321,
                                              -1121231234123450,
                                              99999999999999999,
                                              9223372036853775807,
                                              std::numeric_limits<int64_t>::max(),
                                              std::numeric_limits<int64_t>::min()};
  for (std::size_t i = 0; i < signed_values.size(); ++i) {
    EXPECT_EQ(r.value(unsigned_values.size() + i), signed_values[i]) << names[unsigned_values.size() + i];
  }
  expect_round_trip(trace);
}

TEST(Ctf2FieldClasses, VariableLengthIntegersAsLengthsSelectorsAndClocks) {
  // The textbook vectors: 624485 = E5 8E 26, -123456 = C0 BB 78; the
  // spec's 3-byte example 1,876,916 = B4 C7 72. `n` (LEB128) counts the
  // bytes of `d`; `sel` (signed LEB128) picks the variant's option.
  const TraceClass trace = parsed(ctf2_event(
      member("big", kUleb) + "," + member("neg", kSleb) + "," + member("spec", kUleb) + "," + member("n", kUleb) + "," +
      member("d", R"({"type":"dynamic-length-array","length-field-location":{"path":["n"]},"element-field-class":)" +
                      kU8 + "}") +
      "," + member("sel", kSleb) + "," +
      member("v", R"({"type":"variant","selector-field-location":{"path":["sel"]},"options":[)"
                  R"({"name":"a","selector-field-ranges":[[-2,-2]],"field-class":)" +
                      kU16 + R"(},{"name":"b","selector-field-ranges":[[0,10]],"field-class":)" + kU8 + "}]}") +
      "," + member("after", kU8)));
  const Bytes bytes = {0xE5, 0x8E, 0x26, 0xC0, 0xBB, 0x78, 0xB4, 0xC7, 0x72, 0x02, 9, 9, 0x7E, 0x34, 0x12, 0x55};
  const Read r = read(trace, {{"big"}, {"neg"}, {"spec"}, {"v"}, {"after"}}, bytes);
  ASSERT_EQ(r.unsupported, "");
  ASSERT_TRUE(r.ok) << r.problem;
  EXPECT_EQ(r.value(0), 624485);
  EXPECT_EQ(r.value(1), -123456);
  EXPECT_EQ(r.value(2), 1876916);
  EXPECT_EQ(r.value(3), 0);  // option `a`: sel = 0x7E = -2 (7 bits, sign bit set)
  EXPECT_EQ(r.value(4), 0x55);
  EXPECT_EQ(r.end, bytes.size() * 8);
  expect_round_trip(trace);

  // A LEB128 timestamp holds the clock's low 7 x (its bytes) bits (CTF 2,
  // 6.3): one byte, 5, after a clock of 0x17F wraps its 7 bits: 0x100 + 0x80 + 5.
  const TraceClass clocked = parsed(
      "\x1e{\"type\":\"preamble\",\"version\":2}\x1e{\"type\":\"clock-class\",\"id\":\"c\",\"frequency\":1000}"
      "\x1e{\"type\":\"data-stream-class\",\"default-clock-class-id\":\"c\",\"event-record-header-field-class\":"
      "{\"type\":\"structure\",\"member-classes\":[{\"name\":\"t\",\"field-class\":{\"type\":"
      "\"variable-length-unsigned-integer\",\"roles\":[\"default-clock-timestamp\"]}}]}}"
      "\x1e{\"type\":\"event-record-class\",\"name\":\"e\"}");
  const StreamClass& stream = clocked.stream_classes.at(0);
  std::string unsupported;
  auto compiler = PlanCompiler::for_stream(clocked, stream, &unsupported);
  ASSERT_TRUE(compiler) << unsupported;
  const auto header = compiler->compile(Scope::kEventHeader, stream.event_header, {}, {}, &unsupported);
  ASSERT_TRUE(header) << unsupported;
  auto clock_after = [&](uint64_t before, const Bytes& timestamp) {
    ReadState state;
    state.registers.resize(compiler->registers());
    state.clock = before;
    BitCursor cursor{timestamp.data(), 0, timestamp.size() * 8};
    std::string problem;
    EXPECT_TRUE(header->run(cursor, state, nullptr, problem)) << problem;
    return state.clock;
  };
  EXPECT_EQ(clock_after(0x17F, {0x05}), 0x185u);
  EXPECT_EQ(clock_after(0x17F, {0x7F}), 0x17Fu);        // the same low bits: no wrap
  EXPECT_EQ(clock_after(0x17F, {0x80, 0x03}), 0x180u);  // 14 bits: 0x180 above 0x17F's low 14 bits
}

TEST(Ctf2FieldClasses, DamagedVariableLengthIntegersAreNamedWhereTheyAre) {
  const TraceClass trace = parsed(ctf2_event(member("pad", kU8) + "," + member("x", kUleb) + "," + member("y", kSleb)));
  struct Case {
    Bytes bytes;
    std::string expected;
  };
  const std::vector<Case> cases = {
      // Its continuation bit set on the packet's last byte.
      {{0, 0x80, 0x80}, "field `x` at byte 3 needs 8 bits, past the packet's content (which ends at byte 3)"},
      // 2^64: ten bytes, the tenth carrying bit 64.
      {{0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02, 0},
       "variable-length integer `x` at byte 1 (10 bytes) does not fit an unsigned 64-bit integer"},
      // Eleven bytes: longer than any 64-bit value needs.
      {{0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0},
       "variable-length integer `x` at byte 1 (11 bytes) does not fit an unsigned 64-bit integer"},
      // -2^63 - 1.
      {{0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7E},
       "variable-length integer `y` at byte 2 (10 bytes) does not fit a signed 64-bit integer"},
  };
  for (const Case& c : cases) {
    const Read r = read(trace, {{"x"}, {"y"}}, c.bytes);
    ASSERT_EQ(r.unsupported, "");
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.problem, c.expected);
  }
}

// --- captured byte arrays (addresses): one copy, as a loop of bytes reads them ---
TEST(ReadPlanBytes, ACapturedByteArrayIsItsBytesAndACutOneFailsAtItsFirstMissingByte) {
  const TraceClass trace = parsed(tsdl_event("uint8_t pad; uint8_t addr[4]; uint16_t port;"));
  const Read whole = read(trace, {{"addr"}, {"port"}}, {9, 10, 11, 12, 13, 0x34, 0x12});
  ASSERT_EQ(whole.unsupported, "");
  ASSERT_TRUE(whole.ok) << whole.problem;
  EXPECT_EQ(whole.end, 7u * 8);
  ASSERT_TRUE(whole.fields[0].present);
  ASSERT_EQ(whole.fields[0].byte_count, 4);
  EXPECT_EQ((Bytes{whole.fields[0].bytes.begin(), whole.fields[0].bytes.begin() + 4}), (Bytes{10, 11, 12, 13}));
  EXPECT_EQ(whole.value(1), 0x1234);
  // Cut after k of its bytes: none left is a count past the content; some,
  // the first byte missing, where it would be.
  const Read none = read(trace, {{"addr"}}, {9});
  EXPECT_FALSE(none.ok);
  EXPECT_EQ(none.problem, "array `addr` at byte 1 of 4 elements runs past the packet's content (which ends at byte 1)");
  for (uint8_t kept = 1; kept < 4; ++kept) {
    Bytes bytes{9};
    for (uint8_t i = 0; i < kept; ++i) bytes.push_back(static_cast<uint8_t>(10 + i));
    const Read cut = read(trace, {{"addr"}}, bytes);
    EXPECT_FALSE(cut.ok);
    EXPECT_EQ(cut.problem, "field `addr` at byte " + std::to_string(1 + kept) +
                               " needs 8 bits, past the packet's content (which ends at byte " + std::to_string(1 + kept) +
                               ")");
    EXPECT_EQ(cut.end, (1u + kept) * 8);
  }
}

TEST(ReadPlanBytes, ALongByteArrayKeepsItsFirstSixteenBytes) {
  const TraceClass trace = parsed(tsdl_event("uint8_t addr[20]; uint8_t after;"));
  Bytes bytes;
  for (uint8_t i = 0; i < 21; ++i) bytes.push_back(i);
  const Read r = read(trace, {{"addr"}, {"after"}}, bytes);
  ASSERT_TRUE(r.ok) << r.problem << r.unsupported;
  ASSERT_EQ(r.fields[0].byte_count, 16);
  EXPECT_EQ((Bytes{r.fields[0].bytes.begin(), r.fields[0].bytes.end()}),
            (Bytes{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}));
  EXPECT_EQ(r.value(1), 20);
}

// --- fixed runs: one bounds check where the packet has room for them all ---
TEST(ReadPlanRuns, AFixedRunReadsAsItsFieldsOneByOneAndACutOneFailsAtItsFirstMissingField) {
  // One run (a skip, a byte array, integers of 16 and 32 bits, 7 skipped
  // bits, a signed 9-bit field across two bytes, a big-endian one, a byte),
  // 16 bytes in all.
  const TraceClass trace = parsed(tsdl_event(
      "uint8_t pad; uint8_t addr[4]; uint16_t port; integer { size = 32; align = 8; signed = false; } seq; "
      "integer { size = 7; align = 1; signed = false; } low; integer { size = 9; align = 1; signed = true; } flags; "
      "integer { size = 16; align = 8; signed = false; byte_order = be; } big; uint8_t last;"));
  const std::vector<std::vector<std::string>> asked{{"addr"}, {"port"}, {"seq"}, {"flags"}, {"big"}, {"last"}};
  const Bytes bytes{9, 10, 11, 12, 13, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12, 0xFF, 0xFF, 0xAB, 0xCD, 0x42};
  const Read whole = read(trace, asked, bytes);
  ASSERT_EQ(whole.unsupported, "");
  ASSERT_TRUE(whole.ok) << whole.problem;
  EXPECT_EQ(whole.end, 16u * 8);
  ASSERT_EQ(whole.fields[0].byte_count, 4);
  EXPECT_EQ((Bytes{whole.fields[0].bytes.begin(), whole.fields[0].bytes.begin() + 4}), (Bytes{10, 11, 12, 13}));
  EXPECT_EQ(whole.value(1), 0x1234);
  EXPECT_EQ(whole.value(2), 0x12345678);
  EXPECT_EQ(whole.value(3), -1);  // 0x1FF, sign-extended
  EXPECT_EQ(whole.value(4), 0xABCD);
  EXPECT_EQ(whole.value(5), 0x42);
  // Cut after each byte: the fields wholly before the cut are read as
  // above, none after it, and the problem names the first that is cut.
  const uint64_t ends[] = {8 + 32, 8 + 32 + 16, 8 + 32 + 16 + 32, 104, 120, 128};  // of each asked field, in bits
  for (std::size_t kept = 0; kept < bytes.size(); ++kept) {
    const Read cut = read(trace, asked, Bytes(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(kept)));
    EXPECT_FALSE(cut.ok) << kept;
    EXPECT_LE(cut.end, kept * 8);
    for (std::size_t i = 1; i < asked.size(); ++i) {
      EXPECT_EQ(cut.fields[i].present, ends[i] <= kept * 8) << kept << " " << i;
      if (cut.fields[i].present) {
        EXPECT_EQ(cut.fields[i].value, whole.fields[i].value) << kept << " " << i;
      }
    }
  }
  EXPECT_EQ(read(trace, asked, Bytes(bytes.begin(), bytes.begin() + 15)).problem,
            "field `last` at byte 15 needs 8 bits, past the packet's content (which ends at byte 15)");
  EXPECT_EQ(read(trace, asked, Bytes(bytes.begin(), bytes.begin() + 12)).problem,
            "field `flags` at byte 11 bit 7 needs 9 bits, past the packet's content (which ends at byte 12)");
  EXPECT_EQ(read(trace, asked, Bytes(bytes.begin(), bytes.begin() + 6)).problem,
            "field `port` at byte 5 needs 16 bits, past the packet's content (which ends at byte 6)");
}

// --- strings: the first NUL before the end, 16 bytes, a word or memchr at a time ---
TEST(ReadPlanStrings, FindNulFindsTheFirstNulBeforeTheEndAndNoneAtOrPastIt) {
  for (std::size_t nul = 0; nul <= 80; ++nul) {  // 80: none
    Bytes bytes(80, 'a');
    if (nul < bytes.size()) bytes[nul] = 0;
    if (nul + 3 < bytes.size()) bytes[nul + 3] = 0;  // a later one is not the first
    for (std::size_t end = 0; end <= bytes.size(); ++end) {
      const uint8_t* found = ReadPlan::find_nul(bytes.data(), bytes.data() + end);
      EXPECT_EQ(found, nul < end ? bytes.data() + nul : nullptr) << "NUL at " << nul << ", end at " << end;
    }
  }
}

// --- optional fields ---

TEST(Ctf2FieldClasses, OptionalFieldsReadAsTheirCtf18VariantTwins) {
  // CTF 1.8 says an optional field with a variant whose other option is an
  // empty structure.
  const TraceClass by_boolean = parsed(ctf2_event(
      member("has", kBool8) + "," +
      member("o", R"({"type":"optional","selector-field-location":{"path":["has"]},"field-class":)" + kU16 + "}") +
      "," + member("after", kU8)));
  const TraceClass by_range = parsed(ctf2_event(
      member("has", kS8) + "," +
      member("o", R"({"type":"optional","selector-field-location":{"origin":"event-record-payload","path":["has"]},)"
                  R"("selector-field-ranges":[[-128,-100],[1,127]],"field-class":)" +
                      kU16 + "}") +
      "," + member("after", kU8)));
  const TraceClass twin = parsed(tsdl_event(
      "enum : uint8_t { absent = 0, present = 1 ... 255 } has; "
      "variant <has> { struct { } absent; uint16_t present; } o; uint8_t after;"));
  for (const Bytes& bytes : {Bytes{1, 0x34, 0x12, 7}, Bytes{0, 7, 0x34, 0x12}, Bytes{0x7F, 0x34, 0x12, 7}}) {
    const Read twin_read = read(twin, {{"o", "present"}, {"after"}}, bytes);
    ASSERT_TRUE(twin_read.ok) << twin_read.problem << twin_read.unsupported;
    const bool present = bytes[0] != 0;
    EXPECT_EQ(twin_read.fields[0].present, present);
    EXPECT_EQ(twin_read.value(1), 7);
    for (const TraceClass* trace : {&by_boolean, &by_range}) {
      const Read r = read(*trace, {{"o"}, {"after"}}, bytes);
      ASSERT_EQ(r.unsupported, "");
      ASSERT_TRUE(r.ok) << r.problem;
      EXPECT_EQ(r.fields[0].present, present);
      if (present) {
        EXPECT_EQ(r.value(0), 0x1234);
      }
      EXPECT_EQ(r.value(1), 7);
      EXPECT_EQ(r.end, twin_read.end);
    }
  }
  // A selector outside the ranges leaves it out: -99.
  const Read out = read(by_range, {{"o"}, {"after"}}, {0x9D, 7});
  ASSERT_TRUE(out.ok) << out.problem;
  EXPECT_FALSE(out.fields[0].present);
  EXPECT_EQ(out.value(1), 7);
  expect_round_trip(by_boolean);
  expect_round_trip(by_range);

  // An integer selector needs ranges (CTF 2, 5.3.22): said, not guessed.
  const TraceClass no_ranges = parsed(ctf2_event(
      member("has", kU8) + "," +
      member("o", R"({"type":"optional","selector-field-location":{"path":["has"]},"field-class":)" + kU16 + "}")));
  EXPECT_EQ(read(no_ranges, {}, {1, 0, 0}).unsupported,
            "event `e`: optional `o`: its selector `has` is an integer, but it has no `selector-field-ranges`");
}

// --- strings in UTF-16 and UTF-32 ---

TEST(Ctf2FieldClasses, Utf16AndUtf32StringsEndAtAZeroCodeUnit) {
  const TraceClass trace = parsed(ctf2_event(
      member("a", R"({"type":"null-terminated-string","encoding":"utf-16le"})") + "," + member("x", kU8) + "," +
      member("b", R"({"type":"null-terminated-string","encoding":"utf-32be"})") + "," + member("y", kU8) + "," +
      member("c", R"({"type":"static-length-string","length":6,"encoding":"utf-16be"})") + "," + member("n", kU8) +
      "," +
      member("d", R"({"type":"dynamic-length-string","length-field-location":{"path":["n"]},"encoding":"utf-32le"})") +
      "," + member("z", kU8)));
  // "Ā" in UTF-16LE is 00 01: a zero byte that does not end it. "A" in
  // UTF-32BE is 00 00 00 41. `c`: 6 bytes, "hi" and padding; `d`: 8 bytes.
  const Bytes bytes = {0x00, 0x01, 0x41, 0x00, 0x00, 0x00, 1, 0, 0, 0, 0x41, 0, 0, 0, 0, 2,
                       0,    'h',  0,    'i',  0,    0,    8, 'o', 0, 0, 0, 'k', 0, 0, 0, 3};
  const Read r = read(trace, {{"a"}, {"x"}, {"y"}, {"z"}}, bytes);
  ASSERT_EQ(r.unsupported, "");
  ASSERT_TRUE(r.ok) << r.problem;
  EXPECT_EQ(r.fields[0].value, 4u);  // its bytes before the zero code unit
  EXPECT_EQ(r.value(1), 1);
  EXPECT_EQ(r.value(2), 2);
  EXPECT_EQ(r.value(3), 3);
  EXPECT_EQ(r.end, bytes.size() * 8);
  expect_round_trip(trace);

  // Its CTF 1.8 twin of `c` and `d`: bytes (a string's length counts
  // bytes whatever its encoding).
  const TraceClass twin = parsed(tsdl_event("uint8_t c[6]; uint8_t n; uint8_t d[n]; uint8_t z;"));
  const TraceClass ctf2 = parsed(ctf2_event(
      member("c", R"({"type":"static-length-string","length":6,"encoding":"utf-16be"})") + "," + member("n", kU8) +
      "," +
      member("d", R"({"type":"dynamic-length-string","length-field-location":{"path":["n"]},"encoding":"utf-32le"})") +
      "," + member("z", kU8)));
  const Bytes tail(bytes.begin() + 16, bytes.end());
  EXPECT_EQ(read(twin, {{"z"}}, tail).value(0), 3);
  EXPECT_EQ(read(ctf2, {{"z"}}, tail).value(0), 3);

  // A code unit cut by the end of the content: no end.
  const Read cut = read(trace, {}, {0x41, 0x00, 0x42});
  EXPECT_FALSE(cut.ok);
  EXPECT_EQ(cut.problem, "string `a` at byte 0 has no end before the packet's content ends (at byte 3)");
}

// --- alignment and locations ---

TEST(Ctf2FieldClasses, ArrayMinimumAlignmentReadsAsCtf18Padding) {
  // LTTng 2.15 writes CTF 1.8's aligned empty structure before an array as
  // the array's minimum alignment.
  const TraceClass ctf2 = parsed(ctf2_event(
      member("n", kU8) + "," +
      member("a", R"({"type":"static-length-array","length":2,"minimum-alignment":32,"element-field-class":)" + kU8 +
                      "}") +
      "," + member("m", kU8) + "," +
      member("s", R"({"type":"dynamic-length-array","length-field-location":{"path":["m"]},"minimum-alignment":64,)"
                  R"("element-field-class":)" +
                      kU8 + "}") +
      "," + member("after", kU8)));
  const TraceClass twin = parsed(tsdl_event(
      "uint8_t n; struct { } align(32) _a_padding; uint8_t a[2]; uint8_t m; "
      "struct { } align(64) _s_padding; uint8_t s[m]; uint8_t after;"));
  const Bytes bytes = {1, 0xEE, 0xEE, 0xEE, 10, 11, 2, 0xEE, 3, 4, 9};
  const Read a = read(ctf2, {{"a"}, {"after"}}, bytes);
  const Read b = read(twin, {{"a"}, {"after"}}, bytes);
  ASSERT_TRUE(a.ok) << a.problem << a.unsupported;
  ASSERT_TRUE(b.ok) << b.problem << b.unsupported;
  EXPECT_EQ(a.fields[0].byte_count, 2u);
  EXPECT_EQ(a.fields[0].bytes[0], 10);
  EXPECT_EQ(a.fields[0].bytes[1], 11);
  EXPECT_EQ(a.value(1), 9);
  EXPECT_EQ(a.end, bytes.size() * 8);
  EXPECT_EQ(b.value(1), 9);
  EXPECT_EQ(b.end, a.end);
  // The spec's example 57: 32 one-bit booleans in a 32-bit aligned word.
  const TraceClass flags = parsed(ctf2_event(
      member("n", kU8) + "," +
      member("f", R"({"type":"static-length-array","length":32,"minimum-alignment":32,"element-field-class":)"
                  R"({"type":"fixed-length-boolean","length":1,"byte-order":"little-endian"}})") +
      "," + member("after", kU8)));
  const Read f = read(flags, {{"after"}}, {1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 5});
  ASSERT_TRUE(f.ok) << f.problem << f.unsupported;
  EXPECT_EQ(f.value(0), 5);
  expect_round_trip(ctf2);
  expect_round_trip(flags);
}

TEST(Ctf2FieldClasses, LocationsClimbWithNullAndReachIntoVariantOptions) {
  const TraceClass trace = parsed(ctf2_event(
      member("len", kU8) + "," +
      member("inner",
             R"({"type":"structure","member-classes":[)" + member("len", kU16) + "," +
                 member("s", R"({"type":"dynamic-length-array","length-field-location":{"path":[null,"len"]},)"
                             R"("element-field-class":)" +
                                 kU8 + "}") +
                 "," +
                 member("t", R"({"type":"dynamic-length-array","length-field-location":{"path":["len"]},)"
                             R"("element-field-class":)" +
                                 kU8 + "}") +
                 "]}") +
      "," + member("sel", kU8) + "," +
      member("v", R"({"type":"variant","selector-field-location":{"path":["sel"]},"options":[)"
                  R"({"name":"one","selector-field-ranges":[[1,1]],"field-class":{"type":"structure",)"
                  R"("member-classes":[)" +
                      member("k", kU8) + R"(]}},{"name":"two","selector-field-ranges":[[2,2]],"field-class":)" + kU8 +
                      "}]}") +
      "," +
      member("w", R"({"type":"dynamic-length-array","length-field-location":{"origin":"event-record-payload",)"
                  R"("path":["v","k"]},"element-field-class":)" +
                      kU8 + "}") +
      "," + member("after", kU8)));
  // len 1 (outer), inner.len 2: s has 1 element (`null` climbs to the
  // payload), t has 2 (the inner `len`); v picks option one, k = 3: w has 3.
  const Bytes bytes = {1, 2, 0, 0xAA, 0xBB, 0xBB, 1, 3, 0xCC, 0xCC, 0xCC, 9};
  const Read r = read(trace, {{"after"}}, bytes);
  ASSERT_EQ(r.unsupported, "");
  ASSERT_TRUE(r.ok) << r.problem;
  EXPECT_EQ(r.value(0), 9);
  EXPECT_EQ(r.end, bytes.size() * 8);
  expect_round_trip(trace);

  // A `null` above the scope's root names nothing.
  const TraceClass above = parsed(ctf2_event(
      member("len", kU8) + "," +
      member("s", R"({"type":"dynamic-length-array","length-field-location":{"path":[null,"len"]},)"
                  R"("element-field-class":)" +
                      kU8 + "}")));
  EXPECT_EQ(read(above, {}, {1, 1}).unsupported, "event `e`: sequence `s`: `(parent).len` names no integer before it");
}

// --- all of them in a trace, through the stream scanner ---

class Recorder final : public EventVisitor {
 public:
  struct Event {
    std::string name;
    uint64_t clock;
    std::vector<CapturedField> fields;
  };
  std::vector<Event> events;
  void selected_event(const ScanPlan::EventPlan& event, const ScanPlan::StreamPlan&, uint64_t clock,
                      const CapturedField* captures) override {
    events.push_back({event.event_class->name, clock, std::vector<CapturedField>(captures, captures + 2)});
  }
};

TEST(Ctf2FieldClasses, TheScannerReadsATraceOfThemAll) {
  // LEB128 event record class ids and timestamps (their wrap over 7 x N
  // bits), an optional, a UTF-16 string, a signed LEB128, an aligned
  // dynamic-length array, in one packet the scanner walks by its roles.
  const std::string metadata =
      "\x1e{\"type\":\"preamble\",\"version\":2}\x1e{\"type\":\"clock-class\",\"id\":\"c\",\"frequency\":1000}"
      "\x1e{\"type\":\"data-stream-class\",\"default-clock-class-id\":\"c\",\"packet-context-field-class\":"
      "{\"type\":\"structure\",\"member-classes\":[" +
      member("size", R"({"type":"fixed-length-unsigned-integer","length":32,"byte-order":"little-endian","alignment":8,)"
                     R"("roles":["packet-total-length"]})") +
      "," +
      member("content", R"({"type":"fixed-length-unsigned-integer","length":32,"byte-order":"little-endian",)"
                        R"("alignment":8,"roles":["packet-content-length"]})") +
      "," + member("begin", R"({"type":"variable-length-unsigned-integer","roles":["default-clock-timestamp"]})") +
      "]},\"event-record-header-field-class\":{\"type\":\"structure\",\"member-classes\":[" +
      member("id", R"({"type":"variable-length-unsigned-integer","roles":["event-record-class-id"]})") + "," +
      member("t", R"({"type":"variable-length-unsigned-integer","roles":["default-clock-timestamp"]})") +
      "]}}\x1e{\"type\":\"event-record-class\",\"id\":0,\"name\":\"a\",\"payload-field-class\":{\"type\":"
      "\"structure\",\"member-classes\":[" +
      member("has", kBool8) + "," +
      member("o", R"({"type":"optional","selector-field-location":{"path":["has"]},"field-class":)" + kU16 + "}") + "," +
      member("s", R"({"type":"null-terminated-string","encoding":"utf-16le"})") + "," + member("n", kSleb) +
      "]}}\x1e{\"type\":\"event-record-class\",\"id\":1,\"name\":\"b\",\"payload-field-class\":{\"type\":"
      "\"structure\",\"member-classes\":[" +
      member("len", kUleb) + "," +
      member("d", R"({"type":"dynamic-length-array","length-field-location":{"path":["len"]},"minimum-alignment":32,)"
                  R"("element-field-class":)" +
                      kU8 + "}") +
      "," + member("after", kU8) + "]}}";
  Bytes packet = {0, 0, 0, 0, 0, 0, 0, 0, 0x02};  // sizes (set below), begin: clock 2
  // a at 5: has, o = 0x1234, s = "A", n = -2.
  packet.insert(packet.end(), {0x00, 0x05, 1, 0x34, 0x12, 0x41, 0x00, 0x00, 0x00, 0x7E});
  // b at 0x83 (3 below 5's low 7 bits: they wrapped); its payload aligned
  // as its most aligned member, d (CTF 2, 6.4.1): len 2, d after padding to
  // 32 bits again, after = 9.
  packet.insert(packet.end(), {0x01, 0x03});
  while (packet.size() % 4 != 0) packet.push_back(0xEE);
  packet.push_back(0x02);
  while (packet.size() % 4 != 0) packet.push_back(0xEE);
  packet.insert(packet.end(), {0xAA, 0xBB, 9});
  // a at 0x101 (two bytes: 14 bits): has 0, no o, s = "Ā" (00 01 in
  // UTF-16LE, a zero byte that does not end it), n = 5.
  packet.insert(packet.end(), {0x00, 0x81, 0x02, 0, 0x00, 0x01, 0x00, 0x00, 0x05});
  const auto bits = static_cast<uint32_t>(packet.size() * 8);
  for (int i = 0; i < 4; ++i) packet[i] = packet[4 + i] = static_cast<uint8_t>(bits >> (8 * i));

  TempDir dir;
  const fs::path stream = dir.path() / "stream";
  std::ofstream(stream, std::ios::binary).write(reinterpret_cast<const char*>(packet.data()),
                                                 static_cast<std::streamsize>(packet.size()));
  std::string error;
  auto plan = ScanPlan::compile(
      parsed(metadata),
      [](const EventClass& event) -> std::optional<std::vector<FieldRequest>> {
        if (event.name == "a") return std::vector<FieldRequest>{{Scope::kEventPayload, {"o"}}, {Scope::kEventPayload, {"n"}}};
        return std::vector<FieldRequest>{{Scope::kEventPayload, {"after"}}, {Scope::kEventPayload, {"len"}}};
      },
      &error);
  ASSERT_TRUE(plan) << error;
  StreamScanner scanner(*plan, stream.string());
  ASSERT_TRUE(scanner.open(error)) << error;
  Recorder recorder;
  PacketSummary summary;
  ASSERT_TRUE(scanner.next_packet(recorder, summary, error)) << error;
  EXPECT_TRUE(scanner.at_end());
  EXPECT_EQ(summary.events, 3u);
  EXPECT_EQ(summary.begin_clock, 2u);
  ASSERT_EQ(recorder.events.size(), 3u);
  EXPECT_EQ(recorder.events[0].name, "a");
  EXPECT_EQ(recorder.events[0].clock, 5u);
  EXPECT_EQ(recorder.events[0].fields[0].value, 0x1234u);
  EXPECT_EQ(static_cast<int64_t>(recorder.events[0].fields[1].value), -2);
  EXPECT_EQ(recorder.events[1].name, "b");
  EXPECT_EQ(recorder.events[1].clock, 0x83u);
  EXPECT_EQ(recorder.events[1].fields[0].value, 9u);
  EXPECT_EQ(recorder.events[1].fields[1].value, 2u);
  EXPECT_EQ(recorder.events[2].name, "a");
  EXPECT_EQ(recorder.events[2].clock, 0x101u);
  EXPECT_FALSE(recorder.events[2].fields[0].present);
  EXPECT_EQ(recorder.events[2].fields[1].value, 5u);
}

}  // namespace
}  // namespace tracesync::ctf
