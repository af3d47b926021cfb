// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <vector>

#include "hull/local_band_map.h"
#include "session/contradiction_problems.h"
#include "snapshot/tracesync.pb.h"

namespace tracesync::session {

// The problems of an APPROXIMATE link whose messages contradict the clock-stability
// assumption somewhere (docs/local-band.md, "Breaches"; issue 33): one per
// breach, naming the link, the span on its a end's clock and the stability
// the messages need there (the bound there rests on that), or that none up
// to twice the rate limit fits them. At most kShownBreaches, then one saying
// how many more. Such a link is APPROXIMATE: usable, not ACCURATE.
std::vector<v1::Problem> breach_problems(const LinkEnd& a, const LinkEnd& b, double stability_ppm,
                                         const std::vector<hull::Breach>& breaches);

inline constexpr std::size_t kShownBreaches = 5;

}  // namespace tracesync::session
