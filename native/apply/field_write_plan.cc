// SPDX-License-Identifier: EPL-2.0
#include "apply/field_write_plan.h"

namespace tracesync::apply {

FieldWritePlan::Node FieldWritePlan::add(const bt_field_class* fc, std::string* unsupported) {
  const bt_field_class_type type = bt_field_class_get_type(fc);
  Entry entry{Kind::kUnsigned};
  std::vector<const bt_field_class*> contents;
  if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER) ||
      bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)) {
    entry.kind = bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER) ? Kind::kSigned : Kind::kUnsigned;
    entry.bytes = static_cast<uint8_t>((bt_field_class_integer_get_field_value_range(fc) + 7) / 8);
  } else if (type == BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL) {
    entry.kind = Kind::kSingle;
  } else if (type == BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL) {
    entry.kind = Kind::kDouble;
  } else if (type == BT_FIELD_CLASS_TYPE_STRING) {
    entry.kind = Kind::kString;
  } else if (type == BT_FIELD_CLASS_TYPE_STRUCTURE) {
    entry.kind = Kind::kStructure;
    const uint64_t n = bt_field_class_structure_get_member_count(fc);
    for (uint64_t i = 0; i < n; ++i) {
      contents.push_back(bt_field_class_structure_member_borrow_field_class_const(
          bt_field_class_structure_borrow_member_by_index_const(fc, i)));
    }
  } else if (type == BT_FIELD_CLASS_TYPE_STATIC_ARRAY || type == BT_FIELD_CLASS_TYPE_DYNAMIC_ARRAY_WITH_LENGTH_FIELD) {
    // The length is the array's own (static) or its length field's, written
    // where the field is: either way the element count is the field's.
    entry.kind = Kind::kArray;
    contents.push_back(bt_field_class_array_borrow_element_field_class_const(fc));
  } else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_VARIANT_WITH_SELECTOR_FIELD)) {
    // The selector is a field written where it is; a variant writes only
    // its selected option.
    entry.kind = Kind::kVariant;
    const uint64_t n = bt_field_class_variant_get_option_count(fc);
    for (uint64_t i = 0; i < n; ++i) {
      contents.push_back(bt_field_class_variant_option_borrow_field_class_const(
          bt_field_class_variant_borrow_option_by_index_const(fc, i)));
    }
  } else {
    *unsupported = "a field class of type " + std::to_string(static_cast<unsigned long long>(type));
    return kNone;
  }
  // Children first, then this node's run of them: nested adds append to children_.
  std::vector<Node> kids;
  for (const bt_field_class* content : contents) {
    const Node kid = add(content, unsupported);
    if (kid == kNone) return kNone;
    kids.push_back(kid);
  }
  entry.first = static_cast<uint32_t>(children_.size());
  entry.count = static_cast<uint32_t>(kids.size());
  children_.insert(children_.end(), kids.begin(), kids.end());
  nodes_.push_back(entry);
  return static_cast<Node>(nodes_.size() - 1);
}

void FieldWritePlan::write(Node node, const bt_field* field, PacketBuffer& out) const {
  const Entry& e = nodes_[node];
  switch (e.kind) {
    case Kind::kUnsigned:
      out.put(bt_field_integer_unsigned_get_value(field), e.bytes);
      return;
    case Kind::kSigned:
      out.put(static_cast<uint64_t>(bt_field_integer_signed_get_value(field)), e.bytes);
      return;
    case Kind::kSingle: {
      const float value = bt_field_real_single_precision_get_value(field);
      out.put_bytes(&value, sizeof value);
      return;
    }
    case Kind::kDouble: {
      const double value = bt_field_real_double_precision_get_value(field);
      out.put_bytes(&value, sizeof value);
      return;
    }
    case Kind::kString: {
      // Its length, not the C string: src.ctf.fs 2.0.4 reuses string
      // fields and leaves the previous event's text behind an empty string
      // (length 0; seen on django-vote's `sys_access` filenames, which the
      // trace's bytes and babeltrace 1.5 show empty).
      const char nul = '\0';
      out.put_bytes(bt_field_string_get_value(field), bt_field_string_get_length(field));
      out.put_bytes(&nul, 1);
      return;
    }
    case Kind::kStructure:
      for (uint32_t i = 0; i < e.count; ++i) {
        write(children_[e.first + i], bt_field_structure_borrow_member_field_by_index_const(field, i), out);
      }
      return;
    case Kind::kArray: {
      const uint64_t length = bt_field_array_get_length(field);
      const Node element = children_[e.first];
      for (uint64_t i = 0; i < length; ++i) {
        write(element, bt_field_array_borrow_element_field_by_index_const(field, i), out);
      }
      return;
    }
    case Kind::kVariant:
      write(children_[e.first + bt_field_variant_get_selected_option_index(field)],
            bt_field_variant_borrow_selected_option_field_const(field), out);
      return;
  }
}

}  // namespace tracesync::apply
