// SPDX-License-Identifier: EPL-2.0
#include "cli/ppm.h"

#include <charconv>
#include <cmath>

namespace tracesync::cli {

std::optional<double> parse_ppm(std::string_view text) {
  if (text.ends_with("ppm")) text.remove_suffix(3);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if (!std::isfinite(value) || value < 0) return std::nullopt;
  return value;
}

}  // namespace tracesync::cli
