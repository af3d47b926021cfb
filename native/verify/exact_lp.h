// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <span>

#include "model/int256.h"

namespace tracesync::verify {

// A linear program in two unknowns, solved exactly: the greatest V, and
// then the greatest M, over the points (M, V) meeting every half-plane
// a M + b V <= c (b = +1 or -1) and the box |M| <= kSlopeBox, V <= kValueBox.
// verify's own code (docs/verify.md, "The knot bounds"), not the engine's:
// Seidel's randomized incremental algorithm, which adds the half-planes in a
// shuffled (fixed-seed) order and, when the optimum so far violates the one
// added, finds the new optimum on that half-plane's line by a
// one-dimensional program over the half-planes before it. The optimum is
// unique (greatest V, then greatest M), so the result does not depend on the
// order.
//
// Integer widths, all in 128 bits: |a| < 2^41 and |c| < 2^73 (callers
// drop what is wider), so a vertex's M = p / q has |p| < 2^82, 0 < q < 2^42,
// its V = r / q has |r| < 2^124, and the tests a p + b r <= c q stay below
// 2^126 in magnitude.
struct HalfPlane {
  model::Int128 a = 0;
  int b = 1;
  model::Int128 c = 0;
};

struct LpOptimum {
  enum class Kind { kOptimal, kInfeasible };
  Kind kind = Kind::kInfeasible;
  // M = m / den and V = v / den, den > 0 (not reduced).
  model::Int128 m = 0;
  model::Int128 v = 0;
  model::Int128 den = 1;
};

inline constexpr model::Int128 kSlopeBox = model::Int128{1} << 62;
inline constexpr model::Int128 kValueBox = model::Int128{1} << 80;
inline constexpr model::Int128 kCoefficientLimit = model::Int128{1} << 41;
inline constexpr model::Int128 kRightSideLimit = model::Int128{1} << 73;

// The lexicographic optimum described above. `constraints` is taken by
// value: it is shuffled.
LpOptimum highest_point(std::span<const HalfPlane> constraints);

}  // namespace tracesync::verify
