// SPDX-License-Identifier: EPL-2.0
#pragma once

#include "model/point.h"
#include "model/quad.h"

namespace tracesync::model {

// t_ref = slope * t + offset, in quad precision. The offset is absolute: it
// includes (1 - slope) * t, so a transform maps epoch timestamps directly.
struct LinearTransform {
  Quad slope = 1;
  Quad offset = 0;

  static LinearTransform identity() { return {}; }

  Quad apply(Nanoseconds t) const { return slope * static_cast<Quad>(t) + offset; }
  Nanoseconds apply_rounded(Nanoseconds t) const { return round_to_int64(apply(t)); }

  // The transform that undoes this one: t = (t_ref - offset) / slope.
  LinearTransform inverse() const { return {1 / slope, -offset / slope}; }

  // outer.after(inner): first inner, then outer.
  LinearTransform after(const LinearTransform& inner) const {
    return {slope * inner.slope, slope * inner.offset + offset};
  }
};

// For a link (a, b) whose estimate is y = alpha * x + beta (x on a's clock,
// y on b's), the transform that maps b's time onto a's.
inline LinearTransform b_onto_a(Quad alpha, Quad beta) { return {1 / alpha, -beta / alpha}; }

}  // namespace tracesync::model
