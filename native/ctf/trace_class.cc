// SPDX-License-Identifier: EPL-2.0
#include "ctf/trace_class.h"

#include <string_view>

#include "ctf/member_names.h"

namespace tracesync::ctf {

const char* to_string(Scope scope) {
  switch (scope) {
    case Scope::kPacketHeader: return "trace.packet.header";
    case Scope::kPacketContext: return "stream.packet.context";
    case Scope::kEventHeader: return "stream.event.header";
    case Scope::kStreamEventContext: return "stream.event.context";
    case Scope::kEventContext: return "event.context";
    case Scope::kEventPayload: return "event.fields";
  }
  return "?";
}

std::string FieldPath::text() const {
  std::string out = absolute ? to_string(scope) : "";
  for (unsigned i = 0; i < climb; ++i) out += out.empty() ? "(parent)" : ".(parent)";
  for (const std::string& name : names) out += (out.empty() ? "" : ".") + name;
  return out;
}

bool FieldClass::is_text_array() const {
  return (kind == Kind::kArray || kind == Kind::kSequence) && element && element->kind == Kind::kInteger &&
         element->size == 8 && element->alignment == 8 && element->text && code_unit == 1;
}

const Member* FieldClass::member(const std::string& name) const {
  for (const Member& m : members) {
    if (bare(m.name) == bare(name)) return &m;
  }
  return nullptr;
}

const ClockClass* TraceClass::clock(const std::string& name) const {
  for (const ClockClass& c : clocks) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

std::optional<std::array<uint8_t, 16>> parse_uuid(const std::string& text) {
  std::array<uint8_t, 16> out{};
  std::size_t byte = 0;
  int half = -1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '-' && (i == 8 || i == 13 || i == 18 || i == 23)) continue;
    int v = -1;
    if (c >= '0' && c <= '9') v = c - '0';
    if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
    if (v < 0 || byte >= out.size()) return std::nullopt;
    if (half < 0) {
      half = v;
    } else {
      out[byte++] = static_cast<uint8_t>(half * 16 + v);
      half = -1;
    }
  }
  if (byte != out.size() || text.size() != 36) return std::nullopt;
  return out;
}

std::string uuid_text(const std::array<uint8_t, 16>& uuid) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < uuid.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += digits[uuid[i] >> 4];
    out += digits[uuid[i] & 15];
  }
  return out;
}

}  // namespace tracesync::ctf
