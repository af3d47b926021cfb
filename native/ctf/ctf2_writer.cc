// SPDX-License-Identifier: EPL-2.0
#include "ctf/ctf2_writer.h"
#include "ctf/ctf2_metadata.h"
#include "ctf/field_path_lookup.h"
#include "ctf/member_names.h"

#include <nlohmann/json.hpp>

#include <map>
#include <vector>

namespace tracesync::ctf {

namespace {

using json = nlohmann::ordered_json;
using FC = FieldClass;

struct WriteError {
  std::string what;
};
[[noreturn]] void fail(std::string what) { throw WriteError{std::move(what)}; }



// The role CTF 1.8's conventions give a member by its name and scope.
std::string role_by_name(Scope scope, const std::string& name, const FC& fc) {
  if (!fc.role.empty()) return fc.role;
  if (!fc.is_integer() || fc.is_signed || fc.boolean) return {};  // roles are for unsigned integers
  static const std::map<std::string, std::string> header = {{"magic", "packet-magic-number"},
                                                            {"stream_id", "data-stream-class-id"},
                                                            {"stream_instance_id", "data-stream-id"}};
  static const std::map<std::string, std::string> context = {
      {"timestamp_begin", "default-clock-timestamp"},
      {"timestamp_end", "packet-end-default-clock-timestamp"},
      {"content_size", "packet-content-length"},
      {"packet_size", "packet-total-length"},
      {"events_discarded", "discarded-event-record-counter-snapshot"},
      {"packet_seq_num", "packet-sequence-number"}};
  const std::map<std::string, std::string>* names = nullptr;
  if (scope == Scope::kPacketHeader) names = &header;
  if (scope == Scope::kPacketContext) names = &context;
  if (scope == Scope::kEventHeader) {
    if (bare(name) == "id") return "event-record-class-id";
    if (!fc.mapped_clock.empty()) return "default-clock-timestamp";
  }
  if (names == nullptr) return {};
  const auto found = names->find(bare(name));
  return found == names->end() ? std::string() : found->second;
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

json bound(int64_t value, bool is_signed) {
  return is_signed ? json(value) : json(static_cast<uint64_t>(value));
}

// A string's `encoding`, when not UTF-8's default.
void encoding(json& j, const FC& fc) {
  if (fc.code_unit == 2) j["encoding"] = fc.byte_order == ByteOrder::kBig ? "utf-16be" : "utf-16le";
  if (fc.code_unit == 4) j["encoding"] = fc.byte_order == ByteOrder::kBig ? "utf-32be" : "utf-32le";
}

class Writer {
 public:
  explicit Writer(const TraceClass& trace) : trace_(trace) {}

  std::string write() {
    std::string out;
    auto append = [&](const json& fragment) {
      out += '\x1e';
      out += fragment.dump(2);
      out += '\n';
    };
    json preamble;
    preamble["type"] = "preamble";
    preamble["version"] = 2;
    if (trace_.uuid) preamble["uuid"] = *trace_.uuid;
    append(preamble);

    json trace_class;
    trace_class["type"] = "trace-class";
    json environment = json::object();
    for (const auto& [name, value] : trace_.environment_strings) environment[name] = value;
    for (const auto& [name, value] : trace_.environment_integers) environment[name] = value;
    trace_class["environment"] = environment;
    if (trace_.packet_header) trace_class["packet-header-field-class"] = scope(Scope::kPacketHeader, trace_.packet_header);
    append(trace_class);

    for (const ClockClass& clock : trace_.clocks) append(clock_class(clock));

    for (const auto& [id, stream] : trace_.stream_classes) {
      stream_ = &stream;
      json dsc;
      dsc["type"] = "data-stream-class";
      dsc["id"] = id;
      default_clock_ = clock_of(stream);
      if (!default_clock_.empty()) dsc["default-clock-class-id"] = default_clock_;
      if (stream.packet_context) dsc["packet-context-field-class"] = scope(Scope::kPacketContext, stream.packet_context);
      if (stream.event_header) dsc["event-record-header-field-class"] = scope(Scope::kEventHeader, stream.event_header);
      if (stream.event_context) {
        dsc["event-record-common-context-field-class"] = scope(Scope::kStreamEventContext, stream.event_context);
      }
      append(dsc);
      for (const auto& [event_id, event] : stream.event_classes) {
        event_ = &event;
        json erc;
        erc["type"] = "event-record-class";
        erc["id"] = event_id;
        erc["data-stream-class-id"] = id;
        erc["name"] = event.name;
        if (event.context) erc["specific-context-field-class"] = scope(Scope::kEventContext, event.context);
        if (event.payload) erc["payload-field-class"] = scope(Scope::kEventPayload, event.payload);
        static const char* const levels[] = {
            "emergency",     "alert",         "critical",     "error",      "warning",        "notice",     "info",
            "debug:system",  "debug:program", "debug:process", "debug:module", "debug:unit", "debug:function",
            "debug:line",    "debug"};
        if (event.log_level && *event.log_level >= 0 && *event.log_level < 15) {
          erc["attributes"]["lttng.org,2009"]["log-level"] = levels[*event.log_level];
        }
        append(erc);
        event_ = nullptr;
      }
      stream_ = nullptr;
    }
    return out;
  }

 private:
  json clock_class(const ClockClass& clock) const {
    json cc;
    cc["type"] = "clock-class";
    cc["id"] = clock.name;
    cc["name"] = clock.name;
    if (!clock.description.empty()) cc["description"] = clock.description;
    cc["frequency"] = clock.frequency;
    // CTF 2 wants 0 <= cycles < frequency: carry whole seconds over.
    const auto frequency = static_cast<int64_t>(clock.frequency);
    int64_t seconds = clock.offset_seconds + clock.offset_cycles / frequency;
    int64_t cycles = clock.offset_cycles % frequency;
    if (cycles < 0) {
      cycles += frequency;
      --seconds;
    }
    if (clock.absolute) cc["origin"] = "unix-epoch";
    cc["offset-from-origin"] = {{"seconds", seconds}, {"cycles", cycles}};
    if (clock.precision != 0) cc["precision"] = clock.precision;
    if (clock.uuid) cc["uid"] = *clock.uuid;
    return cc;
  }

  std::string clock_of(const StreamClass& stream) const {
    const std::string* a = mapped_clock(stream.event_header);
    const std::string* b = mapped_clock(stream.packet_context);
    if (a != nullptr && b != nullptr && *a != *b) {
      fail("stream class " + std::to_string(stream.id) + " maps two clocks (`" + *a + "` and `" + *b +
           "`): a CTF 2 data stream class has one default clock");
    }
    return a != nullptr ? *a : b != nullptr ? *b : std::string();
  }

  json scope(Scope scope, const FieldClassPtr& root) {
    scope_ = scope;
    frames_.clear();
    return field_class(*root, ctf2_origin_name(scope));
  }

  json field_class(const FC& fc, const std::string& name) {
    json j;
    switch (fc.kind) {
      case FC::Kind::kInteger:
      case FC::Kind::kEnumeration: {
        if (fc.variable_length) {
          j["type"] = fc.is_signed ? "variable-length-signed-integer" : "variable-length-unsigned-integer";
        } else if (fc.boolean) {
          j["type"] = "fixed-length-boolean";
        } else {
          j["type"] = fc.is_signed ? "fixed-length-signed-integer" : "fixed-length-unsigned-integer";
        }
        if (!fc.variable_length) fixed_length(j, fc);
        if (fc.kind == FC::Kind::kEnumeration && !fc.mappings.empty()) {
          json mappings = json::object();
          for (const Mapping& m : fc.mappings) {
            mappings[m.label].push_back(json::array({bound(m.lower, fc.is_signed), bound(m.upper, fc.is_signed)}));
          }
          j["mappings"] = mappings;
        }
        const std::string role = role_by_name(scope_, name, fc);
        // A clock-mapped field in a packet context other than its begin time
        // (timestamp_end) is not the default clock's timestamp.
        if (!role.empty() && !(role == "default-clock-timestamp" && default_clock_.empty())) {
          j["roles"] = json::array({role});
        }
        return j;
      }
      case FC::Kind::kFloat:
        j["type"] = "fixed-length-floating-point-number";
        fixed_length(j, fc);
        return j;
      case FC::Kind::kString:
        j["type"] = "null-terminated-string";
        encoding(j, fc);
        return j;
      case FC::Kind::kArray:
        if (fc.is_text_array() || is_encoded_text(fc)) {
          j["type"] = "static-length-string";
          j["length"] = fc.length;
          encoding(j, fc);
          return j;
        }
        if (is_byte_array(fc) && (fc.role == "metadata-stream-uuid" ||
                                  (scope_ == Scope::kPacketHeader && bare(name) == "uuid" && fc.length == 16))) {
          j["type"] = "static-length-blob";
          j["length"] = fc.length;
          j["roles"] = json::array({"metadata-stream-uuid"});
          return j;
        }
        j["type"] = "static-length-array";
        j["length"] = fc.length;
        j["element-field-class"] = field_class(*fc.element, name);
        if (fc.alignment > fc.element->alignment) j["minimum-alignment"] = fc.alignment;
        return j;
      case FC::Kind::kSequence: {
        const bool text = fc.is_text_array() || is_encoded_text(fc);
        j["type"] = text ? "dynamic-length-string" : "dynamic-length-array";
        j["length-field-location"] = location(fc.length_field);
        if (text) encoding(j, fc);
        if (!text) j["element-field-class"] = field_class(*fc.element, name);
        if (!text && fc.alignment > fc.element->alignment) j["minimum-alignment"] = fc.alignment;
        return j;
      }
      case FC::Kind::kOptional: {
        j["type"] = "optional";
        j["selector-field-location"] = location(fc.selector);
        if (!fc.option_ranges.empty()) {
          json ranges = json::array();
          for (const FC::OptionRange& r : fc.option_ranges) {
            const bool is_signed = r.lower <= r.upper;  // as for a variant's ranges, below
            ranges.push_back(json::array({bound(r.lower, is_signed), bound(r.upper, is_signed)}));
          }
          j["selector-field-ranges"] = std::move(ranges);
        }
        j["field-class"] = field_class(*fc.element, name);
        return j;
      }
      case FC::Kind::kStructure: {
        j["type"] = "structure";
        if (fc.alignment > 1) j["minimum-alignment"] = fc.alignment;
        json members = json::array();
        frames_.push_back(&fc);
        for (const Member& m : fc.members) {
          json member;
          member["name"] = m.name;
          member["field-class"] = field_class(*m.type, m.name);
          members.push_back(std::move(member));
        }
        frames_.pop_back();
        j["member-classes"] = std::move(members);
        return j;
      }
      case FC::Kind::kVariant:
        return variant(fc, name);
    }
    return j;
  }

  // A string in UTF-16 or UTF-32 (bytes; `is_text_array` is UTF-8's).
  static bool is_encoded_text(const FC& fc) {
    return fc.code_unit > 1 && fc.element && fc.element->kind == FC::Kind::kInteger && fc.element->text;
  }

  static bool is_byte_array(const FC& fc) {
    return fc.element && fc.element->kind == FC::Kind::kInteger && fc.element->size == 8 &&
           fc.element->alignment == 8 && !fc.element->is_signed;
  }

  static void fixed_length(json& j, const FC& fc) {
    j["length"] = fc.size;
    j["byte-order"] = fc.byte_order == ByteOrder::kBig ? "big-endian" : "little-endian";
    if (fc.alignment > 1) j["alignment"] = fc.alignment;
  }

  json variant(const FC& fc, const std::string& name) {
    json j;
    j["type"] = "variant";
    j["selector-field-location"] = location(fc.selector);
    json options = json::array();
    const FC* selector = fc.option_ranges.empty() ? resolve(fc.selector) : nullptr;
    if (fc.option_ranges.empty() && (selector == nullptr || selector->kind != FC::Kind::kEnumeration)) {
      fail("variant `" + name + "`: its selector `" + fc.selector.text() + "` names no enumeration before it");
    }
    for (std::size_t o = 0; o < fc.members.size(); ++o) {
      const Member& m = fc.members[o];
      json ranges = json::array();
      for (const FC::OptionRange& r : fc.option_ranges) {
        // The bits of an unsigned range above 2^63 read as signed put the
        // lower bound above the upper one: such a range is unsigned.
        const bool is_signed = r.lower <= r.upper;
        if (r.option == o) ranges.push_back(json::array({bound(r.lower, is_signed), bound(r.upper, is_signed)}));
      }
      if (selector != nullptr) {
        for (const Mapping& mapping : selector->mappings) {
          if (bare(mapping.label) == bare(m.name)) {
            ranges.push_back(json::array({bound(mapping.lower, selector->is_signed), bound(mapping.upper, selector->is_signed)}));
          }
        }
      }
      // An option no selector value picks is never read: CTF 2 has no
      // place for it (its ranges may not be empty).
      if (ranges.empty()) continue;
      json option;
      option["name"] = m.name;
      option["selector-field-ranges"] = std::move(ranges);
      option["field-class"] = field_class(*m.type, m.name);
      options.push_back(std::move(option));
    }
    if (options.empty()) fail("variant `" + name + "`: no selector value picks any of its options");
    j["options"] = std::move(options);
    return j;
  }

  json location(const FieldPath& path) const {
    json j;
    if (path.absolute) j["origin"] = ctf2_origin_name(path.scope);
    json names = json::array();
    for (unsigned i = 0; i < path.climb; ++i) names.push_back(nullptr);
    for (const std::string& name : path.names) names.push_back(name);
    j["path"] = std::move(names);
    return j;
  }

  // The integer a reference names.
  const FC* resolve(const FieldPath& path) const { return lookup_field_path(path, trace_, stream_, event_, frames_); }

  const TraceClass& trace_;
  const StreamClass* stream_ = nullptr;
  const EventClass* event_ = nullptr;
  std::string default_clock_;
  Scope scope_ = Scope::kPacketHeader;
  std::vector<const FC*> frames_;  // the structures enclosing the field being written
};

}  // namespace

std::optional<std::string> write_ctf2(const TraceClass& trace, std::string* error) {
  try {
    return Writer(trace).write();
  } catch (const WriteError& e) {
    *error = e.what;
  } catch (const nlohmann::json::exception& e) {
    // Names JSON cannot hold (TSDL identifiers are bytes; JSON text is UTF-8).
    *error = std::string("not expressible as JSON: ") + e.what();
  }
  return std::nullopt;
}

}  // namespace tracesync::ctf
