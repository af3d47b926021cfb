// SPDX-License-Identifier: EPL-2.0
// Whether bytes are UTF-8, and the readable text every writer shows for a
// name that is not (docs/json.md, "Names that are not UTF-8").

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "snapshot/utf8.h"

namespace tracesync::snapshot {
namespace {

TEST(Utf8, WellFormedSequencesAtTheirEdges) {
  const std::vector<std::string> valid = {
      "",         "plain ascii", "\x7f",          "\xc2\x80",         "\xdf\xbf",         "\xe0\xa0\x80",
      "\xed\x9f\xbf" /* U+D7FF */, "\xee\x80\x80" /* U+E000 */, "\xef\xbf\xbf", "\xf0\x90\x80\x80",
      "\xf4\x8f\xbf\xbf" /* U+10FFFF */, "h\xc3\xb4te \xf0\x9f\x98\x80"};
  for (const std::string& text : valid) {
    EXPECT_TRUE(is_utf8(text)) << text;
    EXPECT_EQ(readable_text(text), text);
  }
}

TEST(Utf8, IllFormedSequences) {
  const std::vector<std::string> invalid = {
      "\x80",              // a continuation byte alone
      "\xc0\xaf",          // overlong '/'
      "\xc1\xbf",          // overlong
      "\xe0\x9f\xbf",      // overlong
      "\xed\xa0\x80",      // a surrogate, U+D800
      "\xed\xbf\xbf",      // a surrogate, U+DFFF
      "\xf0\x8f\xbf\xbf",  // overlong
      "\xf4\x90\x80\x80",  // beyond U+10FFFF
      "\xf5\x80\x80\x80",  // no such lead byte
      "\xff",
      "\xc3",              // cut short
      "\xe2\x82",          // cut short
      "\xc3\x28",          // a lead byte, then no continuation
  };
  for (const std::string& text : invalid) {
    EXPECT_FALSE(is_utf8(text)) << text;
    EXPECT_TRUE(is_utf8(readable_text(text))) << text;
  }
}

TEST(Utf8, SequenceLengths) {
  const std::string text = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xff";
  EXPECT_EQ(utf8_sequence_length(text, 0), 1u);
  EXPECT_EQ(utf8_sequence_length(text, 1), 2u);
  EXPECT_EQ(utf8_sequence_length(text, 2), 0u);  // inside a sequence
  EXPECT_EQ(utf8_sequence_length(text, 3), 3u);
  EXPECT_EQ(utf8_sequence_length(text, 6), 4u);
  EXPECT_EQ(utf8_sequence_length(text, 10), 0u);
  EXPECT_EQ(utf8_sequence_length(text, 11), 0u);  // past the end
}

// The expected texts are Python's bytes.decode("utf-8", "backslashreplace"),
// which docs/json.md names as the definition.
TEST(Utf8, ReadableTextIsPythonsBackslashReplace) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"h\xe9te", "h\\xe9te"},
      {"\xc3\xa9t\xc3", "\xc3\xa9t\\xc3"},
      {"\xc0\xaf", "\\xc0\\xaf"},
      {"\xe0\x80\x80", "\\xe0\\x80\\x80"},
      {"\xed\xa0\x80", "\\xed\\xa0\\x80"},
      {"\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"},
      {"\xe2\x82\xe2\x82\xac", "\\xe2\\x82\xe2\x82\xac"},
      {"\xff\xfe", "\\xff\\xfe"},
      {std::string("a\0\x80", 3), std::string("a\0\\x80", 6)},
  };
  for (const auto& [bytes, readable] : cases) EXPECT_EQ(readable_text(bytes), readable);
}

}  // namespace
}  // namespace tracesync::snapshot
