#pragma once

#include <optional>
#include <string_view>

#include "model/point.h"

namespace tracesync::cli {

// "3s", "250ms", "10us", "42ns", "5min", "1h", or a bare number of
// nanoseconds. nullopt when malformed, negative or out of range.
std::optional<model::Nanoseconds> parse_duration(std::string_view text);

}  // namespace tracesync::cli
