// SPDX-License-Identifier: EPL-2.0
#include "jni/java_strings.h"

#include <array>
#include <cstdint>
#include <vector>

#include "jni/java_exceptions.h"
#include "snapshot/utf8.h"

namespace tracesync::jni {
namespace {

constexpr char32_t kReplacement = 0xFFFD;

bool is_high_surrogate(char32_t c) { return c >= 0xD800 && c <= 0xDBFF; }
bool is_low_surrogate(char32_t c) { return c >= 0xDC00 && c <= 0xDFFF; }

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

void append_utf16(std::u16string& out, char32_t c) {
  if (c < 0x10000) {
    out.push_back(static_cast<char16_t>(c));
  } else {
    c -= 0x10000;
    out.push_back(static_cast<char16_t>(0xD800 + (c >> 10)));
    out.push_back(static_cast<char16_t>(0xDC00 + (c & 0x3FF)));
  }
}

// Decodes the UTF-8 sequence at text[i], advancing i past it. A byte that
// starts no well-formed sequence (snapshot::utf8_sequence_length) yields
// U+FFFD and is skipped alone.
char32_t decode_utf8(std::string_view text, std::size_t& i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const std::size_t length = snapshot::utf8_sequence_length(text, i);
  if (length == 0) {
    ++i;
    return kReplacement;
  }
  // The lead byte's payload bits, then six bits from each continuation byte.
  constexpr unsigned char kLeadBits[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  char32_t c = byte(i) & kLeadBits[length];
  for (std::size_t k = 1; k < length; ++k) c = (c << 6) | (byte(i + k) & 0x3F);
  i += length;
  return c;
}

}  // namespace

std::string to_utf8(JNIEnv* env, jstring text, std::string_view what) {
  if (text == nullptr) throw JavaException(JavaError::kNullPointer, std::string(what) + " must not be null");
  const jsize length = env->GetStringLength(text);
  const auto size = static_cast<std::size_t>(length);
  // Host names and paths are short: copy them without allocating.
  std::array<jchar, 256> small;
  std::vector<jchar> large;
  jchar* units = small.data();
  if (size > small.size()) {
    large.resize(size);
    units = large.data();
  }
  env->GetStringRegion(text, 0, length, units);

  std::string out;
  out.reserve(size);
  for (std::size_t i = 0; i < size; ++i) {
    char32_t c = units[i];
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
      continue;
    }
    if (is_high_surrogate(c) && i + 1 < size && is_low_surrogate(units[i + 1])) {
      c = 0x10000 + ((c - 0xD800) << 10) + (units[i + 1] - 0xDC00);
      ++i;
    } else if (is_high_surrogate(c) || is_low_surrogate(c)) {
      c = kReplacement;
    }
    append_utf8(out, c);
  }
  return out;
}

jstring to_java_string(JNIEnv* env, std::string_view utf8) {
  std::u16string units;
  units.reserve(utf8.size());
  for (std::size_t i = 0; i < utf8.size();) append_utf16(units, decode_utf8(utf8, i));
  if (units.size() > static_cast<std::size_t>(INT32_MAX)) units.resize(INT32_MAX);  // a Java string's limit
  static_assert(sizeof(jchar) == sizeof(char16_t));
  return env->NewString(reinterpret_cast<const jchar*>(units.data()), static_cast<jsize>(units.size()));
}

}  // namespace tracesync::jni
