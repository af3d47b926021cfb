// SPDX-License-Identifier: EPL-2.0
#include "ctf/tsdl_lexer.h"

#include <array>

namespace tracesync::ctf {

namespace {
constexpr bool is_identifier_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
// Whether a byte may go on an identifier (a start or a digit): one load a
// character where the metadata's names are most of its text.
constexpr std::array<bool, 256> kIdentifierByte = [] {
  std::array<bool, 256> is{};
  for (std::size_t byte = 0; byte < is.size(); ++byte) {
    const char c = static_cast<char>(byte);
    is[byte] = is_identifier_start(c) || is_digit(c);
  }
  return is;
}();
int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}
}  // namespace

bool TsdlLexer::skip_space_and_comments() {
  while (at_ < text_.size()) {
    const char c = text_[at_];
    if (c == '\n') {
      ++line_;
      ++at_;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\0') {
      ++at_;  // LTTng pads metadata packets with NULs
    } else if (c != '/') {
      return true;  // a token begins: only `/` may begin a comment instead
    } else if (text_.substr(at_, 2) == "/*") {
      const std::size_t end = text_.find("*/", at_ + 2);
      if (end == std::string_view::npos) return false;
      const std::size_t stop = end + 2;
      for (std::size_t i = at_; i < stop; ++i) line_ += text_[i] == '\n';
      at_ = stop;
    } else if (text_.substr(at_, 2) == "//") {
      while (at_ < text_.size() && text_[at_] != '\n') ++at_;
    } else {
      return true;
    }
  }
  return true;
}

TsdlToken TsdlLexer::number() {
  TsdlToken token{TsdlToken::Kind::kInteger, {}, 0, line_};
  unsigned base = 10;
  if (text_[at_] == '0' && at_ + 1 < text_.size() && (text_[at_ + 1] == 'x' || text_[at_ + 1] == 'X')) {
    base = 16;
    at_ += 2;
  } else if (text_[at_] == '0' && at_ + 1 < text_.size() && is_digit(text_[at_ + 1])) {
    base = 8;
    ++at_;
  }
  const std::size_t begin = at_;
  while (at_ < text_.size() && digit_value(text_[at_]) < static_cast<int>(base)) {
    const uint64_t digit = static_cast<uint64_t>(digit_value(text_[at_]));
    if (__builtin_mul_overflow(token.value, base, &token.value) ||
        __builtin_add_overflow(token.value, digit, &token.value)) {
      return bad("an integer literal too large for 64 bits", line_);
    }
    ++at_;
  }
  if (at_ == begin && base == 16) return bad("`0x` without hexadecimal digits", line_);
  while (at_ < text_.size() && (text_[at_] == 'u' || text_[at_] == 'U' || text_[at_] == 'l' || text_[at_] == 'L')) ++at_;
  if (at_ < text_.size() && (is_identifier_start(text_[at_]) || is_digit(text_[at_]))) {
    return bad("a malformed integer literal", line_);
  }
  return token;
}

TsdlToken TsdlLexer::bad(std::string problem, unsigned line) {
  return {TsdlToken::Kind::kBad, kept_.emplace_back(std::move(problem)), 0, line};
}

TsdlToken TsdlLexer::string_literal() {
  const unsigned line = line_;
  ++at_;  // the opening quote
  const std::size_t begin = at_;
  // Most have no escape: their value is their text.
  while (at_ < text_.size() && text_[at_] != '"' && text_[at_] != '\\' && text_[at_] != '\n') ++at_;
  if (at_ < text_.size() && text_[at_] == '"') {
    ++at_;
    return {TsdlToken::Kind::kString, text_.substr(begin, at_ - 1 - begin), 0, line};
  }
  std::string value(text_.substr(begin, at_ - begin));
  while (at_ < text_.size() && text_[at_] != '"') {
    char c = text_[at_++];
    if (c == '\n') return bad("a string literal runs past the end of its line", line);
    if (c == '\\' && at_ < text_.size()) {
      const char e = text_[at_++];
      switch (e) {
        case 'n': c = '\n'; break;
        case 't': c = '\t'; break;
        case 'r': c = '\r'; break;
        case '0': c = '\0'; break;
        default: c = e; break;  // \" \\ and the rest as themselves
      }
    }
    value += c;
  }
  if (at_ >= text_.size()) return bad("a string literal is not closed", line);
  ++at_;
  return {TsdlToken::Kind::kString, kept_.emplace_back(std::move(value)), 0, line};
}

TsdlToken TsdlLexer::next() {
  if (!skip_space_and_comments()) return bad("a comment is not closed", line_);
  if (at_ >= text_.size()) return {TsdlToken::Kind::kEnd, {}, 0, line_};
  const char c = text_[at_];
  if (is_identifier_start(c)) {
    const std::size_t begin = at_;
    while (at_ < text_.size() && kIdentifierByte[static_cast<unsigned char>(text_[at_])]) ++at_;
    return {TsdlToken::Kind::kIdentifier, text_.substr(begin, at_ - begin), 0, line_};
  }
  if (is_digit(c)) return number();
  if (c == '"') return string_literal();
  // The punctuators, the longest first where one begins another (`:=`,
  // `...`): chosen by their first character (a loop comparing each of
  // them was a fifth of the time of reading a small trace).
  const std::string_view rest = text_.substr(at_);
  std::size_t length = 0;
  switch (c) {
    case ':':
      length = rest.substr(0, 2) == ":=" ? 2 : 1;
      break;
    case '.':
      length = rest.substr(0, 3) == "..." ? 3 : 1;
      break;
    case '{': case '}': case '[': case ']': case '(': case ')': case '<': case '>':
    case ';': case ',': case '=': case '-': case '+':
      length = 1;
      break;
    default:
      break;
  }
  if (length != 0) {
    at_ += length;
    return {TsdlToken::Kind::kPunctuator, rest.substr(0, length), 0, line_};
  }
  const unsigned char byte = static_cast<unsigned char>(c);
  std::string shown = byte >= 0x20 && byte < 0x7f ? std::string("`") + c + "`" : "byte " + std::to_string(byte);
  return bad("unexpected character " + shown, line_);
}

}  // namespace tracesync::ctf
