// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>

#include "hull/link_estimate.h"
#include "hull/link_segment.h"
#include "network/piecewise_transform.h"

namespace tracesync::session {

// A usable link's clock map turned around: b's time onto a's, piece by
// piece, with the map's bounds. The path composition reads it this way
// (or inverted, when the path crosses the link from a to b).
//
// A map of one line that is the estimate's line gives the estimate's own
// transform (model::b_onto_a), bit for bit, so that the single-line model
// reports exactly what it always did. Without a clock map (an estimator
// that gives no bound), the estimate's line with bound 0 over `span`.
network::PiecewiseTransform link_b_onto_a(const hull::LinkEstimate& estimate,
                                          const std::optional<hull::ClockMap>& map, const hull::TimeSpan& span);

// The weight of a path through the link: its worst bound over the span
// (docs/network.md).
model::Quad link_weight(const network::PiecewiseTransform& b_onto_a);

}  // namespace tracesync::session
