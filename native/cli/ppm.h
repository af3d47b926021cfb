// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string_view>

namespace tracesync::cli {

// A rate in parts per million: "0.5ppm", "2 ppm" or a bare number ("0.5").
// nullopt when malformed, negative, or not finite.
std::optional<double> parse_ppm(std::string_view text);

}  // namespace tracesync::cli
