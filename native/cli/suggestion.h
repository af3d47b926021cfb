// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tracesync::cli {

// The candidate a mistyped word was most likely meant to be ("snyc" ->
// "sync", "--fromat" -> "--format"): the nearest by edit distance (a swap
// of two neighbouring letters counts as one edit), if near enough to be a
// typo rather than another word. Ties go to the first candidate.
std::optional<std::string> closest_word(std::string_view typed, const std::vector<std::string>& candidates);

}  // namespace tracesync::cli
