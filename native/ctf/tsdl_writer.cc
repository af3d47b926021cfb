// SPDX-License-Identifier: EPL-2.0
#include "ctf/tsdl_writer.h"
#include "ctf/field_path_lookup.h"
#include "ctf/member_names.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace tracesync::ctf {

namespace {

using FC = FieldClass;

struct WriteError {
  std::string what;
};
[[noreturn]] void fail(std::string what) { throw WriteError{std::move(what)}; }


bool is_identifier(const std::string& name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The member name CTF 1.8 readers know a role's field by.
const char* ctf18_name(const std::string& role, Scope scope) {
  static const std::map<std::string, const char*> names = {
      {"packet-magic-number", "magic"},
      {"metadata-stream-uuid", "uuid"},
      {"data-stream-class-id", "stream_id"},
      {"data-stream-id", "stream_instance_id"},
      {"packet-total-length", "packet_size"},
      {"packet-content-length", "content_size"},
      {"packet-end-default-clock-timestamp", "timestamp_end"},
      {"discarded-event-record-counter-snapshot", "events_discarded"},
      {"packet-sequence-number", "packet_seq_num"},
      {"event-record-class-id", "id"}};
  if (role == "default-clock-timestamp") return scope == Scope::kPacketContext ? "timestamp_begin" : "timestamp";
  const auto found = names.find(role);
  return found == names.end() ? nullptr : found->second;
}

// The clock a field class maps, if any (the first one found).
const std::string* mapped_clock(const FieldClassPtr& fc) {
  if (!fc) return nullptr;
  if (fc->is_integer() && !fc->mapped_clock.empty()) return &fc->mapped_clock;
  if (const std::string* clock = mapped_clock(fc->element)) return clock;
  for (const Member& m : fc->members) {
    if (const std::string* clock = mapped_clock(m.type)) return clock;
  }
  return nullptr;
}

class Writer {
 public:
  explicit Writer(const TraceClass& trace) : trace_(trace) {}

  std::string write() {
    out_ = "/* CTF 1.8 */\n\n";
    out_ += "trace {\n\tmajor = 1;\n\tminor = 8;\n";
    if (trace_.uuid) out_ += "\tuuid = \"" + uuid_text(*trace_.uuid) + "\";\n";
    out_ += std::string("\tbyte_order = ") + (trace_.byte_order == ByteOrder::kBig ? "be" : "le") + ";\n";
    if (trace_.packet_header) out_ += "\tpacket.header := " + scope(Scope::kPacketHeader, trace_.packet_header, 1) + ";\n";
    out_ += "};\n\n";
    if (!trace_.environment_strings.empty() || !trace_.environment_integers.empty()) {
      out_ += "env {\n";
      for (const auto& [name, value] : trace_.environment_strings) out_ += "\t" + identifier(name, "environment entry") + " = " + quoted(value) + ";\n";
      for (const auto& [name, value] : trace_.environment_integers) {
        out_ += "\t" + identifier(name, "environment entry") + " = " + std::to_string(value) + ";\n";
      }
      out_ += "};\n\n";
    }
    for (const ClockClass& clock : trace_.clocks) {
      out_ += "clock {\n\tname = " + identifier(clock.name, "clock class") + ";\n";
      if (clock.uuid) out_ += "\tuuid = \"" + *clock.uuid + "\";\n";
      if (!clock.description.empty()) out_ += "\tdescription = " + quoted(clock.description) + ";\n";
      out_ += "\tfreq = " + std::to_string(clock.frequency) + ";\n";
      out_ += "\tprecision = " + std::to_string(clock.precision) + ";\n";
      out_ += "\toffset_s = " + std::to_string(clock.offset_seconds) + ";\n";
      out_ += "\toffset = " + std::to_string(clock.offset_cycles) + ";\n";
      out_ += std::string("\tabsolute = ") + (clock.absolute ? "TRUE" : "FALSE") + ";\n};\n\n";
    }
    for (const auto& [id, stream] : trace_.stream_classes) {
      stream_ = &stream;
      const std::string* a = mapped_clock(stream.event_header);
      const std::string* b = mapped_clock(stream.packet_context);
      default_clock_ = a != nullptr ? *a : b != nullptr ? *b : std::string();
      out_ += "stream {\n\tid = " + std::to_string(id) + ";\n";
      if (stream.event_header) out_ += "\tevent.header := " + scope(Scope::kEventHeader, stream.event_header, 1) + ";\n";
      if (stream.packet_context) {
        out_ += "\tpacket.context := " + scope(Scope::kPacketContext, stream.packet_context, 1) + ";\n";
      }
      if (stream.event_context) {
        out_ += "\tevent.context := " + scope(Scope::kStreamEventContext, stream.event_context, 1) + ";\n";
      }
      out_ += "};\n\n";
      for (const auto& [event_id, event] : stream.event_classes) {
        event_ = &event;
        out_ += "event {\n\tname = " + quoted(event.name) + ";\n\tid = " + std::to_string(event_id) +
                ";\n\tstream_id = " + std::to_string(id) + ";\n";
        if (event.log_level) out_ += "\tloglevel = " + std::to_string(*event.log_level) + ";\n";
        if (event.context) out_ += "\tcontext := " + scope(Scope::kEventContext, event.context, 1) + ";\n";
        if (event.payload) out_ += "\tfields := " + scope(Scope::kEventPayload, event.payload, 1) + ";\n";
        out_ += "};\n\n";
        event_ = nullptr;
      }
      stream_ = nullptr;
    }
    return out_;
  }

 private:
  std::string identifier(const std::string& name, const char* what) const {
    if (!is_identifier(name)) fail(std::string("the ") + what + " name `" + name + "` is not a TSDL identifier");
    return name;
  }

  // The field being written, as CTF 1.8 would name it: `event.fields.a.b`.
  std::string where(const std::string& /*name*/) const {
    std::string text = to_string(scope_);
    for (const std::string& n : path_) text += "." + n;
    return "`" + text + "`";
  }

  std::string scope(Scope scope, const FieldClassPtr& root, int depth) {
    scope_ = scope;
    frames_.clear();
    path_.clear();
    return type(*root, to_string(scope), depth);
  }

  static std::string tabs(int depth) { return std::string(static_cast<std::size_t>(depth), '\t'); }

  std::string integer(const FC& fc, const std::string& name) const {
    if (fc.variable_length) fail(where(name) + ": a variable-length integer has no CTF 1.8 form");
    std::string text = "integer { size = " + std::to_string(fc.size) + "; align = " + std::to_string(fc.alignment) +
                       "; signed = " + (fc.is_signed ? "true" : "false") +
                       "; byte_order = " + (fc.byte_order == ByteOrder::kBig ? "be" : "le") + ";";
    if (fc.text) text += " encoding = UTF8;";
    std::string clock = fc.mapped_clock;
    // CTF 2 says a packet's end time by its role; CTF 1.8 maps it too.
    if (clock.empty() && fc.role == "packet-end-default-clock-timestamp") clock = default_clock_;
    if (!clock.empty()) text += " map = clock." + identifier(clock, "clock class") + ".value;";
    return text + " }";
  }

  std::string type(const FC& fc, const std::string& name, int depth) {
    switch (fc.kind) {
      case FC::Kind::kInteger:
        return integer(fc, name);
      case FC::Kind::kEnumeration: {
        std::string text = "enum : " + integer(fc, name) + " {";
        for (std::size_t i = 0; i < fc.mappings.size(); ++i) {
          const Mapping& m = fc.mappings[i];
          auto bound = [&](int64_t v) {
            return fc.is_signed ? std::to_string(v) : std::to_string(static_cast<uint64_t>(v));
          };
          text += (i == 0 ? " " : ", ") + quoted(m.label) + " = " + bound(m.lower) +
                  (m.lower == m.upper ? "" : " ... " + bound(m.upper));
        }
        return text + " }";
      }
      case FC::Kind::kFloat: {
        static const std::map<unsigned, std::pair<int, int>> digits = {
            {16, {5, 11}}, {32, {8, 24}}, {64, {11, 53}}, {128, {15, 113}}};
        const auto found = digits.find(fc.size);
        if (found == digits.end()) fail(where(name) + ": a floating-point number of " + std::to_string(fc.size) + " bits");
        return "floating_point { exp_dig = " + std::to_string(found->second.first) +
               "; mant_dig = " + std::to_string(found->second.second) + "; align = " + std::to_string(fc.alignment) +
               "; byte_order = " + (fc.byte_order == ByteOrder::kBig ? "be" : "le") + "; }";
      }
      case FC::Kind::kString:
        if (fc.code_unit != 1) fail(where(name) + ": a UTF-" + std::to_string(8 * fc.code_unit) + " string has no CTF 1.8 form");
        return "string { encoding = UTF8; }";
      case FC::Kind::kStructure: {
        std::string text = "struct {\n";
        frames_.push_back(&fc);
        unsigned natural = 1;
        for (const Member& m : fc.members) {
          path_.push_back(m.name);
          text += member(*m.type, m.name, depth + 1);
          path_.pop_back();
          natural = std::max(natural, m.type->alignment);
        }
        frames_.pop_back();
        text += tabs(depth) + "}";
        if (fc.alignment > natural) text += " align(" + std::to_string(fc.alignment) + ")";
        return text;
      }
      case FC::Kind::kVariant:
        return variant(fc, name, depth);
      case FC::Kind::kOptional:
        fail(where(name) + ": an optional field has no CTF 1.8 form");
      case FC::Kind::kArray:
      case FC::Kind::kSequence:
        break;  // declarators, in member()
    }
    fail(where(name) + ": an array where CTF 1.8 wants a type");
  }

  // One member: its type, name and array dimensions (outermost first);
  // an array aligned above its elements gets CTF 1.8's aligned empty
  // structure before it (as LTTng writes it).
  std::string member(const FC& fc, const std::string& name, int depth) {
    const std::string written = identifier(name, "field");
    std::string text;
    std::string dims;
    check_role(fc, name);
    const FC* at = &fc;
    bool outermost = true;
    while (at->kind == FC::Kind::kArray || at->kind == FC::Kind::kSequence) {
      if (at->code_unit != 1) fail(where(name) + ": a UTF-" + std::to_string(8 * at->code_unit) + " string has no CTF 1.8 form");
      if (at->alignment > at->element->alignment) {
        if (!outermost) fail(where(name) + ": an inner array aligned above its elements has no CTF 1.8 form");
        text += tabs(depth) + "struct { } align(" + std::to_string(at->alignment) + ") _" + bare(name) + "_padding;\n";
      }
      dims += "[" + (at->kind == FC::Kind::kArray ? std::to_string(at->length) : reference(at->length_field, name)) + "]";
      at = at->element.get();
      outermost = false;
    }
    if (at != &fc) check_role(*at, name);
    return text + tabs(depth) + type(*at, name, depth) + " " + written + dims + ";\n";
  }

  void check_role(const FC& fc, const std::string& name) const {
    if (fc.role.empty()) return;
    const char* expected = ctf18_name(fc.role, scope_);
    if (expected != nullptr && bare(name) != expected) {
      fail(where(name) + " has the role `" + fc.role + "`, which CTF 1.8 readers know by the name `" + expected + "`");
    }
  }

  std::string reference(const FieldPath& path, const std::string& name) const {
    if (path.climb > 0) fail(where(name) + ": a location that climbs with `null` has no CTF 1.8 form");
    std::string text = path.absolute ? to_string(path.scope) : "";
    for (const std::string& n : path.names) text += (text.empty() ? "" : ".") + identifier(n, "field");
    return text;
  }

  // The integer a reference names.
  const FC* resolve(const FieldPath& path) const { return lookup_field_path(path, trace_, stream_, event_, frames_); }

  // CTF 1.8 picks a variant's option by its selector's mapping of the
  // option's name: CTF 2's ranges must say the same.
  std::string variant(const FC& fc, const std::string& name, int depth) {
    const FC* selector = resolve(fc.selector);
    if (selector == nullptr || selector->kind != FC::Kind::kEnumeration) {
      fail(where(name) + ": its selector `" + fc.selector.text() + "` is not an enumeration, which CTF 1.8 needs");
    }
    if (!fc.option_ranges.empty()) {
      for (std::size_t o = 0; o < fc.members.size(); ++o) {
        std::set<std::pair<int64_t, int64_t>> by_ranges, by_mappings;
        for (const FC::OptionRange& r : fc.option_ranges) {
          if (r.option == o) by_ranges.emplace(r.lower, r.upper);
        }
        for (const Mapping& m : selector->mappings) {
          if (m.label == fc.members[o].name) by_mappings.emplace(m.lower, m.upper);
        }
        if (fc.members[o].name.empty() || by_ranges != by_mappings) {
          fail(where(name) + ": option " + std::to_string(o) + " (`" + fc.members[o].name +
               "`) is not picked by its selector's mapping of its name, as CTF 1.8 picks it");
        }
      }
    }
    std::string text = "variant <" + reference(fc.selector, name) + "> {\n";
    for (const Member& m : fc.members) {
      path_.push_back(m.name);
      text += member(*m.type, m.name, depth + 1);
      path_.pop_back();
    }
    return text + tabs(depth) + "}";
  }

  const TraceClass& trace_;
  const StreamClass* stream_ = nullptr;
  const EventClass* event_ = nullptr;
  std::string default_clock_;
  Scope scope_ = Scope::kPacketHeader;
  std::vector<const FC*> frames_;
  std::vector<std::string> path_;
  std::string out_;
};

}  // namespace

std::optional<std::string> write_tsdl(const TraceClass& trace, std::string* error) {
  try {
    return Writer(trace).write();
  } catch (const WriteError& e) {
    *error = e.what;
  }
  return std::nullopt;
}

}  // namespace tracesync::ctf
