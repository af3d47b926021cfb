// SPDX-License-Identifier: EPL-2.0
#pragma once

#include "model/linear_transform.h"
#include "model/rational.h"

namespace tracesync::model {

// t_ref = slope * t + offset, exactly. Links' lines are composed in it
// along a trace's path, so that the trace's transform is the exact
// composition, rounded once (to quad by rounded(), to the report's digits
// by to_decimal) rather than once per step.
struct ExactTransform {
  Rational slope = 1;
  Rational offset = 0;

  static ExactTransform identity() { return {}; }
  // A quad transform's exact value.
  static ExactTransform of(const LinearTransform& t) { return {exact(t.slope), exact(t.offset)}; }

  Rational apply(const Rational& t) const { return slope * t + offset; }

  // Slope > 0 (a clock map).
  ExactTransform inverse() const { return {1 / slope, -offset / slope}; }

  // outer.after(inner): first inner, then outer.
  ExactTransform after(const ExactTransform& inner) const {
    return {slope * inner.slope, slope * inner.offset + offset};
  }

  // Slope and offset each rounded once to quad.
  LinearTransform rounded() const { return {to_quad(slope), to_quad(offset)}; }

  friend bool operator==(const ExactTransform&, const ExactTransform&) = default;
};

// The line y = alpha * x + beta of a link (a, b) turned into b onto a,
// exactly: x = (y - beta) / alpha.
inline ExactTransform exact_b_onto_a(const Rational& alpha, const Rational& beta) {
  return {1 / alpha, -beta / alpha};
}

// The line through (x0, y0) and (x1, y1), x0 != x1.
inline ExactTransform exact_chord(const Rational& x0, const Rational& y0, const Rational& x1, const Rational& y1) {
  const Rational slope = (y1 - y0) / (x1 - x0);
  return {slope, y0 - slope * x0};
}

}  // namespace tracesync::model
