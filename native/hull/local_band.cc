// SPDX-License-Identifier: EPL-2.0
#include "hull/local_band.h"

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

// The raised lower points (keep_lower) or the lowered upper points, in
// order of d, reduced to their lower (resp. upper) hull.
// R in thousandths of a ppm.
constexpr Int128 kRateLimit = 1'000'000;

// kScale * s(d): P |d| within the horizon, P S + (4R - P)(|d| - S) beyond.
Int128 scaled_slack(Int128 d, int64_t milli_ppm, Nanoseconds horizon) {
  const Int128 distance = d < 0 ? -d : d;
  if (distance <= horizon) return Int128{milli_ppm} * distance;
  return Int128{milli_ppm} * horizon + (4 * kRateLimit - milli_ppm) * (distance - horizon);
}

std::vector<Scaled> relaxed_hull(std::span<const Point> points, Nanoseconds t, Nanoseconds zref, int64_t milli_ppm,
                                 Nanoseconds horizon, bool lower) {
  std::vector<Scaled> hull;
  for (const Point& p : points) {
    const Int128 d = Int128{p.x} - t;
    const Int128 z = (Int128{p.y} - p.x) - zref;
    if (d <= -kLimit || d >= kLimit || z <= -kLimit || z >= kLimit) continue;  // dropped: only widens
    const Int128 slack = scaled_slack(d, milli_ppm, horizon);
    const Scaled s{d, LocalBand::kScale * z + (lower ? slack : -slack)};
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

// Values are (< 2^115) / (< 2^41): compared through 256-bit products.
bool less(const LocalBand::Value& a, const LocalBand::Value& b) {
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
Extremes solve(const std::vector<Scaled>& lower, const std::vector<Scaled>& upper) {
  Extremes out;
  auto consider = [&](const Scaled& p) {
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
    for (const Scaled& q : lower) {  // the line at q.d is at most q.z
      const Int128 dd = q.d - p.d;
      const Int128 dz = q.z - p.z;
      if (dd > 0) at_most(dz, dd);
      else if (dd < 0) at_least(-dz, -dd);
      else if (dz < 0) return;
    }
    for (const Scaled& q : upper) {  // the line at q.d is at least q.z
      const Int128 dd = q.d - p.d;
      const Int128 dz = q.z - p.z;
      if (dd > 0) at_least(dz, dd);
      else if (dd < 0) at_most(-dz, -dd);
      else if (dz > 0) return;
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
  for (const Scaled& p : lower) consider(p);
  for (const Scaled& p : upper) consider(p);
  return out;
}

Nanoseconds reference_offset(std::span<const Point> lower, std::span<const Point> upper) {
  const Point& p = lower.empty() ? upper.front() : lower.front();
  return p.y - p.x;
}

LocalBand band(std::span<const Point> lower, std::span<const Point> upper, Nanoseconds t, int64_t milli_ppm,
               Nanoseconds horizon, Nanoseconds zref) {
  LocalBand out;
  out.origin = t + zref;
  const std::vector<Scaled> below = relaxed_hull(lower, t, zref, milli_ppm, horizon, true);
  const std::vector<Scaled> above = relaxed_hull(upper, t, zref, milli_ppm, horizon, false);
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

LocalBand local_band(std::span<const Point> lower, std::span<const Point> upper, Nanoseconds t, int64_t milli_ppm,
                     Nanoseconds horizon) {
  if (lower.empty() || upper.empty()) {
    LocalBand out;
    out.kind = LocalBand::Kind::kUnbounded;
    out.origin = t;
    return out;
  }
  return band(lower, upper, t, milli_ppm, horizon, reference_offset(lower, upper));
}

std::optional<int64_t> needed_stability(std::span<const Point> lower, std::span<const Point> upper, Nanoseconds t,
                                        int64_t milli_ppm, int64_t cap, Nanoseconds horizon) {
  if (lower.empty() || upper.empty()) return std::nullopt;
  const Nanoseconds zref = reference_offset(lower, upper);
  auto feasible = [&](int64_t p) { return band(lower, upper, t, p, horizon, zref).kind != LocalBand::Kind::kEmpty; };
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

}  // namespace tracesync::hull
