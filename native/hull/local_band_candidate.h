// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hull/clock_stability.h"
#include "hull/local_band.h"
#include "hull/local_band_map.h"
#include "model/point.h"
#include "model/quad.h"

// The local band at one candidate instant, as the batch map
// (local_band_map.cc) and the streamed one (local_band_stream.cc) both
// compute it: which points it reads, whether they can check the stability
// assumption, and how far the truth may leave a chord between two
// candidates (docs/local-band.md). One definition, so that the two maps
// read the same points in the same order and agree bit for bit.
namespace tracesync::hull::band {

using model::Nanoseconds;
using model::Point;
using model::Quad;

// Rounding of the quad centres and half-widths (a few 1e-16 ns each) is
// covered by this much on every bound.
constexpr Quad kRoundingPad = 0.001;

// The stability of a band taken where the messages cannot check the
// assumption: the rate limit alone, 2R, in thousandths of a ppm.
constexpr auto kCap = static_cast<int64_t>(2 * ClockStability::kMaxRateErrorPpm * 1000);

inline int64_t milli_ppm_of(const ClockStability& stability) {
  return static_cast<int64_t>(std::llround(stability.ppm * 1000));
}

// The band's result at one candidate instant: the estimate (a knot's
// value, local_band.h's estimate_in) and the band it lies in, by its
// centre and half-width. The truth there is within half_width +
// |v - band_centre| of any value v: a chord's bound needs that much. The
// bands' centres must rise from one candidate to the next (verify
// re-derives the candidates by them).
struct Candidate {
  Nanoseconds x;
  Quad centre;        // the estimate
  Quad half_width;    // the band's
  int64_t milli_ppm;  // the stability it holds under
  Quad band_centre;
};

// The estimate inside a bounded band that `program` holds at its instant,
// the band under `milli_ppm` (local_band.h's estimate_in): made under
// `estimate_stability` of that stability, as both maps make it.
inline BandEstimate estimate_of(const BandProgram& program, const LocalBand& band, int64_t milli_ppm,
                                const LocalBandSettings& settings) {
  const auto tighter = static_cast<int64_t>(static_cast<double>(milli_ppm) * settings.estimate_stability);
  return program.estimate(band, milli_ppm, tighter, settings.estimate_shift);
}

// How far the truth at candidate `k` may be from `value`.
inline Quad need(const Candidate& k, Quad value) { return k.half_width + model::abs(value - k.band_centre); }

// Keeps the estimates rising strictly after one more candidate: where the
// newest does not rise above the one before, the band's centre stands in
// for it, and, where that does not either, for the ones before it, back
// to where they rise (the bands' centres do, by the filter). It hardly
// ever acts: between candidates at least 10 ms apart the truth rises by
// about that much, and each estimate is within its band, so only bands
// milliseconds wide can leave two estimates out of order. `c` holds the
// candidates from some on (a deque or a vector), the newest last.
template <typename Candidates>
void rising_estimates(Candidates& c) {
  std::size_t i = c.size() - 1;
  if (i == 0 || c[i].centre > c[i - 1].centre) return;
  auto to_centre = [](Candidate& k) { k.centre = k.band_centre; };
  to_centre(c[i]);
  while (i > 0 && !(c[i].centre > c[i - 1].centre)) to_centre(c[--i]);
}

// The map's first and last candidates have messages on one side only:
// their bands are extrapolations, and their estimates err more than the
// others (up to 2.9 us on the 16-host `combined` hour, where knots away
// from the ends err 1.8-2.4 us; clock-model.md, "The ends onto their
// neighbouring pieces"). Each moves onto the line of the piece next to it,
// from candidate `a` to `b` (the simplification's knots, both inner), when
// that piece is at least 1 / `end_line_reach` times as long as the end
// lies from it, as far as the estimate's clamp allows in its own band: its
// bound stays what its band gives any value there (`need`), at most
// 1 + estimate_shift half-widths. `inner` is the candidate next to the
// end: the estimates must still rise.
// The ends move only on a map of at least this many knots: each end's
// neighbouring piece then lies between two inner knots.
inline constexpr std::size_t kKnotsForEndsToMove = 4;

inline void onto_neighbouring_piece(Candidate& end, const Candidate& a, const Candidate& b, const Candidate& inner,
                                    const LocalBandSettings& settings) {
  // A short piece's slope is as noisy as the estimates it joins: its line
  // carried far beyond it errs more than the end's own estimate.
  const Nanoseconds beyond = std::min(std::abs(end.x - a.x), std::abs(end.x - b.x));
  if (static_cast<double>(b.x - a.x) * settings.end_line_reach < static_cast<double>(beyond)) return;
  const Quad slope = (b.centre - a.centre) / static_cast<Quad>(b.x - a.x);
  const Quad room = static_cast<Quad>(settings.estimate_shift) * end.half_width;
  const Quad value =
      std::clamp(a.centre + slope * static_cast<Quad>(end.x - a.x), end.band_centre - room, end.band_centre + room);
  if (end.x < inner.x ? value < inner.centre : value > inner.centre) end.centre = value;
}

inline bool before_x(const Point& p, Nanoseconds x) { return p.x < x; }
inline bool after_x(Nanoseconds x, const Point& p) { return x < p.x; }

// The helpers below read a direction's points sorted by (x, y), in place:
// a span, a segment's MessageLog or the stream's window.

// How far from t one must go to hold `k` points on each side (the widest
// window when there are not that many).
template <typename Points>
Nanoseconds reach(const Points& points, Nanoseconds t, const LocalBandSettings& settings) {
  const auto at = static_cast<std::size_t>(std::lower_bound(points.begin(), points.end(), t, before_x) - points.begin());
  const std::size_t k = settings.per_side;
  const Nanoseconds left = at >= k ? t - points[at - k].x : settings.widest_window;
  const Nanoseconds right = at + k <= points.size() ? points[at + k - 1].x - t : settings.widest_window;
  return std::max(left, right);
}

// W at t: the reach of both directions, within [least_window, widest_window].
template <typename Points>
Nanoseconds window_at(const Points& lower, const Points& upper, Nanoseconds t, const LocalBandSettings& settings) {
  return std::clamp(std::max(reach(lower, t, settings), reach(upper, t, settings)), settings.least_window,
                    settings.widest_window);
}

// A stretch of sorted points, read in place.
template <typename Iterator>
struct Stretch {
  Iterator first;
  Iterator last;
  Iterator begin() const { return first; }
  Iterator end() const { return last; }
  std::size_t size() const { return static_cast<std::size_t>(last - first); }
};

template <typename Points>
auto within(const Points& points, Nanoseconds from, Nanoseconds to) {
  const auto first = std::lower_bound(points.begin(), points.end(), from, before_x);
  const auto last = std::upper_bound(first, points.end(), to, after_x);
  return Stretch<decltype(first)>{first, last};
}

// One step of the fastest message of each bucket of a's time, the points
// taken in (x, y) order: the lowest y - x among the lower points, the
// highest among the upper ones. Far from t these stand for all (fewer
// constraints only widen the band): a window inside a load episode, where
// every near message is slow, still sees the fast ones around it.
template <typename Out>
void keep_fastest(Out& out, const Point& p, bool lower, Nanoseconds bucket) {
  if (!out.empty() && out.back().x / bucket == p.x / bucket) {
    const bool faster = lower ? p.y - p.x < out.back().y - out.back().x : p.y - p.x > out.back().y - out.back().x;
    if (faster) out.back() = p;
    return;
  }
  out.push_back(p);
}

template <typename Points>
std::vector<Point> fastest_per_bucket(const Points& points, bool lower, Nanoseconds bucket) {
  std::vector<Point> out;
  for (const Point& p : points) keep_fastest(out, p, lower, bucket);
  return out;
}

// The near points and, beyond them up to the far reach, the buckets' fastest.
template <typename Near, typename Fastest>
void gather(std::vector<Point>& out, const Near& near, const Fastest& fastest, Nanoseconds t, Nanoseconds w,
            const LocalBandSettings& settings) {
  out.clear();
  for (const Point& p : within(fastest, t - settings.far_reach, t - w - 1)) out.push_back(p);
  out.insert(out.end(), near.begin(), near.end());
  for (const Point& p : within(fastest, t + w + 1, t + settings.far_reach)) out.push_back(p);
}

// Whether one direction's messages are too sparse at t to check the
// stability assumption: fewer than `checked_per_side` within S on a side
// where the traffic goes on (`before`: the direction has a message earlier
// than t - S; `after`: one later than t + S). Within S of the direction's
// first or last message the traffic has not begun or has ended: that side
// is not sparse, it is absent.
//
// A band under P is only trusted where a clock that broke P could have
// emptied it, which takes messages both ways on both sides of t within S
// (two of each: with one, simulate's 500 ppm slews at 0.2-0.5 messages/s
// still slipped through unflagged on some seeds; with two, none of 12
// did). Elsewhere the band is taken under the rate limit alone (P' = 2R,
// what the data prove without the assumption): a 500 ppm slew between
// messages 5 s apart leaves no trace a 100 ppm band could catch (issue 33).
template <typename Points>
bool sparse(const Points& points, Nanoseconds t, bool before, bool after, const LocalBandSettings& settings) {
  const std::size_t k = settings.checked_per_side;
  return (before && within(points, t - settings.horizon, t - 1).size() < k) ||
         (after && within(points, t + 1, t + settings.horizon).size() < k);
}

// How far the truth may leave its chord between candidates D apart.
inline Quad chord_slack(const Candidate& a, const Candidate& b, const LocalBandSettings& settings) {
  const Nanoseconds d = b.x - a.x;
  if (d <= settings.horizon) {
    return static_cast<Quad>(std::max(a.milli_ppm, b.milli_ppm)) * static_cast<Quad>(d) / 4'000'000'000;
  }
  return static_cast<Quad>(ClockStability::kMaxRateErrorPpm) * static_cast<Quad>(d) / 2'000'000;
}

// The bound that holds over the piece from candidate a to candidate b: the
// largest need (the band's farther end) on the chord over the candidates
// it covers, plus the largest slack between two of them. `at(i)` is
// candidate i (the batch's vector, or the stream's held deque).
template <typename At>
Quad piece_bound(const At& at, uint64_t a, uint64_t b, const LocalBandSettings& settings) {
  const Candidate& ca = at(a);
  const Candidate& cb = at(b);
  const Quad slope = (cb.centre - ca.centre) / static_cast<Quad>(cb.x - ca.x);
  Quad worst = 0;
  Quad slack = 0;
  for (uint64_t i = a; i <= b; ++i) {
    const Candidate& c = at(i);
    const Quad on_line = ca.centre + slope * static_cast<Quad>(c.x - ca.x);
    worst = std::max(worst, need(c, on_line));
    if (i < b) slack = std::max(slack, chord_slack(c, at(i + 1), settings));
  }
  return worst + slack + kRoundingPad;
}

// How far the truth at candidate i may be from the chord from a to b.
inline Quad off_chord(const Candidate& a, const Candidate& b, const Candidate& i) {
  const Quad slope = (b.centre - a.centre) / static_cast<Quad>(b.x - a.x);
  const Quad on_line = a.centre + slope * static_cast<Quad>(i.x - a.x);
  return need(i, on_line);
}

// A probe of centre_line: the band's centre at t and its half-width
// (centre_line_of takes its excess over the narrowest band's).
struct Probe {
  Nanoseconds t;
  Quad centre;
  Quad excess;
};

// centre_line's verdict on the probes with a band, in time order
// (local_band_map.cc): the centres' least slack and typical excess, or no
// verdict when they are too few.
CentreLine centre_line_of(const std::vector<Probe>& probes, const LocalBandSettings& settings);

}  // namespace tracesync::hull::band
