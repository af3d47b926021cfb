// SPDX-License-Identifier: EPL-2.0
#pragma once

// Writes one JSON document element by element, as nlohmann's dump() of the
// whole document would: the same bytes, pretty (`indent` >= 0) or on one
// line (`indent` < 0), without holding the document. A report's large
// arrays (a day's clock map, a trace's segments) go out one element at a
// time; small values are built as nlohmann values and dumped here, so that
// numbers and string escapes are nlohmann's own.

#include <nlohmann/json.hpp>

#include <ostream>
#include <string_view>
#include <vector>

namespace tracesync::snapshot {

class JsonStream {
 public:
  JsonStream(std::ostream& out, int indent);

  // Containers: an object's members and an array's elements go between
  // begin and end. In an object, key() comes before each member's value.
  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  void key(std::string_view name);

  // A whole value (a number, a string, a small object or array).
  void value(const nlohmann::ordered_json& v);
  // Each member of the small object `object`, as if written one by one.
  void members(const nlohmann::ordered_json& object);
  // key() then value().
  void member(std::string_view name, const nlohmann::ordered_json& v);

 private:
  // Separates the next element from the previous one (or from its
  // container's opening) and indents it; not after a key.
  void before_element();
  void begin(char open);
  void end(char close);
  void newline_and_pad(std::size_t depth);

  std::ostream& out_;
  int indent_;
  // Whether each open container has an element yet: an empty one is
  // written "{}" or "[]", as nlohmann does.
  std::vector<bool> has_element_;
  bool after_key_ = false;
};

}  // namespace tracesync::snapshot
