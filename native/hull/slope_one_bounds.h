// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <algorithm>
#include <optional>

#include "hull/link_message.h"
#include "model/int256.h"
#include "model/quad.h"

namespace tracesync::hull {

// The tightest offsets of a slope-1 line y = x + beta that the messages
// allow: beta <= min(y - x) over lower points, beta >= max(y - x) over upper
// points. The estimate of links that cannot bound a slope (DESIGN.md,
// INCOMPLETE) is midway between them, or at the one that exists.
class SlopeOneBounds {
 public:
  void add(const LinkMessage& m) {
    const model::Int128 offset = model::Int128{m.point.y} - m.point.x;
    if (m.is_lower()) {
      below_ = below_ ? std::min(*below_, offset) : offset;
    } else {
      above_ = above_ ? std::max(*above_, offset) : offset;
    }
  }

  // As if other's messages had been added here.
  void merge(const SlopeOneBounds& other) {
    if (other.below_) below_ = below_ ? std::min(*below_, *other.below_) : *other.below_;
    if (other.above_) above_ = above_ ? std::max(*above_, *other.above_) : *other.above_;
  }

  // beta of the slope-1 estimate; 0 before any message.
  model::Quad offset() const {
    if (below_ && above_) return (static_cast<model::Quad>(*below_) + static_cast<model::Quad>(*above_)) / 2;
    if (below_) return static_cast<model::Quad>(*below_);
    if (above_) return static_cast<model::Quad>(*above_);
    return 0;
  }

 private:
  std::optional<model::Int128> below_;  // upper bound of beta, from lower points
  std::optional<model::Int128> above_;  // lower bound of beta, from upper points
};

}  // namespace tracesync::hull
