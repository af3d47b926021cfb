// SPDX-License-Identifier: EPL-2.0
#include "cli/colour.h"

#include <unistd.h>

#include <array>
#include <cstdlib>
#include <string_view>

namespace tracesync::cli {
namespace {

constexpr std::string_view kRed = "\033[1;31m";
constexpr std::string_view kYellow = "\033[33m";
constexpr std::string_view kReset = "\033[0m";

void paint_all(std::string& text, std::string_view word, std::string_view colour) {
  const std::string painted = std::string(colour) + std::string(word) + std::string(kReset);
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + painted.size())) {
    text.replace(at, word.size(), painted);
  }
}

}  // namespace

bool colour_wanted(int fd) {
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour != nullptr && *no_colour != '\0') return false;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::string_view(term) == "dumb") return false;
  return isatty(fd) == 1;
}

std::string paint_report(std::string text) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kWarnings = {{
      {"NOT SYNCHRONIZED", kRed}, {"not synchronized", kRed}, {"FAIL", kRed}, {"INCOMPLETE", kYellow},
  }};
  for (const auto& [word, colour] : kWarnings) paint_all(text, word, colour);
  return text;
}

std::string red(const std::string& words, bool colour) {
  return colour ? std::string(kRed) + words + std::string(kReset) : words;
}

}  // namespace tracesync::cli
