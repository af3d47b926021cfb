// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>

#include "model/point.h"

namespace tracesync::hull {

// Which way a message of link (a, b) went. `a` is the domain whose id sorts
// first (DESIGN.md, "Link").
enum class Direction : uint8_t { kAtoB, kBtoA };

// A matched message of a link, as a point of the (a-time, b-time) plane.
// a -> b is a *lower* point: x = send time on a, y = receive time on b.
// b -> a is an *upper* point: x = receive time on a, y = send time on b.
// A feasible clock line passes on or below lower points and on or above
// upper points.
struct LinkMessage {
  Direction direction = Direction::kAtoB;
  model::Point point;

  static LinkMessage a_to_b(model::Nanoseconds send_on_a, model::Nanoseconds receive_on_b) {
    return {Direction::kAtoB, {send_on_a, receive_on_b}};
  }
  static LinkMessage b_to_a(model::Nanoseconds send_on_b, model::Nanoseconds receive_on_a) {
    return {Direction::kBtoA, {receive_on_a, send_on_b}};
  }
  bool is_lower() const { return direction == Direction::kAtoB; }
};

}  // namespace tracesync::hull
