// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <babeltrace2/babeltrace.h>

#include <cstdint>
#include <string>
#include <vector>

#include "apply/packet_buffer.h"

namespace tracesync::apply {

// How to write the fields of one class the way the copy's metadata declares
// them (ctf_layout.h), worked out once per field class so that writing an
// event is a loop over babeltrace2's getters: no type tests on the class,
// no allocation. The plan is a flat table of nodes; a compound node names
// its children by their index in the table.
class FieldWritePlan {
 public:
  using Node = uint32_t;
  static constexpr Node kNone = UINT32_MAX;

  // Adds the nodes of `fc` (and of what it contains); returns its node, or
  // kNone with `unsupported` saying what cannot be written.
  Node add(const bt_field_class* fc, std::string* unsupported);

  // Appends `field`, an instance of the class `node` was made from.
  void write(Node node, const bt_field* field, PacketBuffer& out) const;

 private:
  enum class Kind : uint8_t { kUnsigned, kSigned, kSingle, kDouble, kString, kStructure, kArray, kVariant };
  struct Entry {
    Kind kind;
    uint8_t bytes = 0;       // integers: ceil(bits / 8)
    uint32_t first = 0;      // compounds: their children in children_
    uint32_t count = 0;      //   structures: one per member; variants: one per option; arrays: the element
  };

  std::vector<Entry> nodes_;
  std::vector<Node> children_;
};

}  // namespace tracesync::apply
