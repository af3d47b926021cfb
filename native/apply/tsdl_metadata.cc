// SPDX-License-Identifier: EPL-2.0
#include "apply/tsdl_metadata.h"

#include <array>
#include <set>
#include <tuple>
#include <string_view>
#include <vector>

#include "apply/ctf_layout.h"
#include "bt/uuid_text.h"

namespace tracesync::apply {
namespace {

bool is_identifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (const char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

// TSDL's reserved words that start with an underscore: the only ones an
// underscored name can meet.
bool is_underscored_keyword(std::string_view s) { return s == "_Bool" || s == "_Complex" || s == "_Imaginary"; }

// The packet context fields of ctf_layout.h, before the stream class's own.
bool is_layout_field(std::string_view s) {
  return s == "timestamp_begin" || s == "timestamp_end" || s == "content_size" || s == "packet_size" ||
         s == "events_discarded" || s == "packet_seq_num";
}

bool is_keyword(std::string_view s) {
  static const std::set<std::string_view> keywords = {
      "align", "callsite", "char",   "clock",  "const",    "double",  "enum",    "env",     "event",
      "float", "floating_point", "int", "integer", "long", "short", "signed", "stream", "string",
      "struct", "trace", "typealias", "typedef", "unsigned", "variant", "void"};
  return keywords.count(s) != 0 || is_underscored_keyword(s);
}

// A TSDL string literal.
std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default: out += c;
    }
  }
  return out + "\"";
}

std::string integer_text(const bt_field_class* fc, bool is_signed) {
  return "integer { size = " + std::to_string(bt_field_class_integer_get_field_value_range(fc)) +
         "; align = 8; signed = " + (is_signed ? "true" : "false") +
         "; base = " + std::to_string(static_cast<int>(bt_field_class_integer_get_preferred_display_base(fc))) + "; }";
}

std::string clocked_u64(const std::string& clock) {
  return "integer { size = 64; align = 8; signed = false; map = clock." + clock + ".value; }";
}

constexpr const char* kU32 = "integer { size = 32; align = 8; signed = false; }";
constexpr const char* kU64 = "integer { size = 64; align = 8; signed = false; }";
constexpr const char* kU8 = "integer { size = 8; align = 8; signed = false; base = 16; }";

// The roots of field paths, and their absolute TSDL names.
constexpr std::array<std::pair<bt_field_path_scope, const char*>, 4> kScopes = {{
    {BT_FIELD_PATH_SCOPE_PACKET_CONTEXT, "stream.packet.context"},
    {BT_FIELD_PATH_SCOPE_EVENT_COMMON_CONTEXT, "stream.event.context"},
    {BT_FIELD_PATH_SCOPE_EVENT_SPECIFIC_CONTEXT, "event.context"},
    {BT_FIELD_PATH_SCOPE_EVENT_PAYLOAD, "event.fields"},
}};

class TsdlText {
 public:
  explicit TsdlText(std::string* unsupported) : unsupported_(unsupported) {}

  bool failed() const { return !unsupported_->empty(); }
  std::string& text() { return out_; }

  void fail(const std::string& what) {
    if (unsupported_->empty()) *unsupported_ = where_ + what;
  }
  void set_where(std::string where) { where_ = std::move(where); }
  void set_root(bt_field_path_scope scope, const bt_field_class* root) { roots_[index_of(scope)] = root; }
  // The scope whose fields are declared next (relative references are
  // within it).
  void begin_scope(bt_field_path_scope scope) {
    scope_ = index_of(scope);
    position_.clear();
    containers_.clear();
  }

  // `fc` declared as `name`, on its own lines at `indent`.
  void declare(const bt_field_class* fc, const std::string& name, int indent) {
    const bt_field_class_type type = bt_field_class_get_type(fc);
    if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_ARRAY)) {
      const bt_field_class* element = bt_field_class_array_borrow_element_field_class_const(fc);
      if (bt_field_class_type_is(bt_field_class_get_type(element), BT_FIELD_CLASS_TYPE_ARRAY)) {
        return fail("an array of arrays ('" + name + "')");
      }
      std::string length;
      if (type == BT_FIELD_CLASS_TYPE_STATIC_ARRAY) {
        length = std::to_string(bt_field_class_array_static_get_length(fc));
      } else if (type == BT_FIELD_CLASS_TYPE_DYNAMIC_ARRAY_WITH_LENGTH_FIELD) {
        length = reference(bt_field_class_array_dynamic_with_length_field_borrow_length_field_path_const(fc), false);
      } else {
        return fail("a dynamic array without a length field ('" + name + "')");
      }
      enter(fc, kInsideArray);
      type_of(element, indent);
      leave();
      out_ += " " + name + "[" + length + "];\n";
      return;
    }
    type_of(fc, indent);
    out_ += " " + name + ";\n";
  }

  // A scope's structure, assigned (`event.context := struct {...};`).
  void assign(const bt_field_class* fc, int indent) {
    type_of(fc, indent);
    out_ += ";\n";
  }

  // A structure's members, one declaration each.
  void members(const bt_field_class* structure, int indent) {
    const uint64_t count = bt_field_class_structure_get_member_count(structure);
    for (uint64_t i = 0; i < count && !failed(); ++i) {
      const bt_field_class_structure_member* m = bt_field_class_structure_borrow_member_by_index_const(structure, i);
      out_.append(indent, '\t');
      enter(structure, i);
      declare(bt_field_class_structure_member_borrow_field_class_const(m),
              member_name(bt_field_class_structure_member_get_name(m), scope_), indent);
      leave();
    }
  }

 private:
  static std::size_t index_of(bt_field_path_scope scope) {
    for (std::size_t i = 0; i < kScopes.size(); ++i) {
      if (kScopes[i].first == scope) return i;
    }
    return 0;
  }

  // A member's TSDL name. A reader removes one leading underscore, so a
  // name written with one reads back as the IR's. LTTng underscores every
  // name of the event scopes (`_tid`, `_prev_comm`) and none of the packet
  // context (`cpu_id`, which Trace Compass looks up by that name): so do
  // we, underscoring a packet context name only where needed.
  std::string member_name(std::string_view ir_name, std::size_t scope) {
    const bool packet_context = kScopes[scope].first == BT_FIELD_PATH_SCOPE_PACKET_CONTEXT;
    std::string name(ir_name);
    if (!packet_context || name.starts_with("_") || is_keyword(name) || is_layout_field(name)) name = "_" + name;
    if (!is_identifier(name) || is_underscored_keyword(name)) fail("the field name '" + std::string(ir_name) + "'");
    return name;
  }

  // The type of `fc` (not an array), starting where the text is and ending
  // without a newline.
  void type_of(const bt_field_class* fc, int indent) {
    const bt_field_class_type type = bt_field_class_get_type(fc);
    switch (type) {
      case BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER:
      case BT_FIELD_CLASS_TYPE_SIGNED_INTEGER:
        out_ += integer_text(fc, type == BT_FIELD_CLASS_TYPE_SIGNED_INTEGER);
        return;
      case BT_FIELD_CLASS_TYPE_UNSIGNED_ENUMERATION:
      case BT_FIELD_CLASS_TYPE_SIGNED_ENUMERATION:
        return enumeration(fc, type == BT_FIELD_CLASS_TYPE_SIGNED_ENUMERATION, indent);
      case BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL:
        out_ += "floating_point { exp_dig = 8; mant_dig = 24; align = 8; }";
        return;
      case BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL:
        out_ += "floating_point { exp_dig = 11; mant_dig = 53; align = 8; }";
        return;
      case BT_FIELD_CLASS_TYPE_STRING:
        out_ += "string { encoding = UTF8; }";
        return;
      case BT_FIELD_CLASS_TYPE_STRUCTURE:
        out_ += "struct {\n";
        members(fc, indent + 1);
        out_.append(indent, '\t');
        out_ += "} align(8)";
        return;
      case BT_FIELD_CLASS_TYPE_VARIANT_WITH_UNSIGNED_INTEGER_SELECTOR_FIELD:
      case BT_FIELD_CLASS_TYPE_VARIANT_WITH_SIGNED_INTEGER_SELECTOR_FIELD:
        return variant(fc, type == BT_FIELD_CLASS_TYPE_VARIANT_WITH_SIGNED_INTEGER_SELECTOR_FIELD, indent);
      default:
        return fail("a field class of type " + std::to_string(static_cast<unsigned long long>(type)) +
                    " (bool, bit array, option, variant without selector or dynamic array without length)");
    }
  }

  void enumeration(const bt_field_class* fc, bool is_signed, int indent) {
    out_ += "enum : " + integer_text(fc, is_signed) + " {\n";
    const uint64_t count = bt_field_class_enumeration_get_mapping_count(fc);
    for (uint64_t i = 0; i < count; ++i) {
      const bt_field_class_enumeration_mapping* mapping =
          is_signed ? bt_field_class_enumeration_signed_mapping_as_mapping_const(
                          bt_field_class_enumeration_signed_borrow_mapping_by_index_const(fc, i))
                    : bt_field_class_enumeration_unsigned_mapping_as_mapping_const(
                          bt_field_class_enumeration_unsigned_borrow_mapping_by_index_const(fc, i));
      const std::string label = quoted(bt_field_class_enumeration_mapping_get_label(mapping));
      // One entry per range: a label may map several.
      if (is_signed) {
        const bt_integer_range_set_signed* ranges = bt_field_class_enumeration_signed_mapping_borrow_ranges_const(
            bt_field_class_enumeration_signed_borrow_mapping_by_index_const(fc, i));
        const uint64_t n = bt_integer_range_set_get_range_count(bt_integer_range_set_signed_as_range_set_const(ranges));
        for (uint64_t r = 0; r < n; ++r) {
          const bt_integer_range_signed* range = bt_integer_range_set_signed_borrow_range_by_index_const(ranges, r);
          out_.append(indent + 1, '\t');
          out_ += label + " = " + std::to_string(bt_integer_range_signed_get_lower(range)) + " ... " +
                  std::to_string(bt_integer_range_signed_get_upper(range)) + ",\n";
        }
      } else {
        const bt_integer_range_set_unsigned* ranges = bt_field_class_enumeration_unsigned_mapping_borrow_ranges_const(
            bt_field_class_enumeration_unsigned_borrow_mapping_by_index_const(fc, i));
        const uint64_t n =
            bt_integer_range_set_get_range_count(bt_integer_range_set_unsigned_as_range_set_const(ranges));
        for (uint64_t r = 0; r < n; ++r) {
          const bt_integer_range_unsigned* range = bt_integer_range_set_unsigned_borrow_range_by_index_const(ranges, r);
          out_.append(indent + 1, '\t');
          out_ += label + " = " + std::to_string(bt_integer_range_unsigned_get_lower(range)) + " ... " +
                  std::to_string(bt_integer_range_unsigned_get_upper(range)) + ",\n";
        }
      }
    }
    out_.append(indent, '\t');
    out_ += "}";
  }

  void variant(const bt_field_class* fc, bool is_signed, int indent) {
    const bt_field_path* selector_path = bt_field_class_variant_with_selector_field_borrow_selector_field_path_const(fc);
    const bt_field_class* selector = resolve(selector_path).target;
    const std::string selector_name = reference(selector_path, true);
    if (failed()) return;
    out_ += "variant <" + selector_name + "> {\n";
    const uint64_t count = bt_field_class_variant_get_option_count(fc);
    for (uint64_t i = 0; i < count && !failed(); ++i) {
      const std::string name = option_name(fc, i, selector, is_signed);
      if (failed()) return;
      out_.append(indent + 1, '\t');
      enter(fc, i);
      declare(bt_field_class_variant_option_borrow_field_class_const(bt_field_class_variant_borrow_option_by_index_const(fc, i)),
              name, indent + 1);
      leave();
    }
    out_.append(indent, '\t');
    out_ += "}";
  }

  // The TSDL name of option `i` of `variant`: the label of the selector's
  // mapping with the option's ranges (a reader pairs options and labels by
  // name; the IR's option name is that label without its underscore).
  std::string option_name(const bt_field_class* variant, uint64_t i, const bt_field_class* selector, bool is_signed) {
    const bt_field_class_type selector_type = bt_field_class_get_type(selector);
    const std::string option =
        bt_field_class_variant_option_get_name(bt_field_class_variant_borrow_option_by_index_const(variant, i));
    if (!bt_field_class_type_is(selector_type, BT_FIELD_CLASS_TYPE_ENUMERATION)) {
      fail("a variant whose selector is not an enumeration (option '" + option + "')");
      return {};
    }
    const uint64_t count = bt_field_class_enumeration_get_mapping_count(selector);
    for (uint64_t m = 0; m < count; ++m) {
      bool same = false;
      const char* label = nullptr;
      if (is_signed) {
        const auto* mapping = bt_field_class_enumeration_signed_borrow_mapping_by_index_const(selector, m);
        same = bt_integer_range_set_signed_is_equal(
            bt_field_class_enumeration_signed_mapping_borrow_ranges_const(mapping),
            bt_field_class_variant_with_selector_field_integer_signed_option_borrow_ranges_const(
                bt_field_class_variant_with_selector_field_integer_signed_borrow_option_by_index_const(variant, i)));
        label = bt_field_class_enumeration_mapping_get_label(bt_field_class_enumeration_signed_mapping_as_mapping_const(mapping));
      } else {
        const auto* mapping = bt_field_class_enumeration_unsigned_borrow_mapping_by_index_const(selector, m);
        same = bt_integer_range_set_unsigned_is_equal(
            bt_field_class_enumeration_unsigned_mapping_borrow_ranges_const(mapping),
            bt_field_class_variant_with_selector_field_integer_unsigned_option_borrow_ranges_const(
                bt_field_class_variant_with_selector_field_integer_unsigned_borrow_option_by_index_const(variant, i)));
        label =
            bt_field_class_enumeration_mapping_get_label(bt_field_class_enumeration_unsigned_mapping_as_mapping_const(mapping));
      }
      if (!same) continue;
      if (!is_identifier(label) || is_underscored_keyword(label)) {
        fail("the variant option '" + option + "' (its selector's label '" + label + "' is not a TSDL name)");
        return {};
      }
      return label;
    }
    fail("the variant option '" + option + "' (no selector label has its ranges)");
    return {};
  }

  // Where a field path leads: the TSDL names and indexes of its steps from
  // its scope's root, and the class it ends at (null when it leads nowhere).
  struct Resolved {
    std::size_t scope = 0;
    std::vector<std::string> names;
    std::vector<uint64_t> indexes;
    const bt_field_class* target = nullptr;
  };

  Resolved resolve(const bt_field_path* path) {
    Resolved r;
    r.scope = index_of(bt_field_path_get_root_scope(path));
    const bt_field_class* fc = roots_[r.scope];
    const uint64_t items = bt_field_path_get_item_count(path);
    for (uint64_t i = 0; i < items && fc != nullptr && !failed(); ++i) {
      const bt_field_path_item* item = bt_field_path_borrow_item_by_index_const(path, i);
      if (bt_field_path_item_get_type(item) != BT_FIELD_PATH_ITEM_TYPE_INDEX) {
        fail("a length or selector field inside an array element");
        return r;
      }
      const uint64_t index = bt_field_path_item_index_get_index(item);
      const bt_field_class_type type = bt_field_class_get_type(fc);
      r.indexes.push_back(index);
      if (type == BT_FIELD_CLASS_TYPE_STRUCTURE) {
        const bt_field_class_structure_member* m = bt_field_class_structure_borrow_member_by_index_const(fc, index);
        r.names.push_back(member_name(bt_field_class_structure_member_get_name(m), r.scope));
        fc = bt_field_class_structure_member_borrow_field_class_const(m);
      } else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_VARIANT_WITH_SELECTOR_FIELD)) {
        const bt_field_class* selector =
            resolve(bt_field_class_variant_with_selector_field_borrow_selector_field_path_const(fc)).target;
        if (selector == nullptr) break;
        r.names.push_back(option_name(fc, index, selector,
                                      type == BT_FIELD_CLASS_TYPE_VARIANT_WITH_SIGNED_INTEGER_SELECTOR_FIELD));
        fc = bt_field_class_variant_option_borrow_field_class_const(bt_field_class_variant_borrow_option_by_index_const(fc, index));
      } else {
        fc = nullptr;
      }
    }
    if (fc == nullptr) fail("a length or selector field the IR does not lead to");
    r.target = fc;
    return r;
  }

  // How the field being declared names the field `path` leads to. In its
  // own scope, relatively, as LTTng writes it: from the deepest structure
  // holding both (a reader looks a relative name up from the innermost
  // enclosing structure outwards). A sequence's length in another scope
  // gets an absolute name; a variant's selector cannot (TSDL's grammar
  // takes only a relative name between < and >).
  std::string reference(const bt_field_path* path, bool selector) {
    const Resolved r = resolve(path);
    if (failed()) return {};
    std::string name;
    std::size_t first = 0;
    if (r.scope == scope_) {
      while (first + 1 < r.indexes.size() && first < position_.size() && r.indexes[first] == position_[first]) ++first;
      // A structure deeper than the one holding the target must not have a
      // member of the same name: the reader would find that one first.
      for (std::size_t level = first + 1; level < containers_.size(); ++level) {
        const bt_field_class* container = containers_[level];
        if (bt_field_class_get_type(container) != BT_FIELD_CLASS_TYPE_STRUCTURE) continue;
        const uint64_t n = bt_field_class_structure_get_member_count(container);
        for (uint64_t m = 0; m < n; ++m) {
          const char* member = bt_field_class_structure_member_get_name(
              bt_field_class_structure_borrow_member_by_index_const(container, m));
          if (member_name(member, scope_) == r.names[first]) {
            fail("a length or selector field whose name '" + std::string(member) + "' a nearer field hides");
            return {};
          }
        }
      }
    } else if (selector) {
      fail("a variant whose selector is in another scope (" + std::string(kScopes[r.scope].second) + ")");
      return {};
    } else {
      name = kScopes[r.scope].second;
    }
    for (std::size_t i = first; i < r.names.size(); ++i) name += (name.empty() ? "" : ".") + r.names[i];
    return name;
  }

  // The position of the field being declared: each enclosing compound and
  // the index taken in it (kInsideArray for an array's element).
  static constexpr uint64_t kInsideArray = UINT64_MAX;
  void enter(const bt_field_class* container, uint64_t index) {
    containers_.push_back(container);
    position_.push_back(index);
  }
  void leave() {
    containers_.pop_back();
    position_.pop_back();
  }

  std::string* unsupported_;
  std::string where_;
  std::string out_;
  std::array<const bt_field_class*, 4> roots_ = {};
  std::size_t scope_ = 0;
  std::vector<uint64_t> position_;
  std::vector<const bt_field_class*> containers_;
};

bool write_environment(const bt_trace* trace, TsdlText& tsdl) {
  std::string& out = tsdl.text();
  out += "env {\n";
  const uint64_t count = bt_trace_get_environment_entry_count(trace);
  for (uint64_t i = 0; i < count; ++i) {
    const char* name = nullptr;
    const bt_value* value = nullptr;
    bt_trace_borrow_environment_entry_by_index_const(trace, i, &name, &value);
    if (!is_identifier(name)) {
      tsdl.fail(std::string("the environment entry name '") + name + "'");
      return false;
    }
    if (bt_value_is_signed_integer(value)) {
      out += "\t" + std::string(name) + " = " + std::to_string(bt_value_integer_signed_get(value)) + ";\n";
    } else if (bt_value_is_string(value)) {
      out += "\t" + std::string(name) + " = " + quoted(bt_value_string_get(value)) + ";\n";
    } else {
      tsdl.fail(std::string("the environment entry '") + name + "' (neither an integer nor a string)");
      return false;
    }
  }
  out += "};\n\n";
  return true;
}

void write_clock(const bt_clock_class* clock, TsdlText& tsdl) {
  std::string& out = tsdl.text();
  out += "clock {\n\tname = " + std::string(bt_clock_class_get_name(clock)) + ";\n";
  if (const uint8_t* uuid = bt_clock_class_get_uuid(clock)) out += "\tuuid = \"" + bt::uuid_text(uuid) + "\";\n";
  if (const char* description = bt_clock_class_get_description(clock)) {
    out += "\tdescription = " + quoted(description) + ";\n";
  }
  int64_t seconds = 0;
  uint64_t cycles = 0;
  bt_clock_class_get_offset(clock, &seconds, &cycles);
  out += "\tfreq = " + std::to_string(bt_clock_class_get_frequency(clock)) + ";\n";
  out += "\tprecision = " + std::to_string(bt_clock_class_get_precision(clock)) + ";\n";
  out += "\toffset_s = " + std::to_string(seconds) + ";\n";
  out += "\toffset = " + std::to_string(cycles) + ";\n";
  out += std::string("\tabsolute = ") + (bt_clock_class_origin_is_unix_epoch(clock) ? "true" : "false") + ";\n";
  out += "};\n\n";
}

void write_stream_class(const bt_stream_class* sc, TsdlText& tsdl) {
  std::string& out = tsdl.text();
  const StreamLayout layout = StreamLayout::of(sc);
  const bt_clock_class* clock = bt_stream_class_borrow_default_clock_class_const(sc);
  const std::string clock_name = clock != nullptr ? bt_clock_class_get_name(clock) : "";
  const bt_field_class* packet_context = bt_stream_class_borrow_packet_context_field_class_const(sc);
  const bt_field_class* common_context = bt_stream_class_borrow_event_common_context_field_class_const(sc);
  tsdl.set_where("stream class " + std::to_string(bt_stream_class_get_id(sc)) + ": ");
  tsdl.set_root(BT_FIELD_PATH_SCOPE_PACKET_CONTEXT, packet_context);
  tsdl.set_root(BT_FIELD_PATH_SCOPE_EVENT_COMMON_CONTEXT, common_context);
  tsdl.set_root(BT_FIELD_PATH_SCOPE_EVENT_SPECIFIC_CONTEXT, nullptr);
  tsdl.set_root(BT_FIELD_PATH_SCOPE_EVENT_PAYLOAD, nullptr);

  out += "stream {\n\tid = " + std::to_string(bt_stream_class_get_id(sc)) + ";\n";
  out += "\tevent.header := struct {\n\t\t" + std::string(kU32) + " id;\n";
  if (layout.timestamps) out += "\t\t" + clocked_u64(clock_name) + " timestamp;\n";
  out += "\t};\n\tpacket.context := struct {\n";
  if (layout.timestamp_begin) out += "\t\t" + clocked_u64(clock_name) + " timestamp_begin;\n";
  if (layout.timestamp_end) out += "\t\t" + clocked_u64(clock_name) + " timestamp_end;\n";
  out += "\t\t" + std::string(kU64) + " content_size;\n\t\t" + kU64 + " packet_size;\n";
  if (layout.events_discarded) out += "\t\t" + std::string(kU64) + " events_discarded;\n";
  if (layout.packet_seq_num) out += "\t\t" + std::string(kU64) + " packet_seq_num;\n";
  tsdl.begin_scope(BT_FIELD_PATH_SCOPE_PACKET_CONTEXT);
  if (packet_context != nullptr) tsdl.members(packet_context, 2);
  out += "\t};\n";
  if (common_context != nullptr) {
    out += "\tevent.context := ";
    tsdl.begin_scope(BT_FIELD_PATH_SCOPE_EVENT_COMMON_CONTEXT);
    tsdl.assign(common_context, 1);
  }
  out += "};\n\n";

  const uint64_t events = bt_stream_class_get_event_class_count(sc);
  for (uint64_t i = 0; i < events && !tsdl.failed(); ++i) {
    const bt_event_class* ec = bt_stream_class_borrow_event_class_by_index_const(sc, i);
    const char* name = bt_event_class_get_name(ec);
    tsdl.set_where("event class '" + std::string(name != nullptr ? name : "") + "': ");
    if (bt_event_class_get_id(ec) > UINT32_MAX) {
      tsdl.fail("its id " + std::to_string(bt_event_class_get_id(ec)) + " (the copies' event ids have 32 bits)");
      return;
    }
    const bt_field_class* specific = bt_event_class_borrow_specific_context_field_class_const(ec);
    const bt_field_class* payload = bt_event_class_borrow_payload_field_class_const(ec);
    tsdl.set_root(BT_FIELD_PATH_SCOPE_EVENT_SPECIFIC_CONTEXT, specific);
    tsdl.set_root(BT_FIELD_PATH_SCOPE_EVENT_PAYLOAD, payload);
    out += "event {\n";
    if (name != nullptr) out += "\tname = " + quoted(name) + ";\n";
    out += "\tid = " + std::to_string(bt_event_class_get_id(ec)) + ";\n";
    out += "\tstream_id = " + std::to_string(bt_stream_class_get_id(sc)) + ";\n";
    bt_event_class_log_level level;
    if (bt_event_class_get_log_level(ec, &level) == BT_PROPERTY_AVAILABILITY_AVAILABLE) {
      out += "\tloglevel = " + std::to_string(static_cast<int>(level)) + ";\n";
    }
    if (const char* uri = bt_event_class_get_emf_uri(ec)) out += "\tmodel.emf.uri = " + quoted(uri) + ";\n";
    for (const auto& [scope, keyword, fc] : {std::tuple{BT_FIELD_PATH_SCOPE_EVENT_SPECIFIC_CONTEXT, "context", specific},
                                          std::tuple{BT_FIELD_PATH_SCOPE_EVENT_PAYLOAD, "fields", payload}}) {
      if (fc == nullptr) continue;
      tsdl.begin_scope(scope);
      out += "\t" + std::string(keyword) + " := ";
      tsdl.assign(fc, 1);
    }
    out += "};\n\n";
  }
}

}  // namespace

std::optional<std::string> tsdl_metadata(const bt_trace* trace, std::string* unsupported) {
  unsupported->clear();
  TsdlText tsdl(unsupported);
  std::string& out = tsdl.text();
  const bt_trace_class* tc = bt_trace_borrow_class_const(trace);
  const uint8_t* uuid = bt_trace_get_uuid(trace);
  out += "/* CTF 1.8 */\n\n";
  out += "trace {\n\tmajor = 1;\n\tminor = 8;\n";
  if (uuid != nullptr) out += "\tuuid = \"" + bt::uuid_text(uuid) + "\";\n";
  out += "\tbyte_order = le;\n\tpacket.header := struct {\n\t\t" + std::string(kU32) + " magic;\n";
  if (uuid != nullptr) out += "\t\t" + std::string(kU8) + " uuid[16];\n";
  out += "\t\t" + std::string(kU64) + " stream_id;\n\t\t" + kU64 + " stream_instance_id;\n\t};\n};\n\n";
  if (!write_environment(trace, tsdl)) return std::nullopt;

  // Each clock once, before the streams that map to it.
  std::set<std::string> clock_names;
  std::set<const bt_clock_class*> clocks;
  const uint64_t stream_classes = bt_trace_class_get_stream_class_count(tc);
  for (uint64_t i = 0; i < stream_classes; ++i) {
    const bt_stream_class* sc = bt_trace_class_borrow_stream_class_by_index_const(tc, i);
    if (!bt_stream_class_supports_packets(sc)) {
      tsdl.fail("stream class " + std::to_string(bt_stream_class_get_id(sc)) + ": streams without packets");
      return std::nullopt;
    }
    const bt_clock_class* clock = bt_stream_class_borrow_default_clock_class_const(sc);
    if (clock == nullptr || !clocks.insert(clock).second) continue;
    const char* name = bt_clock_class_get_name(clock);
    if (name == nullptr || !is_identifier(name) || !clock_names.insert(name).second) {
      tsdl.fail(std::string("a clock named '") + (name != nullptr ? name : "") + "' (no name, not a TSDL name, or twice)");
      return std::nullopt;
    }
    write_clock(clock, tsdl);
  }
  for (uint64_t i = 0; i < stream_classes && !tsdl.failed(); ++i) {
    write_stream_class(bt_trace_class_borrow_stream_class_by_index_const(tc, i), tsdl);
  }
  if (tsdl.failed()) return std::nullopt;
  return std::move(out);
}

}  // namespace tracesync::apply
