// SPDX-License-Identifier: EPL-2.0
#include "snapshot/utf8.h"

namespace tracesync::snapshot {
namespace {

bool in(unsigned char byte, unsigned char low, unsigned char high) { return byte >= low && byte <= high; }

}  // namespace

std::size_t utf8_sequence_length(std::string_view text, std::size_t at) {
  if (at >= text.size()) return 0;
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[at + k]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  // Unicode's table of well-formed sequences (table 3-7): the lead byte
  // fixes the length and the range of the second byte, which is what rules
  // out overlong forms (C0, C1, E0 80-9F, F0 80-8F), surrogates (ED A0-BF)
  // and code points beyond U+10FFFF (F4 90-BF, F5-FF).
  std::size_t length = 0;
  unsigned char second_low = 0x80;
  unsigned char second_high = 0xBF;
  if (in(lead, 0xC2, 0xDF)) {
    length = 2;
  } else if (in(lead, 0xE0, 0xEF)) {
    length = 3;
    if (lead == 0xE0) second_low = 0xA0;
    if (lead == 0xED) second_high = 0x9F;
  } else if (in(lead, 0xF0, 0xF4)) {
    length = 4;
    if (lead == 0xF0) second_low = 0x90;
    if (lead == 0xF4) second_high = 0x8F;
  } else {
    return 0;
  }
  if (text.size() - at < length) return 0;
  if (!in(byte(1), second_low, second_high)) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if (!in(byte(k), 0x80, 0xBF)) return 0;
  }
  return length;
}

bool is_utf8(std::string_view bytes) {
  for (std::size_t i = 0; i < bytes.size();) {
    const std::size_t length = utf8_sequence_length(bytes, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

std::string readable_text(std::string_view bytes) {
  if (is_utf8(bytes)) return std::string(bytes);
  constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() + 16);
  for (std::size_t i = 0; i < bytes.size();) {
    if (const std::size_t length = utf8_sequence_length(bytes, i); length != 0) {
      out.append(bytes.substr(i, length));
      i += length;
      continue;
    }
    const auto byte = static_cast<unsigned char>(bytes[i++]);
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 0x0F];
  }
  return out;
}

}  // namespace tracesync::snapshot
