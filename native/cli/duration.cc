#include "cli/duration.h"

#include <array>
#include <charconv>
#include <cmath>
#include <utility>

namespace tracesync::cli {

std::optional<model::Nanoseconds> parse_duration(std::string_view text) {
  static constexpr std::array<std::pair<std::string_view, double>, 7> kUnits = {{
      {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"min", 60e9}, {"s", 1e9}, {"h", 3600e9}, {"", 1},
  }};
  for (const auto& [suffix, scale] : kUnits) {
    if (!text.ends_with(suffix)) continue;
    const std::string_view number = text.substr(0, text.size() - suffix.size());
    if (number.empty()) return std::nullopt;
    double value = 0;
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (error != std::errc() || end != number.data() + number.size()) return std::nullopt;
    const double ns = value * scale;
    if (!std::isfinite(ns) || ns < 0 || ns > 9.2e18) return std::nullopt;
    return static_cast<model::Nanoseconds>(std::llround(ns));
  }
  return std::nullopt;
}

}  // namespace tracesync::cli
