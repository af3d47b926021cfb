// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>

#include "hull/link_segment.h"

// A clock map's estimate and bound at an instant, interpolated between its
// knots, for tests that hold a map against the truth. A map says nothing
// outside its first and last knots: asking there is the test's mistake, and
// it throws (the test fails naming the instant) rather than read past the
// map, which once made a test's result depend on the tests run before it.
namespace tracesync::testing {

struct ClockMapPoint {
  model::Quad y;
  model::Quad bound;
};

inline ClockMapPoint clock_map_at(const hull::ClockMap& map, int64_t x) {
  if (map.empty() || x < map.front().x || x > map.back().x) {
    throw std::out_of_range("instant " + std::to_string(x) + " ns is outside the clock map" +
                            (map.empty() ? std::string(" (no knots)")
                                         : " [" + std::to_string(map.front().x) + ", " +
                                               std::to_string(map.back().x) + "]"));
  }
  const auto right =
      std::lower_bound(map.begin(), map.end(), x, [](const hull::Knot& k, int64_t v) { return k.x < v; });
  if (right->x == x) return {right->y, right->bound};
  const hull::Knot& a = *std::prev(right);
  const hull::Knot& b = *right;
  const model::Quad t = static_cast<model::Quad>(x - a.x) / static_cast<model::Quad>(b.x - a.x);
  return {a.y + (b.y - a.y) * t, a.bound + (b.bound - a.bound) * t};
}

}  // namespace tracesync::testing
