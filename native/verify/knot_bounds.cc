// SPDX-License-Identifier: EPL-2.0
#include "verify/knot_bounds.h"

#include <algorithm>
#include <optional>

#include "model/quad.h"
#include "verify/exact_band.h"

namespace tracesync::verify {
namespace {

using model::Quad;
using model::magnitude;
using model::Rational;

// The rule's constants (docs/local-band.md, "As built").
constexpr int64_t kHorizon = 10'000'000'000;        // S
constexpr int64_t kWidestWindow = 60'000'000'000;   // W at most
constexpr std::size_t kPerSide = 32;                // messages of each direction on each side
constexpr int64_t kLeastWindow = 10'000'000;        // W at least
constexpr int64_t kLeastSpacing = 10'000'000;       // between two instants
constexpr int64_t kFarReach = 2'000'000'000;        // the fastest per bucket, up to this far
constexpr int64_t kBucket = 50'000'000;
constexpr int64_t kGapMidpoint = 2'000'000;         // a longer gap gets an instant in its middle
constexpr std::size_t kCheckedPerSide = 2;          // messages that let the data check the assumption
constexpr int64_t kCapMilliPpm = 2 * kRateLimitMilliPpm;

// An instant's band. Exact values are made (as rationals, which cost
// microseconds) only where a quad comparison cannot decide: the quads are
// within 1e-15 ns of the exact values (b's times below 2^62 ns, 113-bit
// mantissas), so a comparison they decide by more than kUndecided is the
// exact comparison's.
struct Instant {
  int64_t x;
  ExactBand band;
  Quad centre;      // from the origin
  Quad half_width;
  int64_t milli_ppm;

  Rational exact_centre() const { return (band.lo() + band.hi()) / 2; }
  Rational exact_half_width() const { return (band.hi() - band.lo()) / 2; }
};
constexpr Quad kUndecided = 1e-6;

std::vector<int64_t> instants(std::span<const MessagePoint> lower, std::span<const MessagePoint> upper) {
  std::vector<int64_t> xs;
  xs.reserve(lower.size() + upper.size());
  for (const MessagePoint& p : lower) xs.push_back(p.x);
  for (const MessagePoint& p : upper) xs.push_back(p.x);
  std::sort(xs.begin(), xs.end());
  std::vector<int64_t> out;
  auto offer = [&](int64_t x) {
    if (out.empty() || x - out.back() >= kLeastSpacing) out.push_back(x);
  };
  for (std::size_t k = 0; k < xs.size(); ++k) {
    if (k > 0 && xs[k] - xs[k - 1] > kGapMidpoint) offer(xs[k - 1] + (xs[k] - xs[k - 1]) / 2);
    offer(xs[k]);
  }
  return out;
}

// The points with from <= x <= to.
std::span<const MessagePoint> within(std::span<const MessagePoint> points, int64_t from, int64_t to) {
  const auto first =
      std::lower_bound(points.begin(), points.end(), from, [](const MessagePoint& p, int64_t x) { return p.x < x; });
  const auto last = std::upper_bound(first, points.end(), to, [](int64_t x, const MessagePoint& p) { return x < p.x; });
  return points.subspan(static_cast<std::size_t>(first - points.begin()), static_cast<std::size_t>(last - first));
}

// How far from t the k-th point on each side lies (the widest window when
// there are fewer), the farther of the two.
int64_t reach(std::span<const MessagePoint> points, int64_t t) {
  const auto at = static_cast<std::size_t>(
      std::lower_bound(points.begin(), points.end(), t, [](const MessagePoint& p, int64_t x) { return p.x < x; }) -
      points.begin());
  const int64_t left = at >= kPerSide ? t - points[at - kPerSide].x : kWidestWindow;
  const int64_t right = at + kPerSide <= points.size() ? points[at + kPerSide - 1].x - t : kWidestWindow;
  return std::max(left, right);
}

// The fastest point of each bucket of a's time: least y - x among lower
// points, greatest among upper ones (the first of equals).
std::vector<MessagePoint> fastest_per_bucket(std::span<const MessagePoint> points, bool lower) {
  std::vector<MessagePoint> out;
  for (const MessagePoint& p : points) {
    if (!out.empty() && out.back().x / kBucket == p.x / kBucket) {
      const int64_t z = p.y - p.x;
      const int64_t best = out.back().y - out.back().x;
      if (lower ? z < best : z > best) out.back() = p;
      continue;
    }
    out.push_back(p);
  }
  return out;
}

void gather(std::vector<MessagePoint>& out, std::span<const MessagePoint> points,
            std::span<const MessagePoint> fastest, int64_t t, int64_t w) {
  out.clear();
  for (const MessagePoint& p : within(fastest, t - kFarReach, t - w - 1)) out.push_back(p);
  for (const MessagePoint& p : within(points, t - w, t + w)) out.push_back(p);
  for (const MessagePoint& p : within(fastest, t + w + 1, t + kFarReach)) out.push_back(p);
}

// Whether the messages can check the assumption at t: two of each
// direction on each side within S, where traffic has begun and not ended.
bool checkable(std::span<const MessagePoint> lower, std::span<const MessagePoint> upper, int64_t t) {
  for (const std::span<const MessagePoint> points : {lower, upper}) {
    const bool before = points.front().x < t - kHorizon;
    const bool after = points.back().x > t + kHorizon;
    if ((before && within(points, t - kHorizon, t - 1).size() < kCheckedPerSide) ||
        (after && within(points, t + 1, t + kHorizon).size() < kCheckedPerSide)) {
      return false;
    }
  }
  return true;
}

// The least stability in (milli_ppm, cap] under which the band is not
// empty, by bisection (feasibility only grows with the stability).
std::optional<int64_t> needed_stability(std::span<const MessagePoint> lower, std::span<const MessagePoint> upper,
                                        int64_t t, int64_t milli_ppm) {
  auto feasible = [&](int64_t p) { return exact_band(lower, upper, t, p, kHorizon).kind != ExactBand::Kind::kEmpty; };
  if (!feasible(kCapMilliPpm)) return std::nullopt;
  int64_t empty_at = milli_ppm;
  int64_t ok_at = kCapMilliPpm;
  while (ok_at - empty_at > 1) {
    const int64_t mid = empty_at + (ok_at - empty_at) / 2;
    (feasible(mid) ? ok_at : empty_at) = mid;
  }
  return ok_at;
}

// The instants the map is built from, with their bands.
std::vector<Instant> bands(std::span<const MessagePoint> lower, std::span<const MessagePoint> upper,
                           int64_t milli_ppm) {
  std::vector<Instant> out;
  const std::vector<MessagePoint> fastest_lower = fastest_per_bucket(lower, true);
  const std::vector<MessagePoint> fastest_upper = fastest_per_bucket(upper, false);
  std::vector<MessagePoint> near_lower;
  std::vector<MessagePoint> near_upper;
  for (const int64_t t : instants(lower, upper)) {
    const int64_t w = std::clamp(std::max(reach(lower, t), reach(upper, t)), kLeastWindow, kWidestWindow);
    gather(near_lower, lower, fastest_lower, t, w);
    gather(near_upper, upper, fastest_upper, t, w);
    const bool checked = checkable(lower, upper, t);
    int64_t used = checked ? milli_ppm : kCapMilliPpm;
    ExactBand band = exact_band(near_lower, near_upper, t, used, kHorizon);
    if (band.kind == ExactBand::Kind::kEmpty) {
      const auto needed = checked ? needed_stability(near_lower, near_upper, t, milli_ppm) : std::nullopt;
      if (!needed) continue;
      used = *needed;
      band = exact_band(near_lower, near_upper, t, used, kHorizon);
    }
    if (band.kind != ExactBand::Kind::kBounded) continue;
    const Quad lo = band.lo_from_origin();
    const Quad hi = band.hi_from_origin();
    Instant here{t, band, static_cast<Quad>(band.origin) + (lo + hi) / 2, (hi - lo) / 2, used};
    if (!out.empty()) {  // the map must rise
      const Quad rise = here.centre - out.back().centre;
      if (rise < -kUndecided || (rise <= kUndecided && !(here.exact_centre() > out.back().exact_centre()))) continue;
    }
    out.push_back(here);
  }
  return out;
}

// How far the truth may leave a chord between two instants.
Rational slack(const Instant& a, const Instant& b) {
  const int64_t d = b.x - a.x;
  if (d <= kHorizon) return Rational(std::max(a.milli_ppm, b.milli_ppm)) * d / 4'000'000'000;
  return Rational(d) / 2'000;
}
Quad quad_slack(const Instant& a, const Instant& b) {
  const int64_t d = b.x - a.x;
  if (d <= kHorizon) return static_cast<Quad>(std::max(a.milli_ppm, b.milli_ppm)) * static_cast<Quad>(d) / 4'000'000'000;
  return static_cast<Quad>(d) / 2'000;
}

// Three decimals of a nanosecond, from the exact value (quad holds 34 digits).
std::string decimal(const Rational& v) { return model::to_fixed(model::to_quad(v), 3); }

// What the rate limit lets the truth leave a line of this slope by, per ns
// of a's clock: its rate is within R of 1 (hull::rate_limit_around).
Rational rate_limit_around(const Rational& slope) {
  return Rational(kRateLimitMilliPpm) / 1'000'000'000 + magnitude(slope - 1);
}

// The printed bounds are doubles rounded from the engine's quads (2^-53 of
// each, relative): a knot's bound may print that much below its inner
// neighbour's plus the growth, which is worked in quad.
bool covers_printed(const Rational& bound, const Rational& needed) {
  return bound + bound / 1'000'000'000'000'000 + Rational(1, 1'000'000'000) >= needed;
}

// The stretch of the map beyond its first (`last_end` false) or last band
// instant, to the trace's extent. The engine continues the end piece's
// line there and widens the bound by rate_limit_around(its slope) per ns
// from the knot at the instant (hull/local_band_map.h, fitted_to): the
// truth there is within that knot's bound at the instant and moves from
// the line by at most that rate. So each knot out there needs its inner
// neighbour's bound plus that growth over the distance, the slope being
// its own piece's. Where the instant falls inside a piece instead of on a
// knot (no map the engine makes), the band's need on that piece's chord at
// the instant stands for the inner bound. Marks the knots it checks; the
// first one narrower than the rule, in words, or empty.
std::string check_end(const std::string& link, const Instant& instant, const std::vector<ReportedKnot>& map,
                      bool last_end, std::vector<bool>& checked) {
  const auto n = static_cast<std::ptrdiff_t>(map.size());
  const auto knot = [&](std::ptrdiff_t k) -> const ReportedKnot& { return map[static_cast<std::size_t>(k)]; };
  // No knot beyond the instant, or none on its inner side: no stretch.
  if (last_end ? map.back().x <= instant.x || map.front().x > instant.x
               : map.front().x >= instant.x || map.back().x < instant.x) {
    return {};
  }
  // The knot at the instant, or the inner knot of the piece holding it.
  std::ptrdiff_t inner = last_end ? n - 1 : 0;
  if (last_end) {
    while (knot(inner).x > instant.x) --inner;
  } else {
    while (knot(inner).x < instant.x) ++inner;
  }
  const std::ptrdiff_t outward = last_end ? 1 : -1;
  // The bound at the instant that the stretch grows from: the knot's there,
  // or else the band's need on the chord of the piece holding it.
  Rational from_bound = knot(inner).bound;
  std::string from_what = "knot " + std::to_string(inner) + "'s bound";
  if (knot(inner).x != instant.x) {
    const ReportedKnot& l = last_end ? knot(inner) : knot(inner - 1);
    const ReportedKnot& r = last_end ? knot(inner + 1) : knot(inner);
    const Rational on_chord = l.y + (r.y - l.y) * (instant.x - l.x) / Rational(r.x - l.x);
    from_bound = instant.exact_half_width() + magnitude(on_chord - instant.exact_centre());
    from_what = "the band's need there on the chord of knots " + std::to_string(last_end ? inner : inner - 1) +
                " and " + std::to_string(last_end ? inner + 1 : inner);
  }
  int64_t from_x = instant.x;
  const std::string side = last_end ? "after the last" : "before the first";
  for (std::ptrdiff_t k = inner + outward; k >= 0 && k < n; k += outward) {
    const ReportedKnot& here = knot(k);
    const ReportedKnot& in = knot(k - outward);
    const Rational rate = rate_limit_around((in.y - here.y) / Rational(in.x - here.x));
    const int64_t distance = last_end ? here.x - from_x : from_x - here.x;
    const Rational needed = from_bound + rate * distance;
    if (!covers_printed(here.bound, needed)) {
      return link + ": its clock map's knot " + std::to_string(k) + " (at " + std::to_string(here.x) +
             " ns) has bound " + decimal(here.bound) + " ns, narrower than the rate limit allows " + side +
             " band instant (at " + std::to_string(instant.x) + " ns): " + decimal(needed) + " ns (" + from_what +
             ", " + decimal(from_bound) + " ns at " + std::to_string(from_x) + " ns, plus " +
             decimal(rate * 1'000'000) + " ppm, the rate limit and its piece's distance from slope 1, over " +
             std::to_string(distance) + " ns)";
    }
    checked[static_cast<std::size_t>(k)] = true;
    from_bound = here.bound;
    from_x = here.x;
    from_what = "knot " + std::to_string(k) + "'s bound";
  }
  return {};
}

}  // namespace

KnotBoundCheck check_knot_bounds(const std::string& link, std::span<const MessagePoint> lower,
                                 std::span<const MessagePoint> upper, const std::vector<ReportedKnot>& map,
                                 int64_t milli_ppm) {
  KnotBoundCheck out;
  if (lower.empty() || upper.empty() || map.size() < 2) return out;
  const std::vector<Instant> used = bands(lower, upper, milli_ppm);
  out.instants = used.size();
  std::vector<bool> checked(map.size(), false);
  if (used.empty()) return out;
  out.disagreement = check_end(link, used.front(), map, false, checked);
  if (!out.disagreement.empty()) return out;
  std::size_t first = 0;  // the first instant at or after the piece's start
  for (std::size_t j = 0; j + 1 < map.size(); ++j) {
    const ReportedKnot& l = map[j];
    const ReportedKnot& r = map[j + 1];
    while (first < used.size() && used[first].x < l.x) ++first;
    // The instants in [l.x, r.x], and the gaps between consecutive instants
    // that overlap (l.x, r.x): first their largest needs in quad, then
    // exactly those within kUndecided of the largest.
    const Quad ly = model::to_quad(l.y);
    const Quad slope = (model::to_quad(r.y) - ly) / static_cast<Quad>(r.x - l.x);
    auto quad_need = [&](const Instant& i) {
      return i.half_width + model::abs(ly + slope * static_cast<Quad>(i.x - l.x) - i.centre);
    };
    std::size_t last = first;  // one past the piece's instants
    Quad most = -1;
    while (last < used.size() && used[last].x <= r.x) most = std::max(most, quad_need(used[last++]));
    Rational worst = -1;
    std::size_t at = used.size();
    for (std::size_t i = first; i < last; ++i) {
      if (quad_need(used[i]) < most - kUndecided) continue;
      const Rational on_chord = l.y + (r.y - l.y) * (used[i].x - l.x) / Rational(r.x - l.x);
      const Rational need = used[i].exact_half_width() + magnitude(on_chord - used[i].exact_centre());
      if (need > worst) {
        worst = need;
        at = i;
      }
    }
    const std::size_t gaps_from = first == 0 ? 0 : first - 1;
    Quad widest = -1;
    bool any_gap = false;
    for (std::size_t i = gaps_from; i + 1 < used.size() && used[i].x < r.x; ++i) {
      if (used[i + 1].x <= l.x) continue;
      widest = std::max(widest, quad_slack(used[i], used[i + 1]));
      any_gap = true;
    }
    Rational gap = 0;
    for (std::size_t i = gaps_from; any_gap && i + 1 < used.size() && used[i].x < r.x; ++i) {
      if (used[i + 1].x <= l.x || quad_slack(used[i], used[i + 1]) < widest - kUndecided) continue;
      gap = std::max(gap, slack(used[i], used[i + 1]));
    }
    if (at == used.size() && !any_gap) continue;  // beyond the instants: not checked
    const Rational needed = std::max(worst, Rational(0)) + gap;
    for (const std::size_t k : {j, j + 1}) {
      if (map[k].bound >= needed) {
        checked[k] = true;
        continue;
      }
      std::string why = at == used.size() ? std::string("the slack between its instants")
                                           : "the band at " + std::to_string(used[at].x) + " ns, [" +
                                                 decimal(used[at].band.lo()) + ", " + decimal(used[at].band.hi()) +
                                                 "] under " +
                                                 decimal(Rational(used[at].milli_ppm) / 1000) + " ppm";
      out.disagreement = link + ": its clock map's knot " + std::to_string(k) + " (at " + std::to_string(map[k].x) +
                         " ns) has bound " + decimal(map[k].bound) + " ns, narrower than the local bands allow on " +
                         "its piece to knot " + std::to_string(k == j ? j + 1 : j) + ": " + decimal(needed) +
                         " ns (" + why + ", and " + decimal(gap) + " ns of slack between instants)";
      return out;
    }
  }
  out.disagreement = check_end(link, used.back(), map, true, checked);
  if (!out.disagreement.empty()) return out;
  out.knots = static_cast<std::size_t>(std::count(checked.begin(), checked.end(), true));
  return out;
}

}  // namespace tracesync::verify
