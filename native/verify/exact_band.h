// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <span>

#include "model/int256.h"
#include "model/quad.h"
#include "model/rational.h"
#include "verify/message_lines.h"

namespace tracesync::verify {

// The local band at an instant t (docs/local-band.md, "The local band at an
// instant t"), re-derived by verify's own code: where b's clock can be at
// a's time t given the a -> b points `lower` and the b -> a points `upper`
// (x on a's clock, y on b's) and a stability of `milli_ppm` thousandths of
// a ppm within `horizon` ns of t, the rate limit (1,000 ppm) beyond.
//
// A line g through (t, g(t)) stays within s(d) of the truth at d = x - t:
// kScale s = P |d| within the horizon, P S + (4R - P)(|d| - S) beyond
// (kScale = 2e9, P and R in thousandths of a ppm). So g passes on or below
// every lower point raised by s and on or above every upper point lowered
// by s; lo and hi are the least and the greatest g(t) over those lines: two
// linear programs in (slope, g(t)), solved exactly (exact_lp.h), with the
// coordinates scaled to integers as z = kScale (y - x - zref) +- kScale s,
// zref the first lower point's y - x. Points with |d| or |y - x - zref| of
// 2^40 ns or more are left out (as the engine does: fewer constraints only
// widen the band).
struct ExactBand {
  enum class Kind { kBounded, kUnbounded, kEmpty };
  Kind kind = Kind::kEmpty;
  // b's time at t, when bounded: origin + num / (den kScale) at each end,
  // den > 0 (fractions as the linear programs give them, not reduced).
  int64_t origin = 0;
  model::Int128 lo_num = 0, lo_den = 1, hi_num = 0, hi_den = 1;

  model::Rational lo() const;
  model::Rational hi() const;
  // The same, relative to the origin, each rounded once to quad (a few
  // 1e-25 ns off for the widths of a band).
  model::Quad lo_from_origin() const;
  model::Quad hi_from_origin() const;
};

inline constexpr int64_t kBandScale = 2'000'000'000;
inline constexpr int64_t kRateLimitMilliPpm = 1'000'000;  // hull::ClockStability::kMaxRateErrorPpm, a constant

// Only the constraints of hull vertices go into the programs (the same
// optima, faster); `every_constraint` puts every one in (for the tests).
ExactBand exact_band(std::span<const MessagePoint> lower, std::span<const MessagePoint> upper, int64_t t,
                     int64_t milli_ppm, int64_t horizon, bool every_constraint = false);

}  // namespace tracesync::verify
