// SPDX-License-Identifier: EPL-2.0
#include "cli/duration.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <utility>

namespace tracesync::cli {
namespace {

std::optional<double> parse_number(std::string_view number) {
  if (number.empty()) return std::nullopt;
  double value = 0;
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (error != std::errc() || end != number.data() + number.size()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<model::Nanoseconds> parse_duration(std::string_view text) {
  // "min" before "s" would not matter, but "ms" and "ns" must be tried before "s".
  static constexpr std::array<std::pair<std::string_view, double>, 6> kUnits = {{
      {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"min", 60e9}, {"s", 1e9}, {"h", 3600e9},
  }};
  for (const auto& [suffix, scale] : kUnits) {
    if (!text.ends_with(suffix)) continue;
    const auto value = parse_number(text.substr(0, text.size() - suffix.size()));
    if (!value) return std::nullopt;
    const double ns = *value * scale;
    if (!std::isfinite(ns) || ns < 0 || ns > 9.2e18) return std::nullopt;
    return static_cast<model::Nanoseconds>(std::llround(ns));
  }
  return std::nullopt;
}

std::string read_duration_option(std::string_view option, std::string_view text, model::Nanoseconds& out,
                                 bool zero_allowed) {
  const std::string named = "--" + std::string(option) + " '" + std::string(text) + "'";
  if (parse_number(text)) {
    return named + " has no unit: write it with one of " + std::string(kDurationUnits) + " (e.g. " +
           std::string(text) + "s)";
  }
  const auto value = parse_duration(text);
  if (!value || (*value == 0 && !zero_allowed)) {
    return named + " is not a " + (zero_allowed ? "" : "positive ") + "duration: a number and one of " +
           std::string(kDurationUnits) + " (e.g. 30s, 500ms, 5min)";
  }
  out = *value;
  return {};
}

std::string read_duration_list_option(std::string_view option, std::string_view text,
                                      std::vector<model::Nanoseconds>& out, bool zero_allowed) {
  std::vector<model::Nanoseconds> durations;
  for (std::size_t begin = 0;;) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    model::Nanoseconds value = 0;
    if (std::string problem = read_duration_option(option, text.substr(begin, end - begin), value, zero_allowed);
        !problem.empty()) {
      return problem;
    }
    durations.push_back(value);
    if (end == text.size()) break;
    begin = end + 1;
  }
  out = std::move(durations);
  return {};
}

}  // namespace tracesync::cli
