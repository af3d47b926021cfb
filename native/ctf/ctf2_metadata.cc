// SPDX-License-Identifier: EPL-2.0
#include "ctf/ctf2_metadata.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace tracesync::ctf {

const char* ctf2_origin_name(Scope scope) {
  switch (scope) {
    case Scope::kPacketHeader: return "packet-header";
    case Scope::kPacketContext: return "packet-context";
    case Scope::kEventHeader: return "event-record-header";
    case Scope::kStreamEventContext: return "event-record-common-context";
    case Scope::kEventContext: return "event-record-specific-context";
    case Scope::kEventPayload: return "event-record-payload";
  }
  return "?";
}

namespace {

using json = nlohmann::json;
using FC = FieldClass;

constexpr char kRecordSeparator = '\x1e';
constexpr int kMaxDepth = 64;  // field classes within field classes
// Aliases of aliases multiply: a bound on what one metadata text may make.
constexpr std::size_t kMaxFieldClasses = 1'000'000;

struct Ctf2Error {
  std::string what;
};
[[noreturn]] void fail(std::string what) { throw Ctf2Error{std::move(what)}; }


std::optional<Scope> origin_of(const std::string& name) {
  for (const Scope scope : {Scope::kPacketHeader, Scope::kPacketContext, Scope::kEventHeader,
                            Scope::kStreamEventContext, Scope::kEventContext, Scope::kEventPayload}) {
    if (name == ctf2_origin_name(scope)) return scope;
  }
  return std::nullopt;
}

// Which scope each role may be used in (CTF 2, section 5: roles).
std::optional<Scope> scope_of_role(const std::string& role) {
  static const std::map<std::string, Scope> roles = {
      {"packet-magic-number", Scope::kPacketHeader},
      {"metadata-stream-uuid", Scope::kPacketHeader},
      {"data-stream-class-id", Scope::kPacketHeader},
      {"data-stream-id", Scope::kPacketHeader},
      {"packet-total-length", Scope::kPacketContext},
      {"packet-content-length", Scope::kPacketContext},
      {"packet-end-default-clock-timestamp", Scope::kPacketContext},
      {"discarded-event-record-counter-snapshot", Scope::kPacketContext},
      {"packet-sequence-number", Scope::kPacketContext},
      {"event-record-class-id", Scope::kEventHeader},
  };
  const auto found = roles.find(role);
  if (found == roles.end()) return std::nullopt;
  return found->second;
}

// LTTng's and babeltrace's log level names, as CTF 1.8's `loglevel` numbers.
std::optional<int64_t> log_level_of(const std::string& name) {
  static const char* const names[] = {"emergency",     "alert",        "critical",     "error",
                                      "warning",       "notice",       "info",         "debug:system",
                                      "debug:program", "debug:process", "debug:module", "debug:unit",
                                      "debug:function", "debug:line",   "debug"};
  for (std::size_t i = 0; i < std::size(names); ++i) {
    if (name == names[i]) return static_cast<int64_t>(i);
  }
  return std::nullopt;
}

const json* property(const json& object, const char* name) {
  const auto found = object.find(name);
  return found == object.end() ? nullptr : &*found;
}

uint64_t unsigned_of(const json& value, const std::string& what) {
  if (!value.is_number_unsigned()) fail(what + " is not a non-negative integer");
  return value.get<uint64_t>();
}

int64_t signed_of(const json& value, const std::string& what) {
  if (value.is_number_unsigned()) {
    const uint64_t v = value.get<uint64_t>();
    if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) fail(what + " is too large");
    return static_cast<int64_t>(v);
  }
  if (!value.is_number_integer()) fail(what + " is not an integer");
  return value.get<int64_t>();
}

// A range bound: any 64-bit integer, unsigned ones as their bits.
int64_t bound_of(const json& value, const std::string& what) {
  if (value.is_number_unsigned()) return static_cast<int64_t>(value.get<uint64_t>());
  if (!value.is_number_integer()) fail(what + " is not an integer");
  return value.get<int64_t>();
}

std::string string_of(const json& value, const std::string& what) {
  if (!value.is_string()) fail(what + " is not a string");
  return value.get<std::string>();
}

const json& required(const json& object, const char* name, const std::string& where) {
  const json* value = property(object, name);
  if (value == nullptr) fail(where + ": no `" + name + "`");
  return *value;
}

unsigned alignment_of(const json& object, const char* name, const std::string& where) {
  const json* value = property(object, name);
  if (value == nullptr) return 1;
  const uint64_t align = unsigned_of(*value, where + ": `" + name + "`");
  if (align == 0 || (align & (align - 1)) != 0 || align > 4096 * 8) {
    fail(where + ": `" + name + "` " + std::to_string(align) + " is not a power of two (up to 32768)");
  }
  return static_cast<unsigned>(align);
}

std::array<uint8_t, 16> uuid_of(const json& value, const std::string& what) {
  if (!value.is_array() || value.size() != 16) fail(what + " is not an array of 16 bytes");
  std::array<uint8_t, 16> uuid{};
  for (std::size_t i = 0; i < 16; ++i) {
    const uint64_t byte = unsigned_of(value[i], what + " byte " + std::to_string(i));
    if (byte > 255) fail(what + " byte " + std::to_string(i) + " is over 255");
    uuid[i] = static_cast<uint8_t>(byte);
  }
  return uuid;
}

// The ranges of a mapping or of a variant option: [[lower, upper], ...].
std::vector<std::pair<int64_t, int64_t>> ranges_of(const json& value, const std::string& what) {
  if (!value.is_array() || value.empty()) fail(what + " is not a non-empty array of ranges");
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (const json& range : value) {
    if (!range.is_array() || range.size() != 2) fail(what + ": a range is not [lower, upper]");
    const int64_t lower = bound_of(range[0], what + ": a lower bound");
    const int64_t upper = bound_of(range[1], what + ": an upper bound");
    // Both signed or both unsigned: compare them as written.
    const bool unsigned_range = range[0].is_number_unsigned() && range[1].is_number_unsigned();
    if (unsigned_range ? static_cast<uint64_t>(lower) > static_cast<uint64_t>(upper) : lower > upper) {
      fail(what + ": a range whose lower bound is above its upper bound");
    }
    ranges.emplace_back(lower, upper);
  }
  return ranges;
}

class Parser {
 public:
  TraceClass parse(std::string_view text) {
    std::size_t at = 0;
    while (at < text.size() && is_space(text[at])) ++at;
    if (at == text.size() || text[at] != kRecordSeparator) {
      fail("not CTF 2 metadata: it does not begin with a record separator (0x1E)");
    }
    std::size_t index = 0;
    while (at < text.size()) {
      const std::size_t end = std::min(text.find(kRecordSeparator, at + 1), text.size());
      const std::string_view body = text.substr(at + 1, end - at - 1);
      at = end;
      if (std::all_of(body.begin(), body.end(), is_space)) continue;
      ++index;
      fragment(index, body);
    }
    if (index == 0) fail("no fragments");
    trace_.major = 2;
    trace_.minor = 0;
    return std::move(trace_);
  }

 private:
  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

  void fragment(std::size_t index, std::string_view body) {
    where_ = "fragment " + std::to_string(index);
    json j;
    try {
      j = json::parse(body);
    } catch (const json::exception& e) {
      std::string what = e.what();
      if (const auto bracket = what.find("] "); what.rfind("[json.exception", 0) == 0 && bracket != std::string::npos) {
        what = what.substr(bracket + 2);
      }
      fail(where_ + ": not JSON: " + what);
    }
    if (!j.is_object()) fail(where_ + ": not a JSON object");
    const std::string type = string_of(required(j, "type", where_), where_ + ": `type`");
    where_ += " (" + type + ")";
    if (index == 1 && type != "preamble") fail(where_ + ": the first fragment is not a preamble");
    if (type == "preamble") {
      if (index != 1) fail(where_ + ": a preamble that is not the first fragment");
      preamble(j);
    } else if (type == "field-class-alias") {
      alias(j);
    } else if (type == "trace-class") {
      trace_class(j);
    } else if (type == "clock-class") {
      clock_class(j);
    } else if (type == "data-stream-class") {
      stream_class(j);
    } else if (type == "event-record-class") {
      event_class(j);
    } else {
      fail(where_ + ": an unknown fragment type");
    }
  }

  void preamble(const json& j) {
    const uint64_t version = unsigned_of(required(j, "version", where_), where_ + ": `version`");
    if (version != 2) fail(where_ + ": CTF version " + std::to_string(version) + " (2 is read)");
    if (const json* uuid = property(j, "uuid")) trace_.uuid = uuid_of(*uuid, where_ + ": `uuid`");
    if (const json* extensions = property(j, "extensions")) {
      if (!extensions->is_object()) fail(where_ + ": `extensions` is not an object");
      for (const auto& [ns, names] : extensions->items()) {
        if (!names.is_object()) fail(where_ + ": extensions of `" + ns + "` are not an object");
        for (const auto& [name, value] : names.items()) {
          (void)value;
          fail(where_ + ": the extension `" + ns + "/" + name + "` is not supported by this reader");
        }
      }
    }
  }

  void alias(const json& j) {
    const std::string name = string_of(required(j, "name", where_), where_ + ": `name`");
    if (aliases_.count(name) != 0) fail(where_ + ": the field class alias `" + name + "` is defined twice");
    const json& fc = required(j, "field-class", where_);
    // Checked now, laid out where it is used (a role's clock depends on the place).
    std::vector<std::string> path;
    alias_check_ = true;
    (void)field_class(fc, Scope::kEventPayload, path);
    alias_check_ = false;
    aliases_.emplace(name, fc);
  }

  void trace_class(const json& j) {
    if (seen_trace_class_) fail(where_ + ": a second trace class");
    if (!trace_.stream_classes.empty()) fail(where_ + ": a trace class after data stream classes");
    seen_trace_class_ = true;
    default_clock_.clear();
    if (const json* uuid = property(j, "uuid"); uuid != nullptr && !trace_.uuid) {
      trace_.uuid = uuid_of(*uuid, where_ + ": `uuid`");
    }
    if (const json* env = property(j, "environment")) {
      if (!env->is_object()) fail(where_ + ": `environment` is not an object");
      for (const auto& [name, value] : env->items()) {
        if (value.is_string()) {
          trace_.environment_strings[name] = value.get<std::string>();
        } else if (value.is_number_integer()) {
          trace_.environment_integers[name] = signed_of(value, where_ + ": environment `" + name + "`");
        }
      }
    }
    if (const json* header = property(j, "packet-header-field-class")) {
      trace_.packet_header = scope_root(*header, Scope::kPacketHeader);
    }
  }

  void clock_class(const json& j) {
    ClockClass clock;
    if (const json* id = property(j, "id")) {
      clock.name = string_of(*id, where_ + ": `id`");
    } else {
      clock.name = string_of(required(j, "name", where_), where_ + ": `name`");
    }
    if (trace_.clock(clock.name) != nullptr) fail(where_ + ": the clock class `" + clock.name + "` is defined twice");
    clock.frequency = unsigned_of(required(j, "frequency", where_), where_ + ": `frequency`");
    if (clock.frequency == 0) fail(where_ + ": a frequency of 0");
    if (const json* description = property(j, "description")) {
      clock.description = string_of(*description, where_ + ": `description`");
    }
    if (const json* precision = property(j, "precision")) {
      clock.precision = unsigned_of(*precision, where_ + ": `precision`");
    }
    const json* offset = property(j, "offset-from-origin");
    if (offset == nullptr) offset = property(j, "offset");  // the draft's name
    if (offset != nullptr) {
      if (!offset->is_object()) fail(where_ + ": the offset is not an object");
      if (const json* seconds = property(*offset, "seconds")) {
        clock.offset_seconds = signed_of(*seconds, where_ + ": the offset's `seconds`");
      }
      if (const json* cycles = property(*offset, "cycles")) {
        const uint64_t value = unsigned_of(*cycles, where_ + ": the offset's `cycles`");
        if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
          fail(where_ + ": the offset's `cycles` is too large");
        }
        clock.offset_cycles = static_cast<int64_t>(value);
      }
    }
    if (const json* origin = property(j, "origin")) {
      clock.absolute = origin->is_string() && origin->get<std::string>() == "unix-epoch";
    }
    if (const json* uid = property(j, "uid"); uid != nullptr && uid->is_string()) {
      if (const auto uuid = parse_uuid(uid->get<std::string>())) clock.uuid = uuid_text(*uuid);
    } else if (const json* uuid = property(j, "uuid")) {
      clock.uuid = uuid_text(uuid_of(*uuid, where_ + ": `uuid`"));
    }
    trace_.clocks.push_back(std::move(clock));
  }

  void stream_class(const json& j) {
    StreamClass stream;
    if (const json* id = property(j, "id")) stream.id = unsigned_of(*id, where_ + ": `id`");
    if (trace_.stream_classes.count(stream.id) != 0) {
      fail(where_ + ": data stream class " + std::to_string(stream.id) + " is defined twice");
    }
    const json* clock = property(j, "default-clock-class-id");
    if (clock == nullptr) clock = property(j, "default-clock-class-name");  // the draft's name
    default_clock_.clear();
    if (clock != nullptr) {
      default_clock_ = string_of(*clock, where_ + ": the default clock class");
      if (trace_.clock(default_clock_) == nullptr) {
        fail(where_ + ": the default clock class `" + default_clock_ + "` is not defined before it");
      }
    }
    where_ += " " + std::to_string(stream.id);
    if (const json* fc = property(j, "packet-context-field-class")) {
      stream.packet_context = scope_root(*fc, Scope::kPacketContext);
    }
    if (const json* fc = property(j, "event-record-header-field-class")) {
      stream.event_header = scope_root(*fc, Scope::kEventHeader);
    }
    if (const json* fc = property(j, "event-record-common-context-field-class")) {
      stream.event_context = scope_root(*fc, Scope::kStreamEventContext);
    }
    stream_clocks_[stream.id] = default_clock_;
    trace_.stream_classes.emplace(stream.id, std::move(stream));
  }

  void event_class(const json& j) {
    EventClass event;
    if (const json* id = property(j, "id")) event.id = unsigned_of(*id, where_ + ": `id`");
    if (const json* stream = property(j, "data-stream-class-id")) {
      event.stream_class_id = unsigned_of(*stream, where_ + ": `data-stream-class-id`");
    }
    if (const json* name = property(j, "name")) event.name = string_of(*name, where_ + ": `name`");
    const std::string what = event.name.empty() ? std::to_string(event.id) : "`" + event.name + "`";
    const auto stream = trace_.stream_classes.find(event.stream_class_id);
    if (stream == trace_.stream_classes.end()) {
      fail(where_ + " " + what + ": data stream class " + std::to_string(event.stream_class_id) +
           " is not defined before it");
    }
    if (stream->second.event_classes.count(event.id) != 0) {
      fail(where_ + " " + what + ": event record class " + std::to_string(event.id) + " of data stream class " +
           std::to_string(event.stream_class_id) + " is defined twice");
    }
    where_ += " " + what;
    default_clock_ = stream_clocks_[event.stream_class_id];
    if (const json* fc = property(j, "specific-context-field-class")) event.context = scope_root(*fc, Scope::kEventContext);
    if (const json* fc = property(j, "payload-field-class")) event.payload = scope_root(*fc, Scope::kEventPayload);
    for (const char* attributes : {"attributes", "user-attributes"}) {
      const json* value = property(j, attributes);
      if (value == nullptr || !value->is_object()) continue;
      for (const auto& [ns, entries] : value->items()) {
        (void)ns;
        const json* level = entries.is_object() ? property(entries, "log-level") : nullptr;
        if (level != nullptr && level->is_string()) {
          if (const auto number = log_level_of(level->get<std::string>())) event.log_level = number;
        }
      }
    }
    stream->second.event_classes.emplace(event.id, std::move(event));
  }

  // A scope's field class: a structure.
  FieldClassPtr scope_root(const json& j, Scope scope) {
    std::vector<std::string> path;
    FieldClassPtr fc = field_class(j, scope, path);
    if (fc->kind != FC::Kind::kStructure) fail(where_ + ": the " + ctf2_origin_name(scope) + " field class is not a structure");
    return fc;
  }

  std::string at(Scope scope, const std::vector<std::string>& path) const {
    std::string text = where_ + ": " + ctf2_origin_name(scope);
    if (!path.empty()) {
      text += " `";
      for (std::size_t i = 0; i < path.size(); ++i) text += (i == 0 ? "" : ".") + path[i];
      text += "`";
    }
    return text;
  }

  FieldClassPtr field_class(const json& j, Scope scope, std::vector<std::string>& path) {
    if (depth_ >= kMaxDepth) fail(at(scope, path) + ": field classes nested over " + std::to_string(kMaxDepth) + " deep");
    if (++built_ > kMaxFieldClasses) {
      fail(at(scope, path) + ": over " + std::to_string(kMaxFieldClasses) + " field classes (aliases within aliases?)");
    }
    ++depth_;
    FieldClassPtr fc = field_class_body(j, scope, path);
    --depth_;
    return fc;
  }

  FieldClassPtr field_class_body(const json& j, Scope scope, std::vector<std::string>& path) {
    const std::string where = at(scope, path);
    if (j.is_string()) {
      const auto found = aliases_.find(j.get<std::string>());
      if (found == aliases_.end()) fail(where + ": no field class alias `" + j.get<std::string>() + "` before it");
      return field_class(found->second, scope, path);
    }
    if (!j.is_object()) fail(where + ": a field class is neither an object nor an alias name");
    const std::string type = string_of(required(j, "type", where), where + ": `type`");
    const std::string here = where + " (" + type + ")";
    auto fc = std::make_shared<FC>();
    if (type == "fixed-length-bit-array" || type == "fixed-length-bit-map" || type == "fixed-length-boolean" ||
        type == "fixed-length-unsigned-integer" || type == "fixed-length-signed-integer" ||
        type == "fixed-length-unsigned-enumeration" || type == "fixed-length-signed-enumeration") {
      fixed_length(*fc, j, here, 64);
      fc->kind = FC::Kind::kInteger;
      fc->is_signed = type == "fixed-length-signed-integer" || type == "fixed-length-signed-enumeration";
      if (const json* mappings = property(j, "mappings")) this->mappings(*fc, *mappings, here);
      if (type.find("enumeration") != std::string::npos && fc->mappings.empty()) fail(here + ": no mappings");
      if (!fc->mappings.empty()) fc->kind = FC::Kind::kEnumeration;
      fc->boolean = type == "fixed-length-boolean";
      roles(*fc, j, scope, here, type == "fixed-length-unsigned-integer" || type == "fixed-length-unsigned-enumeration");
    } else if (type == "variable-length-unsigned-integer" || type == "variable-length-signed-integer" ||
               type == "variable-length-unsigned-enumeration" || type == "variable-length-signed-enumeration") {
      // LEB128 (the 2019 draft's enumerations are integers with mappings now).
      fc->kind = FC::Kind::kInteger;
      fc->variable_length = true;
      fc->size = 64;
      fc->alignment = 8;
      fc->is_signed = type.find("-signed-") != std::string::npos;
      if (const json* mappings = property(j, "mappings")) this->mappings(*fc, *mappings, here);
      if (type.find("enumeration") != std::string::npos && fc->mappings.empty()) fail(here + ": no mappings");
      if (!fc->mappings.empty()) fc->kind = FC::Kind::kEnumeration;
      roles(*fc, j, scope, here, !fc->is_signed);
    } else if (type == "fixed-length-floating-point-number") {
      fixed_length(*fc, j, here, 128);
      if (fc->size != 16 && fc->size != 32 && fc->size != 64 && fc->size != 128) {
        fail(here + ": a floating-point number of " + std::to_string(fc->size) + " bits");
      }
      fc->kind = FC::Kind::kFloat;
    } else if (type == "null-terminated-string") {
      encoding(*fc, j, here);
      fc->kind = FC::Kind::kString;
      fc->alignment = 8;
    } else if (type == "static-length-string" || type == "static-length-blob") {
      // Its length counts bytes, whatever the encoding.
      if (type == "static-length-string") encoding(*fc, j, here);
      fc->kind = FC::Kind::kArray;
      fc->length = unsigned_of(required(j, "length", here), here + ": `length`");
      fc->element = byte(type == "static-length-string");
      fc->alignment = 8;
      if (type == "static-length-blob") blob_role(*fc, j, scope, here);
    } else if (type == "dynamic-length-string" || type == "dynamic-length-blob") {
      if (type == "dynamic-length-string") encoding(*fc, j, here);
      fc->kind = FC::Kind::kSequence;
      fc->length_field = location(required(j, "length-field-location", here), here + ": `length-field-location`");
      fc->element = byte(type == "dynamic-length-string");
      fc->alignment = 8;
    } else if (type == "structure") {
      fc->kind = FC::Kind::kStructure;
      fc->alignment = alignment_of(j, "minimum-alignment", here);
      if (const json* members = property(j, "member-classes")) {
        if (!members->is_array()) fail(here + ": `member-classes` is not an array");
        std::set<std::string> names;
        for (const json& member : *members) {
          if (!member.is_object()) fail(here + ": a member class is not an object");
          Member m;
          m.name = string_of(required(member, "name", here), here + ": a member's `name`");
          if (!names.insert(m.name).second) fail(here + ": two members named `" + m.name + "`");
          path.push_back(m.name);
          m.type = field_class(required(member, "field-class", at(scope, path)), scope, path);
          path.pop_back();
          fc->alignment = std::max(fc->alignment, m.type->alignment);
          fc->members.push_back(std::move(m));
        }
      }
    } else if (type == "static-length-array" || type == "dynamic-length-array") {
      fc->kind = type == "static-length-array" ? FC::Kind::kArray : FC::Kind::kSequence;
      if (fc->kind == FC::Kind::kArray) {
        fc->length = unsigned_of(required(j, "length", here), here + ": `length`");
      } else {
        fc->length_field = location(required(j, "length-field-location", here), here + ": `length-field-location`");
      }
      fc->element = field_class(required(j, "element-field-class", here), scope, path);
      // LTTng 2.15 writes the padding CTF 1.8 put in an empty aligned
      // structure before an array as the array's minimum alignment.
      fc->alignment = std::max(alignment_of(j, "minimum-alignment", here), fc->element->alignment);
    } else if (type == "variant") {
      fc->kind = FC::Kind::kVariant;
      fc->alignment = 1;  // each option aligns itself
      fc->selector = location(required(j, "selector-field-location", here), here + ": `selector-field-location`");
      const json& options = required(j, "options", here);
      if (!options.is_array() || options.empty()) fail(here + ": `options` is not a non-empty array");
      std::set<std::string> names;
      for (const json& option : options) {
        if (!option.is_object()) fail(here + ": an option is not an object");
        Member m;
        if (const json* name = property(option, "name")) m.name = string_of(*name, here + ": an option's `name`");
        if (!m.name.empty() && !names.insert(m.name).second) fail(here + ": two options named `" + m.name + "`");
        for (const auto& [lower, upper] :
             ranges_of(required(option, "selector-field-ranges", here), here + ": `selector-field-ranges`")) {
          fc->option_ranges.push_back({fc->members.size(), lower, upper});
        }
        path.push_back(m.name);
        m.type = field_class(required(option, "field-class", at(scope, path)), scope, path);
        path.pop_back();
        fc->members.push_back(std::move(m));
      }
    } else if (type == "optional") {
      fc->kind = FC::Kind::kOptional;
      fc->alignment = 1;  // the field aligns itself when there is one
      fc->selector = location(required(j, "selector-field-location", here), here + ": `selector-field-location`");
      // Required with an integer selector, absent with a boolean one: the
      // read plan's compiler, which finds the selector, checks which.
      if (const json* ranges = property(j, "selector-field-ranges")) {
        for (const auto& [lower, upper] : ranges_of(*ranges, here + ": `selector-field-ranges`")) {
          fc->option_ranges.push_back({0, lower, upper});
        }
      }
      fc->element = field_class(required(j, "field-class", here), scope, path);
    } else {
      fail(here + ": an unknown field class type");
    }
    if (fc->kind != FC::Kind::kInteger && fc->kind != FC::Kind::kEnumeration && type != "static-length-blob" &&
        property(j, "roles") != nullptr) {
      fail(here + ": roles on a field class that cannot have one");
    }
    return fc;
  }

  static FieldClassPtr byte(bool text) {
    auto element = std::make_shared<FC>();
    element->kind = FC::Kind::kInteger;
    element->size = 8;
    element->alignment = 8;
    element->text = text;
    return element;
  }

  // A string's code unit: UTF-8 (the default), UTF-16 or UTF-32.
  static void encoding(FC& fc, const json& j, const std::string& where) {
    const json* encoding = property(j, "encoding");
    if (encoding == nullptr) return;
    static const std::map<std::string, std::pair<uint8_t, ByteOrder>> units = {
        {"utf-8", {1, ByteOrder::kLittle}},  {"utf-16be", {2, ByteOrder::kBig}}, {"utf-16le", {2, ByteOrder::kLittle}},
        {"utf-32be", {4, ByteOrder::kBig}}, {"utf-32le", {4, ByteOrder::kLittle}}};
    const std::string name = string_of(*encoding, where + ": `encoding`");
    const auto found = units.find(name);
    if (found == units.end()) fail(where + ": the unknown encoding `" + name + "`");
    fc.code_unit = found->second.first;
    fc.byte_order = found->second.second;
  }

  static void fixed_length(FC& fc, const json& j, const std::string& where, unsigned most) {
    const uint64_t length = unsigned_of(required(j, "length", where), where + ": `length`");
    if (length == 0) fail(where + ": a length of 0 bits");
    if (length > most) fail(where + ": a length of " + std::to_string(length) + " bits (at most " + std::to_string(most) + ")");
    fc.size = static_cast<unsigned>(length);
    const std::string order = string_of(required(j, "byte-order", where), where + ": `byte-order`");
    if (order == "little-endian") {
      fc.byte_order = ByteOrder::kLittle;
    } else if (order == "big-endian") {
      fc.byte_order = ByteOrder::kBig;
    } else {
      fail(where + ": the byte order `" + order + "`");
    }
    if (const json* bit_order = property(j, "bit-order")) {
      // The natural one of each byte order is what the read plans read.
      const std::string bits = string_of(*bit_order, where + ": `bit-order`");
      const char* natural = fc.byte_order == ByteOrder::kLittle ? "first-to-last" : "last-to-first";
      if (bits != natural) fail(where + ": the bit order `" + bits + "` with a " + order + " byte order is not supported by this reader");
    }
    fc.alignment = alignment_of(j, "alignment", where);
  }

  void mappings(FC& fc, const json& value, const std::string& where) {
    if (!value.is_object()) fail(where + ": `mappings` is not an object");
    for (const auto& [label, ranges] : value.items()) {
      for (const auto& [lower, upper] : ranges_of(ranges, where + ": mapping `" + label + "`")) {
        fc.mappings.push_back({label, lower, upper});
      }
    }
  }

  void roles(FC& fc, const json& j, Scope scope, const std::string& where, bool is_unsigned) {
    const json* roles = property(j, "roles");
    if (roles == nullptr) return;
    if (!roles->is_array()) fail(where + ": `roles` is not an array");
    if (roles->empty()) return;
    if (roles->size() > 1) fail(where + ": more than one role is not supported by this reader");
    const std::string role = string_of(roles->front(), where + ": a role");
    if (!is_unsigned) fail(where + ": the role `" + role + "` on a field class that is not an unsigned integer");
    if (alias_check_) return;  // checked where the alias is used, whose scope and clock it takes
    if (role == "default-clock-timestamp") {
      if (scope != Scope::kPacketContext && scope != Scope::kEventHeader) {
        fail(where + ": the role `" + role + "` outside a packet context or event record header");
      }
      if (default_clock_.empty()) fail(where + ": the role `" + role + "` in a data stream class without a default clock class");
      fc.mapped_clock = default_clock_;
    } else {
      const auto allowed = scope_of_role(role);
      if (!allowed) fail(where + ": the unknown role `" + role + "`");
      if (*allowed != scope) fail(where + ": the role `" + role + "` outside the " + ctf2_origin_name(*allowed));
      if (role == "packet-end-default-clock-timestamp" && default_clock_.empty()) {
        fail(where + ": the role `" + role + "` in a data stream class without a default clock class");
      }
    }
    fc.role = role;
  }

  void blob_role(FC& fc, const json& j, Scope scope, const std::string& where) {
    const json* roles = property(j, "roles");
    if (roles == nullptr || (roles->is_array() && roles->empty())) return;
    if (!roles->is_array() || roles->size() != 1 || !roles->front().is_string() ||
        roles->front().get<std::string>() != "metadata-stream-uuid") {
      fail(where + ": a BLOB's roles are not [\"metadata-stream-uuid\"]");
    }
    if (scope != Scope::kPacketHeader && !alias_check_) {
      fail(where + ": the role `metadata-stream-uuid` outside the packet-header");
    }
    if (fc.length != 16) fail(where + ": the role `metadata-stream-uuid` on a BLOB that is not 16 bytes long");
    if (alias_check_) return;  // checked where the alias is used
    fc.role = "metadata-stream-uuid";
  }

  // A field location: {"origin": ..., "path": [...]} (CTF 2), or the draft's
  // [origin, name, ...]. A location without an origin is relative: its
  // first name is looked for in the enclosing structures, innermost first.
  static FieldPath location(const json& value, const std::string& where) {
    FieldPath path;
    const json* names = nullptr;
    if (value.is_array()) {
      if (value.size() < 2) fail(where + " names no field");
      const std::string origin = string_of(value[0], where + ": its origin");
      const auto scope = origin_of(origin);
      if (!scope) fail(where + ": the unknown origin `" + origin + "`");
      path.absolute = true;
      path.scope = *scope;
      for (std::size_t i = 1; i < value.size(); ++i) path.names.push_back(string_of(value[i], where + ": a name"));
      return path;
    }
    if (!value.is_object()) fail(where + " is neither an object nor an array");
    if (const json* origin = property(value, "origin")) {
      const std::string name = string_of(*origin, where + ": `origin`");
      const auto scope = origin_of(name);
      if (!scope) fail(where + ": the unknown origin `" + name + "`");
      path.absolute = true;
      path.scope = *scope;
    }
    names = &required(value, "path", where);
    if (!names->is_array() || names->empty()) fail(where + ": `path` is not a non-empty array");
    // A `null` is the structure holding the field reached so far: after a
    // name, the structure the name was looked up in (the two cancel out);
    // before any, one more enclosing structure to climb.
    for (const json& name : *names) {
      if (!name.is_null()) {
        path.names.push_back(string_of(name, where + ": a path element"));
      } else if (!path.names.empty()) {
        path.names.pop_back();
      } else if (path.absolute) {
        fail(where + ": a `null` climbs above its origin's structure");
      } else {
        ++path.climb;
      }
    }
    if (names->back().is_null()) fail(where + ": `path` ends with `null` (it must name a field)");
    if (path.names.empty()) fail(where + " names no field");
    return path;
  }

  TraceClass trace_;
  std::string where_;
  std::map<std::string, json> aliases_;
  std::map<uint64_t, std::string> stream_clocks_;  // each data stream class's default clock
  std::string default_clock_;                      // of the class being read
  bool seen_trace_class_ = false;
  bool alias_check_ = false;
  int depth_ = 0;
  std::size_t built_ = 0;
};

}  // namespace

std::size_t ctf2_whole_fragments(std::string_view text) {
  const std::size_t last = text.rfind(kRecordSeparator);
  if (last == std::string_view::npos) return 0;
  const std::string_view fragment = text.substr(last + 1);
  return json::accept(fragment.begin(), fragment.end()) ? text.size() : last;
}

std::optional<TraceClass> parse_ctf2(std::string_view text, std::string* error) {
  try {
    return Parser().parse(text);
  } catch (const Ctf2Error& e) {
    *error = e.what;
  } catch (const json::exception& e) {
    *error = std::string("CTF 2 metadata: ") + e.what();
  }
  return std::nullopt;
}

}  // namespace tracesync::ctf
