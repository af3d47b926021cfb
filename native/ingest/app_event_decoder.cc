// SPDX-License-Identifier: EPL-2.0
#include "ingest/app_event_decoder.h"

#include <string_view>

namespace tracesync::ingest {

namespace {

std::string_view bare(std::string_view text) {
  if (!text.empty() && text.front() == '_') text.remove_prefix(1);
  return text;
}

// The member of `structure` named `name` (one leading underscore aside).
std::optional<uint64_t> member_index(const bt_field_class* structure, std::string_view name) {
  if (structure == nullptr || bt_field_class_get_type(structure) != BT_FIELD_CLASS_TYPE_STRUCTURE) return std::nullopt;
  const uint64_t count = bt_field_class_structure_get_member_count(structure);
  for (uint64_t i = 0; i < count; ++i) {
    const auto* member = bt_field_class_structure_borrow_member_by_index_const(structure, i);
    const char* member_name = bt_field_class_structure_member_get_name(member);
    if (member_name != nullptr && bare(member_name) == bare(name)) return i;
  }
  return std::nullopt;
}

const bt_field_class* member_class(const bt_field_class* structure, uint64_t index) {
  return bt_field_class_structure_member_borrow_field_class_const(
      bt_field_class_structure_borrow_member_by_index_const(structure, index));
}

std::string_view type_name(bt_field_class_type type) {
  if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_REAL)) return "a floating-point number";
  if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_ARRAY)) return "an array";
  if (type == BT_FIELD_CLASS_TYPE_STRUCTURE) return "a structure";
  if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_VARIANT)) return "a variant";
  if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_OPTION)) return "an option";
  if (type == BT_FIELD_CLASS_TYPE_BIT_ARRAY) return "a bit array";
  return "of a type a key cannot use";
}

// The key type of a field class, or nullopt when a key cannot use it.
std::optional<std::string> key_type(const bt_field_class* field_class) {
  const bt_field_class_type type = bt_field_class_get_type(field_class);
  const bool is_enum = bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_ENUMERATION);
  if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_INTEGER)) {
    const bool is_signed = bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER);
    return std::string(is_enum ? "enum " : "") + (is_signed ? "int" : "uint") +
           std::to_string(bt_field_class_integer_get_field_value_range(field_class));
  }
  if (type == BT_FIELD_CLASS_TYPE_BOOL) return "bool";
  if (type == BT_FIELD_CLASS_TYPE_STRING) return "string";
  return std::nullopt;
}

void offer_members(const bt_field_class* structure, const std::string& prefix, std::vector<std::string>& out) {
  if (structure == nullptr || bt_field_class_get_type(structure) != BT_FIELD_CLASS_TYPE_STRUCTURE) return;
  const uint64_t count = bt_field_class_structure_get_member_count(structure);
  for (uint64_t i = 0; i < count; ++i) {
    const auto* member = bt_field_class_structure_borrow_member_by_index_const(structure, i);
    const char* name = bt_field_class_structure_member_get_name(member);
    if (const auto type = key_type(bt_field_class_structure_member_borrow_field_class_const(member))) {
      out.push_back(prefix + std::string(bare(name == nullptr ? "" : name)) + " (" + *type + ")");
    }
  }
}

}  // namespace

std::optional<OfferedEventClass> AppEventDecoder::offered(const bt_event_class* event_class) {
  const char* name = bt_event_class_get_name(event_class);
  if (name == nullptr || std::string_view(name).find(':') == std::string_view::npos) return std::nullopt;
  OfferedEventClass out;
  out.name = name;
  offer_members(bt_event_class_borrow_payload_field_class_const(event_class), "", out.key_fields);
  offer_members(bt_event_class_borrow_specific_context_field_class_const(event_class), "context.", out.key_fields);
  offer_members(bt_stream_class_borrow_event_common_context_field_class_const(
                    bt_event_class_borrow_stream_class_const(event_class)),
                "context.", out.key_fields);
  return out;
}

std::optional<AppEventDecoder> AppEventDecoder::for_class(const bt_event_class* event_class,
                                                          const EventSelection& selection) {
  if (!selection.has_app_kinds()) return std::nullopt;
  const char* name = bt_event_class_get_name(event_class);
  const auto role = selection.app_role(name == nullptr ? "" : name);
  if (!role) return std::nullopt;
  AppEventDecoder decoder;
  decoder.role_ = *role;
  decoder.typed_key_ = selection.spec(role->kind).is_signal();
  const bt_stream_class* stream_class = bt_event_class_borrow_stream_class_const(event_class);
  const bt_field_class* payload = bt_event_class_borrow_payload_field_class_const(event_class);
  const bt_field_class* specific = bt_event_class_borrow_specific_context_field_class_const(event_class);
  const bt_field_class* common = bt_stream_class_borrow_event_common_context_field_class_const(stream_class);
  for (const KeyField& field : selection.spec(role->kind).key) {
    std::optional<FieldPlan> plan;
    const bt_field_class* structure = nullptr;
    auto look = [&](Place place, const bt_field_class* in) {
      if (plan) return;
      if (const auto index = member_index(in, field.name)) {
        plan = FieldPlan{place, *index, Type::kUnsigned};
        structure = in;
      }
    };
    if (field.scope != FieldScope::kContext) look(Place::kPayload, payload);
    if (field.scope != FieldScope::kPayload) {
      look(Place::kSpecificContext, specific);
      look(Place::kCommonContext, common);
    }
    const std::string where = field.scope == FieldScope::kPayload   ? "in its payload"
                              : field.scope == FieldScope::kContext ? "in its context"
                                                                    : "in its payload or context";
    if (!plan) {
      decoder.problem_ = std::string(name) + " has no field `" + field.name + "` " + where;
      decoder.fields_.clear();
      return decoder;
    }
    const bt_field_class_type type = bt_field_class_get_type(member_class(structure, plan->index));
    if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)) {
      plan->type = Type::kSigned;
    } else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER)) {
      plan->type = Type::kUnsigned;
    } else if (type == BT_FIELD_CLASS_TYPE_BOOL) {
      plan->type = Type::kBool;
    } else if (type == BT_FIELD_CLASS_TYPE_STRING) {
      plan->type = Type::kString;
    } else {
      decoder.problem_ = std::string(name) + "'s field `" + field.name + "` is " + std::string(type_name(type)) +
                         ": a key field must be an integer, an enumeration, a boolean or a string";
      decoder.fields_.clear();
      return decoder;
    }
    decoder.fields_.push_back(*plan);
  }
  return decoder;
}

void AppEventDecoder::decode(const bt_event* event, match::PacketEvent& out) const {
  out.kind = role_.kind;
  out.direction = role_.direction;
  if (!problem_.empty()) {
    out.layout = match::Layout::kUnknown;
    return;
  }
  out.layout = match::Layout::kTcp;
  match::AppKeyBuilder key(out.app);
  for (const FieldPlan& plan : fields_) {
    // Type order as ingest::SignalFieldType's.
    if (typed_key_) key.add_integer(static_cast<uint64_t>(plan.type));
    const bt_field* structure = plan.place == Place::kPayload           ? bt_event_borrow_payload_field_const(event)
                                : plan.place == Place::kSpecificContext ? bt_event_borrow_specific_context_field_const(event)
                                                                        : bt_event_borrow_common_context_field_const(event);
    const bt_field* field = bt_field_structure_borrow_member_field_by_index_const(structure, plan.index);
    bool fits = true;
    switch (plan.type) {
      case Type::kUnsigned: fits = key.add_integer(bt_field_integer_unsigned_get_value(field)); break;
      case Type::kSigned: fits = key.add_integer(static_cast<uint64_t>(bt_field_integer_signed_get_value(field))); break;
      case Type::kBool: fits = key.add_integer(bt_field_bool_get_value(field) ? 1 : 0); break;
      case Type::kString:
        fits = key.add_string(std::string_view(bt_field_string_get_value(field), bt_field_string_get_length(field)));
        break;
    }
    if (!fits) {
      out.layout = match::Layout::kKeyTooLong;
      return;
    }
  }
}

}  // namespace tracesync::ingest
