// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/point.h"

namespace tracesync::cli {

// The units a duration option takes, as the user types them.
inline constexpr std::string_view kDurationUnits = "ns, us, ms, s, min or h";

// "3s", "250ms", "10us", "42ns", "5min", "1h", "0.5s". A unit is required:
// a bare number is refused (`--open-timeout 300` once silently meant 300 ns).
// nullopt when malformed, unitless, negative or out of range.
std::optional<model::Nanoseconds> parse_duration(std::string_view text);

// Reads the value of a duration option into `out`; returns the problem in
// words naming the option and the units, or an empty string. Zero is refused
// unless `zero_allowed`.
std::string read_duration_option(std::string_view option, std::string_view text, model::Nanoseconds& out,
                                 bool zero_allowed = false);

// The same for a comma-separated list of durations ("60s,10min,1h"): each
// needs its unit, and the problem names the first one that is wrong.
std::string read_duration_list_option(std::string_view option, std::string_view text,
                                      std::vector<model::Nanoseconds>& out, bool zero_allowed = false);

}  // namespace tracesync::cli
