// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tracesync::ctf {

// One token of TSDL text (CTF 1.8, section 7): an identifier or keyword, an
// integer literal, a string literal, or a punctuator.
struct TsdlToken {
  enum class Kind : uint8_t { kEnd, kIdentifier, kInteger, kString, kPunctuator, kBad };
  Kind kind = Kind::kEnd;
  std::string text;    // the identifier, the string's value, the punctuator, or what is wrong (kBad)
  uint64_t value = 0;  // kInteger
  unsigned line = 1;
};

// Splits TSDL text into tokens, skipping white space and comments.
class TsdlLexer {
 public:
  explicit TsdlLexer(std::string_view text) : text_(text) {}
  TsdlToken next();

 private:
  bool skip_space_and_comments();  // false: a comment is not closed
  TsdlToken number();
  TsdlToken string_literal();

  std::string_view text_;
  std::size_t at_ = 0;
  unsigned line_ = 1;
};

}  // namespace tracesync::ctf
