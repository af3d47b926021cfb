// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <span>
#include <vector>

#include "hull/link_message.h"
#include "model/quad.h"

namespace tracesync::hull {

// One round trip between the two hosts of a link, in Clément & Dagenais'
// terms (their Figure 1): a message out at T1, received at T2; the reply
// sent at T3, received back at T4.
struct RoundTrip {
  model::Quad time = 0;          // when the offset was measured, on a's clock
  model::Quad offset = 0;        // b - a: ((T2 - T1) + (T3 - T4)) / 2, eq. 3
  model::Quad error_margin = 0;  // half the network round trip: ((T4 - T1) - (T3 - T2)) / 2
};

// Pairs a link's messages into round trips. On b's clock, each receive of
// an a -> b message followed by b's next send to a forms a round trip
// started by a; likewise on a's clock for round trips started by b. A
// message may close one round trip of each kind. Pairs that violate
// causality on either clock (a reply before the request) are skipped.
// The measurement time is the midpoint of the round trip on a's clock,
// where the symmetric-delay offset estimate is unbiased by drift.
std::vector<RoundTrip> find_round_trips(std::span<const LinkMessage> messages);

}  // namespace tracesync::hull
