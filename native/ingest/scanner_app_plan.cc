// SPDX-License-Identifier: EPL-2.0
#include "ingest/scanner_app_plan.h"

#include "ctf/member_names.h"
#include "ingest/signal_spec.h"

namespace tracesync::ingest {

namespace {

using FC = ctf::FieldClass;

// As babeltrace2 names a CTF 1.8 field class a key cannot use (AppEventDecoder).
std::string type_name(const FC& fc) {
  switch (fc.kind) {
    case FC::Kind::kFloat: return "a floating-point number";
    case FC::Kind::kArray:
    case FC::Kind::kSequence: return "an array";
    case FC::Kind::kStructure: return "a structure";
    case FC::Kind::kVariant: return "a variant";
    case FC::Kind::kOptional: return "an optional field";
    case FC::Kind::kString: return "a UTF-16 or UTF-32 string";
    default: return "of a type a key cannot use";
  }
}

// "uint64", "enum int32", "string" (as babeltrace2 sees a CTF 1.8 class:
// an array of 8-bit text integers is a string); nullopt when a key cannot use it.
std::optional<std::string> key_type(const FC& fc) {
  if (fc.boolean) return std::string("bool");  // CTF 2's; babeltrace2 2.1 makes it a bool field class
  if (fc.is_integer()) {
    return std::string(fc.kind == FC::Kind::kEnumeration ? "enum " : "") + (fc.is_signed ? "int" : "uint") +
           std::to_string(fc.size);
  }
  if ((fc.kind == FC::Kind::kString && fc.code_unit == 1) || fc.is_text_array()) return "string";
  return std::nullopt;
}

// A member's name as a key names it (ctf/member_names.h).
std::string key_name(const ctf::Member& member, bool tsdl_names) {
  return ctf::compared_name(member.name, tsdl_names);
}

void offer_members(const ctf::FieldClassPtr& structure, const std::string& prefix, bool tsdl_names,
                   std::vector<std::string>& out) {
  if (!structure || structure->kind != FC::Kind::kStructure) return;
  for (const ctf::Member& member : structure->members) {
    if (const auto type = key_type(*member.type)) {
      out.push_back(prefix + key_name(member, tsdl_names) + " (" + *type + ")");
    }
  }
}

// The member of `structure` that the key field `name` names, or null.
const ctf::Member* key_member(const ctf::FieldClassPtr& structure, const std::string& name, bool tsdl_names) {
  if (!structure || structure->kind != FC::Kind::kStructure) return nullptr;
  for (const ctf::Member& member : structure->members) {
    if (key_name(member, tsdl_names) == ctf::bare(name)) return &member;
  }
  return nullptr;
}

}  // namespace

std::optional<OfferedEventClass> ScannerAppPlan::offered(const ctf::EventClass& event_class,
                                                         const ctf::StreamClass& stream, bool tsdl_names) {
  if (event_class.name.find(':') == std::string::npos) return std::nullopt;
  OfferedEventClass out;
  out.name = event_class.name;
  offer_members(event_class.payload, "", tsdl_names, out.key_fields);
  offer_members(event_class.context, "context.", tsdl_names, out.key_fields);
  offer_members(stream.event_context, "context.", tsdl_names, out.key_fields);
  return out;
}

std::optional<ScannerAppPlan> ScannerAppPlan::for_class(const ctf::EventClass& event_class,
                                                        const ctf::StreamClass& stream,
                                                        const EventSelection& selection, bool tsdl_names) {
  if (!selection.has_app_kinds()) return std::nullopt;
  const auto role = selection.app_role(event_class.name);
  if (!role) return std::nullopt;
  ScannerAppPlan plan;
  plan.role_ = *role;
  plan.typed_key_ = selection.spec(role->kind).is_signal();
  const std::string& name = event_class.name;
  for (const KeyField& field : selection.spec(role->kind).key) {
    const ctf::Member* member = nullptr;
    ctf::Scope scope = ctf::Scope::kEventPayload;
    auto look = [&](ctf::Scope where, const ctf::FieldClassPtr& in) {
      if (member != nullptr) return;
      if ((member = key_member(in, field.name, tsdl_names)) != nullptr) scope = where;
    };
    if (field.scope != FieldScope::kContext) look(ctf::Scope::kEventPayload, event_class.payload);
    if (field.scope != FieldScope::kPayload) {
      look(ctf::Scope::kEventContext, event_class.context);
      look(ctf::Scope::kStreamEventContext, stream.event_context);
    }
    const std::string where = field.scope == FieldScope::kPayload   ? "in its payload"
                              : field.scope == FieldScope::kContext ? "in its context"
                                                                    : "in its payload or context";
    if (member == nullptr) {
      plan.problem_ = name + " has no field `" + field.name + "` " + where;
      plan.requests_.clear();
      plan.types_.clear();
      return plan;
    }
    const FC& type = *member->type;
    Type key_type = Type::kUnsigned;
    if (type.boolean) {
      key_type = Type::kBool;
    } else if (type.is_integer()) {
      key_type = type.is_signed ? Type::kSigned : Type::kUnsigned;
    } else if (type.kind == FC::Kind::kString && type.code_unit == 1) {
      key_type = Type::kString;
    } else if (type.is_text_array()) {
      plan.not_covered_ = name + "'s key field `" + field.name + "` is a text array (a string to babeltrace2)";
    } else {
      plan.problem_ = name + "'s field `" + field.name + "` is " + type_name(type) +
                      ": a key field must be an integer, an enumeration, a boolean or a string";
      plan.requests_.clear();
      plan.types_.clear();
      return plan;
    }
    if (scope == ctf::Scope::kStreamEventContext && plan.not_covered_.empty()) {
      plan.not_covered_ = name + "'s key field `" + field.name + "` is in its stream's event context";
    }
    plan.requests_.push_back(ctf::FieldRequest{scope, {member->name}});
    plan.types_.push_back(key_type);
  }
  return plan;
}

void ScannerAppPlan::decode(const ctf::CapturedField* captured, match::PacketEvent& out) const {
  out.kind = role_.kind;
  out.direction = role_.direction;
  if (!problem_.empty()) {
    out.layout = match::Layout::kUnknown;
    return;
  }
  out.layout = match::Layout::kTcp;
  match::AppKeyBuilder key(out.app);
  for (std::size_t i = 0; i < types_.size(); ++i) {
    const ctf::CapturedField& field = captured[i];
    if (typed_key_) {
      const SignalFieldType type = types_[i] == Type::kString   ? SignalFieldType::kString
                                   : types_[i] == Type::kSigned ? SignalFieldType::kSigned
                                   : types_[i] == Type::kBool   ? SignalFieldType::kBool
                                                                : SignalFieldType::kUnsigned;
      key.add_integer(static_cast<uint64_t>(type));
    }
    // A signed integer sign-extended, as babeltrace2's value cast; a boolean
    // true whatever its bits but zero, 1 as babeltrace2's bool field gives it.
    const bool fits =
        types_[i] == Type::kString
            ? key.add_string(std::string_view(reinterpret_cast<const char*>(field.text), static_cast<std::size_t>(field.value)))
        : types_[i] == Type::kBool ? key.add_integer(field.value != 0 ? 1 : 0)
                                   : key.add_integer(field.value);
    if (!fits) {
      out.layout = match::Layout::kKeyTooLong;
      return;
    }
  }
}

}  // namespace tracesync::ingest
