// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/point.h"

namespace tracesync::hull {

// The assumption a link's bounds rest on (docs/clock-model.md).
//
// Band: over one segment of a link (and over the gap between two segments)
// the rate of b's clock against a's stays within a band `ppm` wide. Then the
// truth lies within ppm * L / 4 of some line over a stretch of length L
// (the rate's deviation from the band's middle integrates to at most
// ppm/2 * L/2 either way around the best offset).
//
// Rate limit: the rate of b's clock against a's never differs from 1 by more
// than kMaxRateErrorPpm (crystals ~100 ppm, plus the kernel's 500 ppm slew
// limit on each side). It caps the band's cones (local_envelope.h, where a
// wide band would let the truth run faster) and the bridges between
// segments.
struct ClockStability {
  static constexpr double kDefaultPpm = 100;
  static constexpr double kMaxRateErrorPpm = 1000;

  double ppm = 0;

  // How far the truth may lie from the best line over a stretch of `length`
  // ns, rounded up to whole ns; 0 when ppm is 0.
  model::Nanoseconds slack(model::Nanoseconds length) const {
    if (ppm <= 0 || length <= 0) return 0;
    const long double ns = std::ceil(static_cast<long double>(ppm) * static_cast<long double>(length) / 4'000'000);
    constexpr auto kMax = static_cast<long double>(std::numeric_limits<model::Nanoseconds>::max() / 4);
    return static_cast<model::Nanoseconds>(std::min(ns, kMax));
  }
};

}  // namespace tracesync::hull
