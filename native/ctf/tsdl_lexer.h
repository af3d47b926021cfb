// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

namespace tracesync::ctf {

// One token of TSDL text (CTF 1.8, section 7): an identifier or keyword, an
// integer literal, a string literal, or a punctuator.
struct TsdlToken {
  enum class Kind : uint8_t { kEnd, kIdentifier, kInteger, kString, kPunctuator, kBad };
  Kind kind = Kind::kEnd;
  // The identifier, the string's value, the punctuator, or what is wrong
  // (kBad): a view into the metadata text, or into the lexer where a string
  // had escapes or a problem was worded; valid while the lexer is.
  std::string_view text;
  uint64_t value = 0;  // kInteger
  unsigned line = 1;
};

// Splits TSDL text into tokens, skipping white space and comments. Tokens
// are views: a metadata's tens of thousands of tokens copied no text (a
// string each was a third of parsing a small trace's metadata).
class TsdlLexer {
 public:
  explicit TsdlLexer(std::string_view text) : text_(text) {}
  TsdlToken next();

 private:
  bool skip_space_and_comments();  // false: a comment is not closed
  TsdlToken number();
  TsdlToken string_literal();
  TsdlToken bad(std::string problem, unsigned line);

  std::string_view text_;
  std::size_t at_ = 0;
  unsigned line_ = 1;
  std::deque<std::string> kept_;  // string literals with escapes, problems: what views of tokens point into
};

}  // namespace tracesync::ctf
