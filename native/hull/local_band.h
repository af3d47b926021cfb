// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "model/int256.h"
#include "model/point.h"
#include "model/quad.h"

namespace tracesync::hull {

// The local band at one instant (docs/local-band.md): where b's clock can be
// at a's time t, given the messages near t and the stability assumption.
//
// If the rate of f (a's time onto b's) stays within a band P wide over the
// horizon S around t, the line g through (t, f(t)) with the band's middle
// slope stays within s(x) = P |x - t| / 2 of f there; beyond S the rate
// limit R lets f leave g by at most 2R - P/2 per ns more (f' within R of 1,
// g's slope within R - P/2 of it), so s(x) = P S / 2 + (2R - P/2)(|x - t| - S). So g passes on or below every lower point
// raised by s and on or above every upper point lowered by s, and since
// g(t) = f(t) exactly, f(t) lies in [lo, hi]: the least and the greatest
// value at t of a line meeting those relaxed constraints. Two linear
// programs in (g(t), slope), solved exactly in integers:
//
// - coordinates relative to t and to the first lower point's offset,
//   z = y - x (small: delays and drift), scaled by kScale so that the
//   relaxation P |d| / 2 (P in thousandths of a ppm) is an integer;
// - only the lower hull of the raised lower points and the upper hull of
//   the lowered upper points can bind;
// - each optimum is a line through one hull vertex (the pivot): for each
//   pivot the slopes it allows form an interval, found exactly, and g(t) is
//   linear in the slope, so each end is a candidate. lo and hi are the
//   least and greatest over every pivot: exact fractions.
//
// Preconditions, for the integer widths (checked; points outside are
// dropped, which only widens the band): |x - t| < 2^40 ns and the points'
// z within 2^40 ns of the first lower point's.
struct LocalBand {
  enum class Kind {
    kBounded,    // lo <= hi, both finite
    kUnbounded,  // the constraints leave lo or hi free (a direction absent on a side)
    kEmpty,      // no line meets them: the data contradict the assumption
  };
  // b's time at t is origin + num / (den * kScale) for each end; den > 0.
  struct Value {
    model::Int128 num = 0;
    model::Int128 den = 1;
  };
  static constexpr model::Int128 kScale = 2'000'000'000;  // P in 1e-3 ppm: s * kScale = P |d|

  Kind kind = Kind::kEmpty;
  model::Nanoseconds origin = 0;
  Value lo;
  Value hi;

  // Both ends in quad precision (each rounded once from its fraction, the
  // origin added: within a few 1e-16 ns for b's times of 2^61 ns).
  model::Quad low() const;
  model::Quad high() const;
  // (hi - lo) / 2, from the exact difference.
  model::Quad half_width() const;
};

// The band at t from the lower (a -> b) and upper (b -> a) points, each
// sorted by (x, y), under a stability of `milli_ppm` thousandths of a ppm.
// `horizon` is S (none by default: the band's assumption then reaches every point).
constexpr model::Nanoseconds kNoHorizon = model::Nanoseconds{1} << 40;
LocalBand local_band(std::span<const model::Point> lower, std::span<const model::Point> upper, model::Nanoseconds t,
                     int64_t milli_ppm, model::Nanoseconds horizon = kNoHorizon);

// Where the band at t is empty under `milli_ppm`: the least stability, in
// thousandths of a ppm, in (milli_ppm, cap] at which it is not, or nullopt
// when even `cap` leaves it empty. Found by bisection over the integers,
// exact on that grid because a wider band only relaxes the constraints
// (the feasible lines under P are feasible under every P' > P; beyond the
// horizon the relaxation P S / 2 + (2R - P/2)(|d| - S) grows with P too).
std::optional<int64_t> needed_stability(std::span<const model::Point> lower, std::span<const model::Point> upper,
                                        model::Nanoseconds t, int64_t milli_ppm, int64_t cap,
                                        model::Nanoseconds horizon = kNoHorizon);

// Where inside the band at t the estimate goes (docs/local-band.md, "The
// estimate at t"). Any value in [low, high] may be the estimate, its bound
// then its distance to the farther end. The band's centre errs where the
// fast messages that pin it lie far from t on one side only (inside a load
// episode): each counts less by the relaxation P |d| / 2 it takes, which
// the assumption needs for its worst clocks, not for typical ones. So the
// estimate is the centre of the band under the tighter stability
// `estimate_milli_ppm`, where the far messages count almost fully; where
// the messages leave that band empty (the clocks bent more), under the
// least of estimate_milli_ppm * 2, * 4, ... that they leave non-empty,
// below `band_milli_ppm` (the band's own). Kept within `most_shift` times
// the half-width of the band's centre, so that the bound, the distance to
// the farther end, is at most 1 + most_shift times the half-width (where
// the band is lopsided, at the ends of the traffic, the tighter centre may
// lie far from it); the band's centre where no tighter band is bounded.
// `band` is bounded and was made from the same points at t under
// `band_milli_ppm`.
struct BandEstimate {
  model::Quad value;  // b's time at t
  model::Quad reach;  // the larger of value - low and high - value: the bound at t
};
BandEstimate estimate_in(const LocalBand& band, std::span<const model::Point> lower, std::span<const model::Point> upper,
                         model::Nanoseconds t, int64_t band_milli_ppm, int64_t estimate_milli_ppm,
                         double most_shift, model::Nanoseconds horizon = kNoHorizon);

// The band at one instant under any stability: the points' hulls, which do
// not depend on it, are found once by set(); local_band, needed_stability
// and estimate_in are each one set() and one call. Reusable: set() again
// for another instant keeps the memory.
class BandProgram {
 public:
  BandProgram();
  ~BandProgram();
  BandProgram(const BandProgram&) = delete;
  BandProgram& operator=(const BandProgram&) = delete;

  void set(std::span<const model::Point> lower, std::span<const model::Point> upper, model::Nanoseconds t,
           model::Nanoseconds horizon = kNoHorizon);
  LocalBand under(int64_t milli_ppm) const;
  std::optional<int64_t> needed(int64_t milli_ppm, int64_t cap) const;
  BandEstimate estimate(const LocalBand& band, int64_t band_milli_ppm, int64_t estimate_milli_ppm,
                        double most_shift) const;

 private:
  struct Hulls;
  std::unique_ptr<Hulls> hulls_;
  model::Nanoseconds t_ = 0;
  model::Nanoseconds horizon_ = kNoHorizon;
  model::Nanoseconds zref_ = 0;
  bool both_ = false;
};

}  // namespace tracesync::hull
