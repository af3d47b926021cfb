// SPDX-License-Identifier: EPL-2.0
#include "verify/exact_band.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "base/scratch_pool.h"
#include "verify/exact_lp.h"

namespace tracesync::verify {
namespace {

using model::Int128;
using model::Rational;

constexpr Int128 kLimit = Int128{1} << 40;

// kScale s(d), as in the comment of ExactBand.
Int128 scaled_slack(Int128 d, int64_t milli_ppm, int64_t horizon) {
  const Int128 distance = d < 0 ? -d : d;
  if (distance <= horizon) return Int128{milli_ppm} * distance;
  return Int128{milli_ppm} * horizon + (4 * Int128{kRateLimitMilliPpm} - milli_ppm) * (distance - horizon);
}

Rational rational(Int128 v) {
  const bool negative = v < 0;
  model::UInt128 u = negative ? -static_cast<model::UInt128>(v) : static_cast<model::UInt128>(v);
  boost::multiprecision::cpp_int out = static_cast<uint64_t>(u >> 64);
  out <<= 64;
  out += static_cast<uint64_t>(u);
  return Rational(negative ? -out : out);
}

// The greatest V as v / den, or nothing when the half-planes leave V free
// (the optimum on the box) or meet nowhere (`empty` set).
std::optional<std::pair<Int128, Int128>> greatest(const std::vector<HalfPlane>& planes, bool& empty) {
  const LpOptimum o = highest_point(planes);
  if (o.kind == LpOptimum::Kind::kInfeasible) {
    empty = true;
    return std::nullopt;
  }
  if (o.v == kValueBox * o.den || o.m == kSlopeBox * o.den || o.m == -kSlopeBox * o.den) return std::nullopt;
  return std::pair{o.v, o.den};
}

// A relaxed point: d = x - t, c = kScale (y - x - zref) +- kScale s(d).
struct Relaxed {
  Int128 d;
  Int128 c;
};

// Only a vertex of the lower hull of the raised lower points (the line must
// pass on or below each) or of the upper hull of the lowered upper points
// can bind: a line below the hull's vertices is below every point, since
// every point lies on or above the lower hull. So the programs over the
// vertices have the same feasible lines, and the same optima. Andrew's
// monotone chain over the points in order of (d, c); cross products of
// 41-bit and 74-bit differences, 116 bits.
void keep_hull(std::vector<Relaxed>& points, bool lower) {
  const auto by_dc = [](const Relaxed& a, const Relaxed& b) { return a.d != b.d ? a.d < b.d : a.c < b.c; };
  if (!std::is_sorted(points.begin(), points.end(), by_dc)) std::sort(points.begin(), points.end(), by_dc);
  std::size_t k = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Relaxed p = points[i];
    while (k >= 2) {
      const Relaxed& o = points[k - 2];
      const Relaxed& a = points[k - 1];
      const Int128 cross = (a.d - o.d) * (p.c - o.c) - (a.c - o.c) * (p.d - o.d);
      if (lower ? cross > 0 : cross < 0) break;
      --k;
    }
    points[k++] = p;
  }
  points.resize(k);
}

model::Quad quad(Int128 num, Int128 den) {
  return static_cast<model::Quad>(num) / (static_cast<model::Quad>(den) * static_cast<model::Quad>(kBandScale));
}

// The band's working vectors, kept between calls for their capacity.
struct BandScratch {
  std::vector<Relaxed> below;  // the raised lower points
  std::vector<Relaxed> above;  // the lowered upper points
  std::vector<HalfPlane> highest;
  std::vector<HalfPlane> lowest;
};
constinit base::ScratchPool<BandScratch> band_scratch;

}  // namespace

Rational ExactBand::lo() const { return Rational(origin) + rational(lo_num) / (rational(lo_den) * kBandScale); }
Rational ExactBand::hi() const { return Rational(origin) + rational(hi_num) / (rational(hi_den) * kBandScale); }
model::Quad ExactBand::lo_from_origin() const { return quad(lo_num, lo_den); }
model::Quad ExactBand::hi_from_origin() const { return quad(hi_num, hi_den); }

ExactBand exact_band(std::span<const MessagePoint> lower, std::span<const MessagePoint> upper, int64_t t,
                     int64_t milli_ppm, int64_t horizon, bool every_constraint) {
  ExactBand out;
  if (lower.empty() || upper.empty()) {
    out.kind = ExactBand::Kind::kUnbounded;
    return out;
  }
  const int64_t zref = lower.front().y - lower.front().x;
  // V = kScale (g(t) - t - zref) and M = kScale (slope - 1): g(x) on d is
  // x + zref + (V + M d) / kScale, so a lower point asks V + d M <= Z + kScale s
  // and an upper one V + d M >= Z - kScale s. `highest` holds them for the
  // greatest V, `lowest` for the greatest -V.
  const auto scratch = band_scratch.borrow();
  auto& [below, above, highest, lowest] = *scratch;
  below.clear();
  above.clear();
  for (const bool is_lower : {true, false}) {
    for (const MessagePoint& p : is_lower ? lower : upper) {
      const Int128 d = Int128{p.x} - t;
      const Int128 z = (Int128{p.y} - p.x) - zref;
      if (d <= -kLimit || d >= kLimit || z <= -kLimit || z >= kLimit) continue;
      const Int128 slack = scaled_slack(d, milli_ppm, horizon);
      (is_lower ? below : above).push_back({d, kBandScale * z + (is_lower ? slack : -slack)});
    }
  }
  const bool has_lower = !below.empty();
  const bool has_upper = !above.empty();
  if (!every_constraint) {
    keep_hull(below, true);
    keep_hull(above, false);
  }
  highest.clear();
  lowest.clear();
  for (const Relaxed& r : below) {
    highest.push_back({r.d, 1, r.c});
    lowest.push_back({r.d, -1, r.c});
  }
  for (const Relaxed& r : above) {
    highest.push_back({-r.d, -1, -r.c});
    lowest.push_back({-r.d, 1, -r.c});
  }
  if (!has_lower || !has_upper) {
    out.kind = ExactBand::Kind::kUnbounded;
    return out;
  }
  bool empty = false;
  const auto hi = greatest(highest, empty);
  if (empty) return out;  // kEmpty
  const auto minus_lo = greatest(lowest, empty);
  if (empty) return out;
  if (!hi || !minus_lo) {
    out.kind = ExactBand::Kind::kUnbounded;
    return out;
  }
  out.kind = ExactBand::Kind::kBounded;
  out.origin = t + zref;
  out.hi_num = hi->first;
  out.hi_den = hi->second;
  out.lo_num = -minus_lo->first;
  out.lo_den = minus_lo->second;
  return out;
}

}  // namespace tracesync::verify
