// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

// The model of a CTF trace's metadata that every metadata parser produces
// (CTF 1.8 TSDL today, CTF 2's JSON fragments later) and the read plans are
// compiled from: clock classes, stream classes, event classes and their field
// classes, field references as written.
namespace tracesync::ctf {

enum class ByteOrder : uint8_t { kLittle, kBig };

struct FieldClass;
using FieldClassPtr = std::shared_ptr<const FieldClass>;

// The root scopes a field reference may start from (CTF 1.8, section 7.3.2).
enum class Scope : uint8_t {
  kPacketHeader,
  kPacketContext,
  kEventHeader,
  kStreamEventContext,
  kEventContext,
  kEventPayload,
};
const char* to_string(Scope scope);

// A reference to an integer (a sequence's length, a variant's
// selector): the root scope and the member names down to it.
// A relative path (the usual: `variant <id>`) is resolved by the read plan's
// compiler, which knows where the field is used.
struct FieldPath {
  bool absolute = false;
  Scope scope = Scope::kEventPayload;  // when absolute
  // CTF 2, relative: how many enclosing structures to climb (a `null` in
  // the location's path each) from the one holding the field before
  // following `names`. 0: `names[0]` is looked up outwards from there.
  unsigned climb = 0;
  std::vector<std::string> names;
  std::string text() const;  // as written: "stream.event.header.id"
};

struct Mapping {  // of an enumeration: a label for the values lower..upper
  std::string label;
  int64_t lower = 0;  // as unsigned bits when the container is unsigned
  int64_t upper = 0;
};

struct Member {
  std::string name;  // as written (LTTng writes a leading underscore)
  FieldClassPtr type;
};

struct FieldClass {
  enum class Kind : uint8_t {
    kInteger, kEnumeration, kFloat, kString, kStructure, kArray, kSequence, kVariant,
    kOptional,  // CTF 2: `element`, or nothing, as its selector says
  };
  Kind kind = Kind::kInteger;
  unsigned alignment = 8;  // in bits

  // kInteger and kEnumeration (its container)
  unsigned size = 0;  // in bits; kFloat: exponent + mantissa digits
  bool is_signed = false;
  ByteOrder byte_order = ByteOrder::kLittle;
  bool text = false;  // encoding UTF8 / ASCII: an array of 8-bit ones is a string
  // CTF 2's variable-length integers (LEB128): a byte-aligned run of bytes,
  // 7 bits of the value each; `size` is then 64, the most a value may hold.
  bool variable_length = false;
  bool boolean = false;  // CTF 2's fixed-length booleans (an unsigned kInteger)
  std::string mapped_clock;  // `map = clock.NAME.value`: the clock it updates
  // CTF 2: what the field is for ("packet-total-length", "event-record-class-id"...,
  // as the metadata writes it); CTF 1.8 says it by member names, so empty there.
  std::string role;

  std::vector<Mapping> mappings;  // kEnumeration

  // Strings (kString, a text array or sequence): the bytes of one code unit
  // of the encoding, 1 (UTF-8), 2 (UTF-16) or 4 (UTF-32), and for 2 and 4,
  // `byte_order` says which. Lengths stay in bytes whatever the encoding.
  uint8_t code_unit = 1;

  std::vector<Member> members;  // kStructure; kVariant: its options

  FieldClassPtr element;     // kArray, kSequence; kOptional: the field when enabled
  uint64_t length = 0;       // kArray
  FieldPath length_field;    // kSequence
  FieldPath selector;        // kVariant: an enumeration; kOptional: a boolean or an integer
  // kVariant of CTF 2: the selector values that pick each option (its index
  // among `members`). Empty for CTF 1.8, whose options are picked by the
  // selector's enumeration labels. kOptional: the integer selector's values
  // that enable it (option 0); empty for a boolean selector (true enables).
  struct OptionRange {
    std::size_t option = 0;
    int64_t lower = 0, upper = 0;  // as unsigned bits when the selector is unsigned
  };
  std::vector<OptionRange> option_ranges;

  bool is_integer() const { return kind == Kind::kInteger || kind == Kind::kEnumeration; }
  // An array or sequence of byte-aligned 8-bit text integers: a string to a
  // CTF reader (babeltrace2 makes it one).
  bool is_text_array() const;
  // Its member named `name`, one leading underscore aside on both sides.
  const Member* member(const std::string& name) const;
};

struct ClockClass {
  std::string name;
  std::optional<std::string> uuid;  // lower-case 8-4-4-4-12 text
  std::string description;
  uint64_t frequency = 1'000'000'000;
  uint64_t precision = 0;
  int64_t offset_seconds = 0;
  int64_t offset_cycles = 0;
  bool absolute = false;
};

struct EventClass {
  uint64_t id = 0;
  std::string name;
  uint64_t stream_class_id = 0;
  std::optional<int64_t> log_level;
  FieldClassPtr context;  // may be null
  FieldClassPtr payload;  // may be null
  unsigned line = 0;      // where its block begins in the metadata text
};

struct StreamClass {
  uint64_t id = 0;
  FieldClassPtr packet_context;
  FieldClassPtr event_header;
  FieldClassPtr event_context;
  std::map<uint64_t, EventClass> event_classes;  // by id
};

struct TraceClass {
  unsigned major = 1, minor = 8;
  std::optional<std::array<uint8_t, 16>> uuid;
  ByteOrder byte_order = ByteOrder::kLittle;
  FieldClassPtr packet_header;
  std::map<std::string, std::string> environment_strings;
  std::map<std::string, int64_t> environment_integers;
  std::vector<ClockClass> clocks;
  std::map<uint64_t, StreamClass> stream_classes;  // by id

  const ClockClass* clock(const std::string& name) const;
};

// "6cec2ee2-5d07-..." as 16 bytes; nullopt when it is not such text.
std::optional<std::array<uint8_t, 16>> parse_uuid(const std::string& text);
std::string uuid_text(const std::array<uint8_t, 16>& uuid);

}  // namespace tracesync::ctf
