// SPDX-License-Identifier: EPL-2.0
#include "hull/local_band.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

namespace tracesync::hull {
namespace {

using model::Int128;
using model::Int256;
using model::Nanoseconds;
using model::Point;
using model::Quad;

constexpr Int128 kLimit = Int128{1} << 40;

// A relaxed constraint point: d = x - t (< 2^40), Z = kScale * (z - zref)
// +- P |d| (< 2^72 with P below 2^21 thousandths of a ppm).
struct Scaled {
  Int128 d;
  Int128 z;
};

// (b - a) x (c - a): products of a 41-bit and a 73-bit difference, 115 bits.
Int128 cross(const Scaled& a, const Scaled& b, const Scaled& c) {
  return (b.d - a.d) * (c.z - a.z) - (b.z - a.z) * (c.d - a.d);
}

// R in thousandths of a ppm.
constexpr Int128 kRateLimit = 1'000'000;

// kScale * s(d): P |d| within the horizon, P S + (4R - P)(|d| - S) beyond.
Int128 scaled_slack(Int128 d, int64_t milli_ppm, Nanoseconds horizon) {
  const Int128 distance = d < 0 ? -d : d;
  if (distance <= horizon) return Int128{milli_ppm} * distance;
  return Int128{milli_ppm} * horizon + (4 * kRateLimit - milli_ppm) * (distance - horizon);
}

// A point relative to t and zref, unscaled: d = x - t, z = y - x - zref
// (both within 2^40 in magnitude).
struct Raw {
  int64_t d;
  int64_t z;
};

// Which stretch of d a point is in: the relaxation is affine on each of
// d < -S, -S <= d < 0, 0 <= d <= S and d > S (continuous at their ends).
int stretch_of(int64_t d, Nanoseconds horizon) {
  if (d < 0) return d < -horizon ? 0 : 1;
  return d <= horizon ? 2 : 3;
}

// (b - a) x (c - a) of unscaled points: 41-bit differences, 83-bit products.
Int128 raw_cross(const Raw& a, const Raw& b, const Raw& c) {
  return Int128{b.d - a.d} * (c.z - a.z) - Int128{b.z - a.z} * (c.d - a.d);
}

// The raised lower points (keep_lower) or the lowered upper points, in
// order of d, reduced to their lower (resp. upper) hull's vertices (no
// collinear point kept).
//
// Done in two passes, for speed. On each stretch of d where the relaxation
// is affine (stretch_of), it maps points by (d, z) -> (d, kScale z + a d + b)
// with kScale > 0, which multiplies every orientation by kScale and keeps
// the order of z at one d: so the relaxed points' hull vertices on that
// stretch are the relaxed images of the unscaled points' hull vertices,
// found first in 64-bit coordinates. A vertex of the whole hull is a vertex
// of its stretch's hull, so the second pass, over those images only, gives
// exactly the hull that one pass over every relaxed point gives.
//
// The first pass does not depend on the stability, so a band asked under
// several (the estimate, a breach's bisection) makes it once: stretch_hulls
// gives its vertices, relaxed_hull the second pass under one stability.
void stretch_hulls(std::span<const Point> points, Nanoseconds t, Nanoseconds zref, Nanoseconds horizon, bool lower,
                   std::vector<Raw>& raw) {
  raw.clear();
  std::size_t stretch_start = 0;  // where the current stretch's hull begins in raw
  int stretch = -1;
  for (const Point& p : points) {
    const Int128 d128 = Int128{p.x} - t;
    const Int128 z128 = (Int128{p.y} - p.x) - zref;
    if (d128 <= -kLimit || d128 >= kLimit || z128 <= -kLimit || z128 >= kLimit) continue;  // dropped: only widens
    const Raw r{static_cast<int64_t>(d128), static_cast<int64_t>(z128)};
    const int here = stretch_of(r.d, horizon);
    if (here != stretch) {
      stretch = here;
      stretch_start = raw.size();
    }
    if (raw.size() > stretch_start && raw.back().d == r.d) {
      if (lower ? r.z >= raw.back().z : r.z <= raw.back().z) continue;
      raw.pop_back();
    }
    while (raw.size() >= stretch_start + 2) {
      const Int128 turn = raw_cross(raw[raw.size() - 2], raw.back(), r);
      if (lower ? turn > 0 : turn < 0) break;
      raw.pop_back();
    }
    raw.push_back(r);
  }
}

std::vector<Scaled> relaxed_hull(const std::vector<Raw>& raw, int64_t milli_ppm, Nanoseconds horizon, bool lower) {
  std::vector<Scaled> hull;
  for (const Raw& r : raw) {
    const Int128 slack = scaled_slack(r.d, milli_ppm, horizon);
    const Scaled s{r.d, LocalBand::kScale * r.z + (lower ? slack : -slack)};
    if (!hull.empty() && hull.back().d == s.d) {
      // One abscissa: only the lowest raised lower point (highest lowered
      // upper point) binds.
      if (lower ? s.z >= hull.back().z : s.z <= hull.back().z) continue;
      hull.pop_back();
    }
    while (hull.size() >= 2) {
      const Int128 turn = cross(hull[hull.size() - 2], hull.back(), s);
      if (lower ? turn > 0 : turn < 0) break;
      hull.pop_back();
    }
    hull.push_back(s);
  }
  return hull;
}

// A slope rise / run with run > 0, or an infinite end.
struct Slope {
  Int128 rise = 0;
  Int128 run = 1;
  bool infinite = true;
};

// a < b for finite slopes: 73-bit rises times 41-bit runs.
bool less(const Slope& a, const Slope& b) { return a.rise * b.run < b.rise * a.run; }

// The value at d = 0 of the line through p with slope s: (Z_p run - rise d_p) / run.
LocalBand::Value at_zero(const Scaled& p, const Slope& s) { return {p.z * s.run - s.rise * p.d, s.run}; }

// Values are (< 2^115) / (< 2^41): compared through 256-bit products,
// unless their products in double precision (each within 2^-51 of the
// exact one, relatively) already differ by far more than that.
bool less(const LocalBand::Value& a, const LocalBand::Value& b) {
  const double left = static_cast<double>(a.num) * static_cast<double>(b.den);
  const double right = static_cast<double>(b.num) * static_cast<double>(a.den);
  const double margin = 1e-12 * std::max(std::fabs(left), std::fabs(right));
  if (left < right - margin) return true;
  if (left > right + margin) return false;
  return Int256::product(a.num, b.den) < Int256::product(b.num, a.den);
}

struct Extremes {
  bool feasible = false;
  bool lo_free = false;
  bool hi_free = false;
  std::optional<LocalBand::Value> lo;
  std::optional<LocalBand::Value> hi;
};

// Every line through a hull vertex that meets all the constraints: for each
// pivot, the interval of slopes it allows, and the values at 0 at its ends.
//
// Among the pivot's own hull, only its neighbours bind: the hull is strictly
// convex (concave for the upper one), so the slopes to the vertices after
// it rise (fall) strictly and those before it likewise, and the nearest
// vertex on each side gives the tightest of them. The other hull is read
// whole, after the pivot's own, as if the pivot's own were read whole:
// among equal slopes the first one read is kept, so the fractions are the
// same.
Extremes solve(const std::vector<Scaled>& lower, const std::vector<Scaled>& upper) {
  Extremes out;
  auto consider = [&](const Scaled& p, std::size_t index, bool on_lower) {
    Slope least;     // -infinity
    Slope greatest;  // +infinity
    auto at_most = [&](Int128 rise, Int128 run) {
      const Slope s{rise, run, false};
      if (greatest.infinite || less(s, greatest)) greatest = s;
    };
    auto at_least = [&](Int128 rise, Int128 run) {
      const Slope s{rise, run, false};
      if (least.infinite || less(least, s)) least = s;
    };
    // A lower point q: the line at q.d is at most q.z.
    auto below = [&](const Scaled& q) {
      const Int128 dd = q.d - p.d;
      const Int128 dz = q.z - p.z;
      if (dd > 0) at_most(dz, dd);
      else if (dd < 0) at_least(-dz, -dd);
      return dd != 0 || dz >= 0;  // false: no line through p fits
    };
    // An upper point q: the line at q.d is at least q.z.
    auto above = [&](const Scaled& q) {
      const Int128 dd = q.d - p.d;
      const Int128 dz = q.z - p.z;
      if (dd > 0) at_least(dz, dd);
      else if (dd < 0) at_most(-dz, -dd);
      return dd != 0 || dz <= 0;
    };
    const std::vector<Scaled>& own = on_lower ? lower : upper;
    if (on_lower) {
      if (index > 0) below(own[index - 1]);
      if (index + 1 < own.size()) below(own[index + 1]);
      for (const Scaled& q : upper) {
        if (!above(q)) return;
      }
    } else {
      for (const Scaled& q : lower) {
        if (!below(q)) return;
      }
      if (index > 0) above(own[index - 1]);
      if (index + 1 < own.size()) above(own[index + 1]);
    }
    if (!least.infinite && !greatest.infinite && less(greatest, least)) return;
    out.feasible = true;
    auto offer = [&](const Slope& s, bool high) {
      if (s.infinite) {
        (high ? out.hi_free : out.lo_free) = true;
        return;
      }
      const LocalBand::Value v = at_zero(p, s);
      auto& best = high ? out.hi : out.lo;
      if (!best || (high ? less(*best, v) : less(v, *best))) best = v;
    };
    if (p.d == 0) {
      offer({0, 1, false}, true);
      offer({0, 1, false}, false);
    } else if (p.d > 0) {  // the value at 0 falls as the slope grows
      offer(least, true);
      offer(greatest, false);
    } else {
      offer(greatest, true);
      offer(least, false);
    }
  };
  for (std::size_t i = 0; i < lower.size(); ++i) consider(lower[i], i, true);
  for (std::size_t i = 0; i < upper.size(); ++i) consider(upper[i], i, false);
  return out;
}

Nanoseconds reference_offset(std::span<const Point> lower, std::span<const Point> upper) {
  const Point& p = lower.empty() ? upper.front() : lower.front();
  return p.y - p.x;
}

LocalBand band(const std::vector<Raw>& lower, const std::vector<Raw>& upper, Nanoseconds t, int64_t milli_ppm,
               Nanoseconds horizon, Nanoseconds zref) {
  LocalBand out;
  out.origin = t + zref;
  const std::vector<Scaled> below = relaxed_hull(lower, milli_ppm, horizon, true);
  const std::vector<Scaled> above = relaxed_hull(upper, milli_ppm, horizon, false);
  if (below.empty() || above.empty()) {  // one side has no constraint left
    out.kind = LocalBand::Kind::kUnbounded;
    return out;
  }
  const Extremes e = solve(below, above);
  if (!e.feasible) {
    out.kind = LocalBand::Kind::kEmpty;
    return out;
  }
  if (e.lo_free || e.hi_free || !e.lo || !e.hi) {
    out.kind = LocalBand::Kind::kUnbounded;
    return out;
  }
  out.kind = LocalBand::Kind::kBounded;
  out.lo = *e.lo;
  out.hi = *e.hi;
  return out;
}

Quad quad_of(const LocalBand::Value& v) {
  return static_cast<Quad>(v.num) / (static_cast<Quad>(v.den) * static_cast<Quad>(LocalBand::kScale));
}

}  // namespace

Quad LocalBand::low() const { return static_cast<Quad>(origin) + quad_of(lo); }
Quad LocalBand::high() const { return static_cast<Quad>(origin) + quad_of(hi); }

Quad LocalBand::half_width() const {
  // hi - lo = (hi.num lo.den - lo.num hi.den) / (hi.den lo.den): 157 bits
  // over 82, so in quad: each product converted, then subtracted.
  const Int256 num = Int256::product(hi.num, lo.den) - Int256::product(lo.num, hi.den);
  return num.to_quad() / (static_cast<Quad>(hi.den) * static_cast<Quad>(lo.den) * static_cast<Quad>(kScale) * 2);
}

struct BandProgram::Hulls {
  std::vector<Raw> lower;
  std::vector<Raw> upper;
};

BandProgram::BandProgram() : hulls_(std::make_unique<Hulls>()) {}
BandProgram::~BandProgram() = default;

void BandProgram::set(std::span<const Point> lower, std::span<const Point> upper, Nanoseconds t, Nanoseconds horizon) {
  t_ = t;
  horizon_ = horizon;
  both_ = !lower.empty() && !upper.empty();
  if (!both_) return;
  zref_ = reference_offset(lower, upper);
  stretch_hulls(lower, t, zref_, horizon, true, hulls_->lower);
  stretch_hulls(upper, t, zref_, horizon, false, hulls_->upper);
}

LocalBand BandProgram::under(int64_t milli_ppm) const {
  if (!both_) {
    LocalBand out;
    out.kind = LocalBand::Kind::kUnbounded;
    out.origin = t_;
    return out;
  }
  return band(hulls_->lower, hulls_->upper, t_, milli_ppm, horizon_, zref_);
}

std::optional<int64_t> BandProgram::needed(int64_t milli_ppm, int64_t cap) const {
  if (!both_) return std::nullopt;
  auto feasible = [&](int64_t p) { return under(p).kind != LocalBand::Kind::kEmpty; };
  if (!feasible(cap)) return std::nullopt;
  // Invariant: empty at `empty_at`, not at `ok_at`.
  int64_t empty_at = milli_ppm;
  int64_t ok_at = cap;
  while (ok_at - empty_at > 1) {
    const int64_t mid = empty_at + (ok_at - empty_at) / 2;
    (feasible(mid) ? ok_at : empty_at) = mid;
  }
  return ok_at;
}

BandEstimate BandProgram::estimate(const LocalBand& band, int64_t band_milli_ppm, int64_t estimate_milli_ppm,
                                   double most_shift) const {
  const Quad low = band.low();
  const Quad high = band.high();
  const Quad centre = (low + high) / 2;
  const Quad shift = static_cast<Quad>(most_shift) * band.half_width();
  Quad value = centre;
  for (int64_t p = estimate_milli_ppm; both_ && p > 0 && p < band_milli_ppm; p *= 2) {
    const LocalBand tighter = under(p);
    if (tighter.kind == LocalBand::Kind::kEmpty) continue;
    if (tighter.kind == LocalBand::Kind::kBounded) {
      value = std::clamp((tighter.low() + tighter.high()) / 2, centre - shift, centre + shift);
      value = std::clamp(value, low, high);
    }
    break;
  }
  return {value, std::max(value - low, high - value)};
}

LocalBand local_band(std::span<const Point> lower, std::span<const Point> upper, Nanoseconds t, int64_t milli_ppm,
                     Nanoseconds horizon) {
  BandProgram program;
  program.set(lower, upper, t, horizon);
  return program.under(milli_ppm);
}

std::optional<int64_t> needed_stability(std::span<const Point> lower, std::span<const Point> upper, Nanoseconds t,
                                        int64_t milli_ppm, int64_t cap, Nanoseconds horizon) {
  BandProgram program;
  program.set(lower, upper, t, horizon);
  return program.needed(milli_ppm, cap);
}

BandEstimate estimate_in(const LocalBand& band, std::span<const Point> lower, std::span<const Point> upper,
                         Nanoseconds t, int64_t band_milli_ppm, int64_t estimate_milli_ppm, double most_shift,
                         Nanoseconds horizon) {
  BandProgram program;
  program.set(lower, upper, t, horizon);
  return program.estimate(band, band_milli_ppm, estimate_milli_ppm, most_shift);
}

}  // namespace tracesync::hull
