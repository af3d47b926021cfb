// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>

#include "hull/link_estimate.h"
#include "hull/link_segment.h"
#include "network/piecewise_transform.h"

namespace tracesync::session {

// Whether link_b_onto_a follows the clock map's knots (the report then
// lists them, LinkDetail.clock_map) rather than the estimate's line.
bool uses_clock_map(const hull::LinkEstimate& estimate, const std::optional<hull::ClockMap>& map);

// A usable link's clock map turned around: b's time onto a's, piece by
// piece, with the map's bounds. The path composition reads it this way
// (or inverted, when the path crosses the link from a to b).
//
// A map of one line that is the estimate's line gives the estimate's own
// transform, exactly: 1 / alpha and -beta / alpha of alpha and beta as
// printed (Trace Compass's BigDecimal transform), rounded only when reported. Without a clock map (an estimator
// that gives no bound), the estimate's line with bound 0 over `span`.
network::PiecewiseTransform link_b_onto_a(const hull::LinkEstimate& estimate,
                                          const std::optional<hull::ClockMap>& map, const hull::TimeSpan& span);

// The weight of a path through the link: its worst bound over the span
// (docs/network.md).
model::Quad link_weight(const network::PiecewiseTransform& b_onto_a);

}  // namespace tracesync::session
