// SPDX-License-Identifier: EPL-2.0
#include "hull/quality.h"

#include <array>
#include <utility>

namespace tracesync::hull {
namespace {

constexpr std::array<std::pair<Quality, std::string_view>, 5> kNames = {{
    {Quality::kAbsent, "ABSENT"},
    {Quality::kIncomplete, "INCOMPLETE"},
    {Quality::kAccurate, "ACCURATE"},
    {Quality::kApproximate, "APPROXIMATE"},
    {Quality::kFail, "FAIL"},
}};

}  // namespace

std::string_view to_string(Quality quality) {
  for (const auto& [value, name] : kNames) {
    if (value == quality) return name;
  }
  return "UNKNOWN";
}

std::optional<Quality> parse_quality(std::string_view name) {
  for (const auto& [value, text] : kNames) {
    if (text == name) return value;
  }
  return std::nullopt;
}

}  // namespace tracesync::hull
