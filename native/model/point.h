// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <compare>
#include <cstdint>

namespace tracesync::model {

// Nanoseconds since the Unix epoch, the CTF clock offset applied.
using Nanoseconds = int64_t;

// One message seen by a link (a, b): x is a time on a's clock, y on b's.
struct Point {
  Nanoseconds x = 0;
  Nanoseconds y = 0;

  friend bool operator==(const Point&, const Point&) = default;
  friend auto operator<=>(const Point&, const Point&) = default;
};

}  // namespace tracesync::model
