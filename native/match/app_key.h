// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tracesync::match {

// The key of an application message (docs/app-messages.md): the declared
// key fields' values in their declared order, exact. An integer field takes
// one word (its 64 bits, sign-extended when signed); a string field takes
// its length in a first byte and then its bytes, packed little-endian into
// whole words (so "ab" and "a","b" differ). Words not in use are zero, so
// equal keys compare equal word for word. A key that needs more than kWords
// words (a string of more than 39 bytes alone) is not matched: the event is
// counted as Layout::kKeyTooLong. Keys are never matched by a hash alone.
struct AppKey {
  static constexpr std::size_t kWords = 5;
  static constexpr std::size_t kBytes = kWords * 8;
  std::array<uint64_t, kWords> words{};
  uint8_t size = 0;  // words in use

  friend bool operator==(const AppKey&, const AppKey&) = default;
};

// Appends the key fields of one event to an AppKey, in declared order.
// Each returns false, leaving the key unusable, when the field does not fit.
class AppKeyBuilder {
 public:
  explicit AppKeyBuilder(AppKey& key) : key_(key) { key_ = AppKey{}; }

  bool add_integer(uint64_t bits) {
    if (key_.size >= AppKey::kWords) return overflow();
    key_.words[key_.size++] = bits;
    return true;
  }

  bool add_string(std::string_view bytes) {
    // A length byte, then the bytes: 1 + n bytes in whole words.
    const std::size_t words = (bytes.size() + 1 + 7) / 8;
    if (bytes.size() > 255 || key_.size + words > AppKey::kWords) return overflow();
    auto put = [&](std::size_t at, uint8_t byte) {
      key_.words[key_.size + at / 8] |= uint64_t{byte} << (8 * (at % 8));
    };
    put(0, static_cast<uint8_t>(bytes.size()));
    for (std::size_t i = 0; i < bytes.size(); ++i) put(i + 1, static_cast<uint8_t>(bytes[i]));
    key_.size = static_cast<uint8_t>(key_.size + words);
    return true;
  }

 private:
  bool overflow() {
    key_ = AppKey{};
    return false;
  }
  AppKey& key_;
};

}  // namespace tracesync::match
