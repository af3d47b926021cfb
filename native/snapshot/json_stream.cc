// SPDX-License-Identifier: EPL-2.0
#include "snapshot/json_stream.h"

#include <string>

namespace tracesync::snapshot {

JsonStream::JsonStream(std::ostream& out, int indent) : out_(out), indent_(indent) {}

void JsonStream::newline_and_pad(std::size_t depth) {
  out_ << '\n' << std::string(depth * static_cast<std::size_t>(indent_), ' ');
}

void JsonStream::before_element() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (has_element_.empty()) return;  // the document itself
  if (has_element_.back()) out_.put(',');
  has_element_.back() = true;
  if (indent_ >= 0) newline_and_pad(has_element_.size());
}

void JsonStream::begin(char open) {
  before_element();
  out_.put(open);
  has_element_.push_back(false);
}

void JsonStream::end(char close) {
  const bool empty = !has_element_.back();
  has_element_.pop_back();
  if (!empty && indent_ >= 0) newline_and_pad(has_element_.size());
  out_.put(close);
}

void JsonStream::begin_object() { begin('{'); }
void JsonStream::end_object() { end('}'); }
void JsonStream::begin_array() { begin('['); }
void JsonStream::end_array() { end(']'); }

void JsonStream::key(std::string_view name) {
  before_element();
  // The key's escapes are nlohmann's, as its dump writes them.
  out_ << nlohmann::ordered_json(name).dump() << (indent_ >= 0 ? ": " : ":");
  after_key_ = true;
}

void JsonStream::value(const nlohmann::ordered_json& v) {
  before_element();
  const std::string text = v.dump(indent_);
  if (indent_ <= 0 || has_element_.empty()) {
    out_ << text;
    return;
  }
  // dump() indents a value as if it were the document; here it is nested
  // in the open containers. A string's newlines are escaped, so every
  // newline in the text is a line break of the layout.
  const std::string pad(has_element_.size() * static_cast<std::size_t>(indent_), ' ');
  std::size_t from = 0;
  for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', from)) {
    out_.write(text.data() + from, static_cast<std::streamsize>(at + 1 - from));
    out_ << pad;
    from = at + 1;
  }
  out_.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
}

void JsonStream::members(const nlohmann::ordered_json& object) {
  for (auto it = object.begin(); it != object.end(); ++it) member(it.key(), it.value());
}

void JsonStream::member(std::string_view name, const nlohmann::ordered_json& v) {
  key(name);
  value(v);
}

}  // namespace tracesync::snapshot
