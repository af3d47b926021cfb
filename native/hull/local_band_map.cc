// SPDX-License-Identifier: EPL-2.0
#include "hull/local_band_map.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "hull/exact_hull_estimator.h"
#include "hull/local_band.h"
#include "hull/local_band_candidate.h"
#include "hull/local_envelope.h"
#include "hull/message_log.h"

namespace tracesync::hull {
namespace {

using model::Nanoseconds;
using model::Point;
using model::Quad;

using band::Candidate;
using band::chord_slack;
using band::kCap;
using band::kRoundingPad;
using band::milli_ppm_of;
using band::Stretch;
using band::need;
using band::rising_estimates;

// Every message's abscissa, and the middle of every gap longer than
// `gap_midpoint`, at least `least_spacing` apart.
std::vector<Nanoseconds> candidate_instants(std::span<const Point> lower, std::span<const Point> upper,
                                            const LocalBandSettings& settings) {
  std::vector<Nanoseconds> xs;
  xs.reserve(lower.size() + upper.size());
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < lower.size() || j < upper.size()) {
    const bool take_lower = j == upper.size() || (i < lower.size() && lower[i].x <= upper[j].x);
    xs.push_back(take_lower ? lower[i++].x : upper[j++].x);
  }
  std::vector<Nanoseconds> out;
  auto offer = [&](Nanoseconds x) {
    if (out.empty() || x - out.back() >= settings.least_spacing) out.push_back(x);
  };
  for (std::size_t k = 0; k < xs.size(); ++k) {
    if (k > 0 && xs[k] - xs[k - 1] > settings.gap_midpoint) offer(xs[k - 1] + (xs[k] - xs[k - 1]) / 2);
    offer(xs[k]);
  }
  return out;
}

// Whether the messages can check the stability assumption at t
// (band::sparse): the link's first and last messages say where each
// direction's traffic begins and ends.
template <typename Points>
bool checkable(const Points& lower, const Points& upper, Nanoseconds t, const LocalBandSettings& settings) {
  auto sparse = [&](const Points& points) {
    return band::sparse(points, t, points[0].x < t - settings.horizon,
                        points[points.size() - 1].x > t + settings.horizon, settings);
  };
  return !sparse(lower) && !sparse(upper);
}

// The knots chosen among the candidates: a piece ends where its chord would
// leave some covered candidate's centre by more than tau, before a stretch
// whose slack alone exceeds tau, or once it covers `longest_piece`.
std::vector<std::size_t> simplified(const std::vector<Candidate>& c, const LocalBandSettings& settings) {
  std::vector<std::size_t> knots{0};
  if (c.size() == 1) return knots;
  const Quad kInfinity = std::numeric_limits<double>::infinity();
  std::size_t start = 0;
  Quad least_half_width = c[0].half_width;
  Quad slope_low = -kInfinity;
  Quad slope_high = kInfinity;
  auto restart = [&](std::size_t at) {
    knots.push_back(at);
    start = at;
    least_half_width = c[at].half_width;
    slope_low = -kInfinity;
    slope_high = kInfinity;
  };
  for (std::size_t i = 1; i < c.size(); ++i) {
    least_half_width = std::min(least_half_width, c[i].half_width);
    const Quad tau = std::max(static_cast<Quad>(settings.least_tau_ns),
                              static_cast<Quad>(settings.tau_fraction) * least_half_width);
    const bool forced = chord_slack(c[i - 1], c[i], settings) > tau;
    const Quad run = static_cast<Quad>(c[i].x - c[start].x);
    const Quad slope = (c[i].centre - c[start].centre) / run;
    const bool too_long = i - start > settings.longest_piece;
    if (i > start + 1 && (forced || too_long || slope < slope_low || slope > slope_high)) {
      restart(i - 1);
      --i;  // the same candidate again, now next to the piece's start
      continue;
    }
    if (forced) {
      restart(i);
      continue;
    }
    slope_low = std::max(slope_low, (c[i].centre - tau - c[start].centre) / run);
    slope_high = std::min(slope_high, (c[i].centre + tau - c[start].centre) / run);
  }
  if (knots.back() != c.size() - 1) knots.push_back(c.size() - 1);
  return knots;
}

Quad piece_bound(const std::vector<Candidate>& c, std::size_t a, std::size_t b, const LocalBandSettings& settings) {
  return band::piece_bound([&](std::size_t i) -> const Candidate& { return c[i]; }, a, b, settings);
}

ClockMap knots_of(const std::vector<Candidate>& c, const std::vector<std::size_t>& chosen,
                  const LocalBandSettings& settings) {
  ClockMap out;
  for (std::size_t k : chosen) out.push_back({c[k].x, c[k].centre, 0});
  if (chosen.size() == 1) {
    out[0].bound = need(c[chosen[0]], c[chosen[0]].centre) + kRoundingPad;
    return out;
  }
  for (std::size_t p = 0; p + 1 < chosen.size(); ++p) {
    const Quad bound = piece_bound(c, chosen[p], chosen[p + 1], settings);
    out[p].bound = std::max(out[p].bound, bound);
    out[p + 1].bound = std::max(out[p + 1].bound, bound);
  }
  return out;
}

// Neighbouring pieces joined where one chord holds within the bounds the
// map already has at the joined piece's ends (docs/local-band.md, "Cost"):
// a knot is dropped when the chord over its two neighbours' candidates has a
// bound (piece_bound) no larger than either neighbour's. The bound is then
// linear between the kept knots and at least the chord's everywhere, so it
// is honest, and no bound anywhere exceeds the larger of the kept knots'.
// Greedy from the left; a joined piece covers at most `merge_reach` knots,
// which keeps the cost linear in the candidates. Then each kept knot's
// bound is made its joined pieces' (piece_bound), no larger than before:
// the least the rule allows, which verify re-derives to the nanosecond.
ClockMap merged(const std::vector<Candidate>& c, const std::vector<std::size_t>& chosen, const ClockMap& knots,
                const LocalBandSettings& settings) {
  if (knots.size() <= 2) return knots;
  ClockMap out{knots.front()};
  std::vector<std::size_t> kept{chosen.front()};
  std::size_t from = 0;  // the last kept knot, in `chosen`
  Quad slack = 0;        // the largest slack between candidates from chosen[from] to chosen[k + 1]
  for (std::size_t i = chosen[0]; i < chosen[1]; ++i) slack = std::max(slack, chord_slack(c[i], c[i + 1], settings));
  for (std::size_t k = 1; k + 1 < knots.size(); ++k) {
    for (std::size_t i = chosen[k]; i < chosen[k + 1]; ++i) slack = std::max(slack, chord_slack(c[i], c[i + 1], settings));
    // Drop knot k if the chord from the last kept knot to knot k + 1
    // holds: piece_bound(c, a, b) <= limit, candidate by candidate (the
    // same sums, so the same verdict), stopping at the first that fails.
    const std::size_t a = chosen[from];
    const std::size_t b = chosen[k + 1];
    const Quad limit = std::min(knots[from].bound, knots[k + 1].bound);
    bool holds = k + 1 - from <= settings.merge_reach && slack + kRoundingPad <= limit;
    const Quad slope = (c[b].centre - c[a].centre) / static_cast<Quad>(c[b].x - c[a].x);
    for (std::size_t i = a; holds && i <= b; ++i) {
      const Quad on_line = c[a].centre + slope * static_cast<Quad>(c[i].x - c[a].x);
      holds = need(c[i], on_line) + slack + kRoundingPad <= limit;
    }
    if (holds) continue;
    out.push_back(knots[k]);
    kept.push_back(chosen[k]);
    from = k;
    slack = 0;
    for (std::size_t i = chosen[k]; i < chosen[k + 1]; ++i) slack = std::max(slack, chord_slack(c[i], c[i + 1], settings));
  }
  out.push_back(knots.back());
  kept.push_back(chosen.back());
  for (Knot& k : out) k.bound = 0;
  for (std::size_t p = 0; p + 1 < out.size(); ++p) {
    const Quad bound = piece_bound(c, kept[p], kept[p + 1], settings);
    out[p].bound = std::max(out[p].bound, bound);
    out[p + 1].bound = std::max(out[p + 1].bound, bound);
  }
  return out;
}

Knot interpolated(const Knot& a, const Knot& b, Nanoseconds x) {
  const Quad f = static_cast<Quad>(x - a.x) / static_cast<Quad>(b.x - a.x);
  return {x, a.y + (b.y - a.y) * f, a.bound + (b.bound - a.bound) * f};
}

// The points of the buckets that hold a point within the far reach of t:
// whole buckets, so that their fastest are those of every point.
template <typename Points>
auto far_buckets(const Points& points, Nanoseconds t, const LocalBandSettings& settings) {
  const Nanoseconds first = (t - settings.far_reach) / settings.bucket;
  const Nanoseconds last = (t + settings.far_reach) / settings.bucket;
  const auto from = std::partition_point(points.begin(), points.end(),
                                         [&](const Point& p) { return p.x / settings.bucket < first; });
  const auto to = std::partition_point(from, points.end(), [&](const Point& p) { return p.x / settings.bucket <= last; });
  return Stretch<decltype(from)>{from, to};
}

// The local band of a link's messages at any instant: the near messages,
// the fastest per bucket beyond them, and whether the messages can check
// the assumption there (docs/local-band.md). The map asks at every
// candidate and finds each bucket's fastest once; centre_line asks
// once a second and finds them around each instant, reading the messages
// in place (the same points either way).
template <typename Points>
class BandsOf {
 public:
  enum class Fastest { kOnce, kAroundEachInstant };

  BandsOf(const Points& lower, const Points& upper, const LocalBandSettings& settings, Fastest fastest)
      : lower_(lower), upper_(upper), settings_(settings), fastest_(fastest) {
    if (fastest_ == Fastest::kOnce) {
      fastest_lower_ = band::fastest_per_bucket(lower, true, settings.bucket);
      fastest_upper_ = band::fastest_per_bucket(upper, false, settings.bucket);
    }
  }

  // The band at t under `milli_ppm`, or under `cap` where the messages
  // cannot check the assumption (`checked` false).
  LocalBand at(Nanoseconds t, int64_t milli_ppm, int64_t cap, bool& checked, int64_t& used) {
    if (fastest_ == Fastest::kAroundEachInstant) {
      fastest_lower_ = band::fastest_per_bucket(far_buckets(lower_, t, settings_), true, settings_.bucket);
      fastest_upper_ = band::fastest_per_bucket(far_buckets(upper_, t, settings_), false, settings_.bucket);
    }
    const Nanoseconds w = band::window_at(lower_, upper_, t, settings_);
    band::gather(near_lower_, band::within(lower_, t - w, t + w), fastest_lower_, t, w, settings_);
    band::gather(near_upper_, band::within(upper_, t - w, t + w), fastest_upper_, t, w, settings_);
    checked = checkable(lower_, upper_, t, settings_);
    used = checked ? milli_ppm : cap;
    program_.set(near_lower_, near_upper_, t, settings_.horizon);
    return program_.under(used);
  }

  // At the t of the last at(): the least stability in (milli_ppm, cap] that
  // leaves its band non-empty, and the band under it.
  std::optional<int64_t> needed(int64_t milli_ppm, int64_t cap) const { return program_.needed(milli_ppm, cap); }
  LocalBand under(int64_t milli_ppm) const { return program_.under(milli_ppm); }
  // At the t of the last at(): the estimate inside its bounded band, made
  // under `milli_ppm` (estimate_in, local_band.h).
  BandEstimate estimate(const LocalBand& band, int64_t milli_ppm) const {
    return band::estimate_of(program_, band, milli_ppm, settings_);
  }

 private:
  const Points& lower_;
  const Points& upper_;
  const LocalBandSettings& settings_;
  Fastest fastest_;
  std::vector<Point> fastest_lower_;
  std::vector<Point> fastest_upper_;
  std::vector<Point> near_lower_;
  std::vector<Point> near_upper_;
  BandProgram program_;
};

}  // namespace

LocalBandMap local_band_map(std::span<const Point> lower, std::span<const Point> upper,
                            const ClockStability& stability, const LocalBandSettings& settings) {
  LocalBandMap out;
  if (lower.empty() || upper.empty()) return out;
  const int64_t milli_ppm = milli_ppm_of(stability);
  const int64_t cap = kCap;
  std::vector<Candidate> candidates;
  auto note_breach = [&](Nanoseconds t, double needed_ppm, bool continues) {
    if (continues && !out.breaches.empty()) {
      Breach& last = out.breaches.back();
      last.span.last = t;
      last.needed_ppm = (last.needed_ppm == 0 || needed_ppm == 0) ? 0 : std::max(last.needed_ppm, needed_ppm);
    } else {
      out.breaches.push_back({{t, t}, needed_ppm});
    }
  };
  bool in_breach = false;
  BandsOf<std::span<const Point>> bands(lower, upper, settings, BandsOf<std::span<const Point>>::Fastest::kOnce);
  for (const Nanoseconds t : candidate_instants(lower, upper, settings)) {
    bool checked = false;
    int64_t used = 0;
    LocalBand band = bands.at(t, milli_ppm, cap, checked, used);
    if (band.kind == LocalBand::Kind::kEmpty) {
      const auto needed = checked ? bands.needed(milli_ppm, cap) : std::nullopt;
      note_breach(t, needed ? static_cast<double>(*needed) / 1000 : 0, in_breach);
      in_breach = true;
      if (!needed) continue;
      used = *needed;
      band = bands.under(used);
    } else {
      in_breach = false;
    }
    if (band.kind != LocalBand::Kind::kBounded) continue;
    const Quad centre = (band.low() + band.high()) / 2;
    if (!candidates.empty() && !(centre > candidates.back().band_centre)) continue;  // the map must rise
    const BandEstimate estimate = bands.estimate(band, std::min(used, milli_ppm));
    candidates.push_back({t, estimate.value, band.half_width(), used, centre});
    rising_estimates(candidates);
  }
  if (candidates.empty()) return out;
  const std::vector<std::size_t> chosen = simplified(candidates, settings);
  if (const std::size_t n = chosen.size(); n >= band::kKnotsForEndsToMove) {  // the ends onto their neighbouring pieces
    band::onto_neighbouring_piece(candidates.front(), candidates[chosen[1]], candidates[chosen[2]], candidates[1],
                                  settings);
    band::onto_neighbouring_piece(candidates.back(), candidates[chosen[n - 3]], candidates[chosen[n - 2]],
                                  candidates[candidates.size() - 2], settings);
  }
  out.knots = merged(candidates, chosen, knots_of(candidates, chosen, settings), settings);
  return out;
}

ClockMap fitted_to(const ClockMap& knots, const TimeSpan& span) {
  ClockMap stretched = knots;
  auto slope_of = [](const Knot& a, const Knot& b) { return (b.y - a.y) / static_cast<Quad>(b.x - a.x); };
  const Quad first_slope = knots.size() > 1 ? slope_of(knots[0], knots[1]) : Quad(1);
  const Quad last_slope = knots.size() > 1 ? slope_of(knots[knots.size() - 2], knots.back()) : Quad(1);
  if (span.first < stretched.front().x) {
    const Knot& k = stretched.front();
    const Quad g = static_cast<Quad>(k.x - span.first);
    stretched.insert(stretched.begin(), {span.first, k.y - first_slope * g, k.bound + rate_limit_around(first_slope) * g});
  }
  if (span.last > stretched.back().x) {
    const Knot& k = stretched.back();
    const Quad g = static_cast<Quad>(span.last - k.x);
    stretched.push_back({span.last, k.y + last_slope * g, k.bound + rate_limit_around(last_slope) * g});
  }
  ClockMap out;
  for (std::size_t i = 0; i < stretched.size(); ++i) {
    const Knot& k = stretched[i];
    if (k.x < span.first) {
      if (i + 1 < stretched.size() && stretched[i + 1].x > span.first) {
        out.push_back(interpolated(k, stretched[i + 1], span.first));
      }
      continue;
    }
    if (k.x > span.last) {
      if (i > 0 && stretched[i - 1].x < span.last) out.push_back(interpolated(stretched[i - 1], k, span.last));
      break;
    }
    out.push_back(k);
  }
  return out;
}

namespace {

Nanoseconds floor_ns(Quad value) {
  const auto n = static_cast<Nanoseconds>(value);
  return static_cast<Quad>(n) > value ? n - 1 : n;
}

Nanoseconds ceil_ns(Quad value) {
  const auto n = static_cast<Nanoseconds>(value);
  return static_cast<Quad>(n) < value ? n + 1 : n;
}

// Whether one line passes within excess + slack of every probe's centre,
// its excess over the narrowest band's (`narrowest`): the segmentation rule
// (one exact hull) over those intervals, rounded outwards to whole
// nanoseconds.
bool one_line_fits(const std::vector<band::Probe>& probes, Quad narrowest, Nanoseconds slack) {
  ExactHullEstimator hull({0.0}, ExactHullEstimator::Envelope::kNone);
  for (const band::Probe& p : probes) {
    const Quad reach = (p.excess - narrowest) + static_cast<Quad>(slack);
    if (!hull.add_unless_emptied(LinkMessage{Direction::kAtoB, {p.t, ceil_ns(p.centre + reach)}}) ||
        !hull.add_unless_emptied(LinkMessage{Direction::kBtoA, {p.t, floor_ns(p.centre - reach)}})) {
      return false;
    }
  }
  return true;
}

}  // namespace

CentreLine centre_line(const MessageLog& messages, const ClockStability& stability, const LocalBandSettings& settings) {
  const MessageLog::Points& lower = messages.lower();
  const MessageLog::Points& upper = messages.upper();
  if (lower.empty() || upper.empty()) return {};
  const Nanoseconds first = std::min(lower[0].x, upper[0].x);
  const Nanoseconds last = std::max(lower[lower.size() - 1].x, upper[upper.size() - 1].x);
  const auto span = static_cast<uint64_t>(last) - static_cast<uint64_t>(first);
  const auto spacing = static_cast<uint64_t>(settings.probe_spacing);
  if (span < static_cast<uint64_t>(settings.least_probed)) return {};
  BandsOf<MessageLog::Points> bands(lower, upper, settings, BandsOf<MessageLog::Points>::Fastest::kAroundEachInstant);
  std::vector<band::Probe> probes;
  for (uint64_t k = 0; k <= span / spacing; ++k) {
    const auto t = static_cast<Nanoseconds>(static_cast<uint64_t>(first) + k * spacing);
    bool checked = false;
    int64_t used = 0;
    const LocalBand band = bands.at(t, milli_ppm_of(stability), kCap, checked, used);
    if (band.kind != LocalBand::Kind::kBounded) continue;
    probes.push_back({t, (band.low() + band.high()) / 2, band.half_width()});
  }
  return band::centre_line_of(probes, settings);
}

namespace band {

CentreLine centre_line_of(const std::vector<Probe>& probes, const LocalBandSettings& settings) {
  CentreLine out;
  // Too few bands to tell a typical one from the narrowest.
  if (probes.empty() || probes.size() < static_cast<uint64_t>(settings.least_probed) / static_cast<uint64_t>(settings.probe_spacing)) {
    return out;
  }
  // The probes hold their half-widths: each one's excess is over the narrowest.
  Quad narrowest = probes[0].excess;
  for (const Probe& p : probes) narrowest = std::min(narrowest, p.excess);
  std::vector<Quad> excess;
  excess.reserve(probes.size());
  for (const Probe& p : probes) excess.push_back(p.excess - narrowest);
  const auto middle = excess.begin() + static_cast<std::ptrdiff_t>(excess.size() / 2);
  std::nth_element(excess.begin(), middle, excess.end());
  out.typical_excess = *middle;
  // The least slack, in whole nanoseconds, by bisection: one fits (the
  // messages' own lines lie within every band, so within its half-width,
  // which is the narrowest's plus its excess), and fitting is monotone in it.
  Nanoseconds fails = -1;
  Nanoseconds fits = ceil_ns(narrowest);
  while (fits - fails > 1) {
    const Nanoseconds mid = fails + (fits - fails) / 2;
    (one_line_fits(probes, narrowest, mid) ? fits : fails) = mid;
  }
  out.least_slack = fits;
  out.probes = probes.size();
  return out;
}

}  // namespace band

}  // namespace tracesync::hull
