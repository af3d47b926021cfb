// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string_view>

namespace tracesync::hull {

// How much a link's messages tell about its two clocks (DESIGN.md, "Qualities").
enum class Quality {
  kAbsent,       // no message either way
  kIncomplete,   // alpha_min or alpha_max does not exist yet
  kAccurate,     // the feasible region is non-empty and bounded
  kApproximate,  // the region became empty; the last accurate estimate is kept
  kFail,         // the region is empty and there never was an accurate estimate
};

std::string_view to_string(Quality quality);
std::optional<Quality> parse_quality(std::string_view name);

// A link whose estimate may be used to relate its two clocks.
inline bool usable(Quality quality) {
  return quality == Quality::kAccurate || quality == Quality::kApproximate;
}

}  // namespace tracesync::hull
