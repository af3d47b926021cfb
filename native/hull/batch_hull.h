// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "hull/exact_line.h"
#include "hull/link_message.h"

namespace tracesync::hull {

// The batch computation of a link over a whole set of messages: sort, build
// both half-hulls with Andrew's monotone chain, then find Lmin and Lmax with
// tangent queries from every vertex. The incremental estimator must always
// agree with it; it is also the baseline of the estimator's benchmark.
struct BatchHull {
  std::vector<model::Point> lower_hull;  // of the a -> b messages
  std::vector<model::Point> upper_hull;  // of the b -> a messages
  std::optional<ExactLine> lmin;         // meaningful only when !region_empty
  std::optional<ExactLine> lmax;
  bool region_empty = false;
};

BatchHull compute_batch_hull(std::span<const LinkMessage> messages);

}  // namespace tracesync::hull
