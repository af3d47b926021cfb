// SPDX-License-Identifier: EPL-2.0
// PiecewiseTransform against plain evaluation of the maps it is built from:
// composition, inversion, integer reporting and the best single line, on
// random maps of many pieces at epoch-sized timestamps.

#include "network/piecewise_transform.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace tracesync::network {
namespace {

using model::Quad;

constexpr Quad kEpoch = 1.7e18Q;

// A knot list as a link's clock map gives it: strictly increasing x and y.
struct Knots {
  std::vector<Quad> x, y, bound;

  // Linear between knots, the end pieces continued; beyond the ends the
  // bound grows by `growth` (the rate limit) plus the end piece's distance
  // from slope 1 per ns, or not at all when `growth` is 0.
  std::pair<Quad, Quad> at(Quad t, Quad growth) const {
    std::size_t i = 0;
    while (i + 2 < x.size() && t > x[i + 1]) ++i;
    const Quad slope = (y[i + 1] - y[i]) / (x[i + 1] - x[i]);
    const Quad value = y[i] + slope * (t - x[i]);
    const Quad rate = growth == 0 ? Quad(0) : growth + model::abs(slope - 1);
    Quad b;
    if (t < x.front()) {
      b = bound.front() + rate * (x.front() - t);
    } else if (t > x.back()) {
      b = bound.back() + rate * (t - x.back());
    } else {
      b = bound[i] + (bound[i + 1] - bound[i]) * (t - x[i]) / (x[i + 1] - x[i]);
    }
    return {value, b};
  }

  PiecewiseTransform transform() const {
    std::vector<TransformPiece> pieces;
    for (std::size_t i = 0; i + 1 < x.size(); ++i) {
      const Quad slope = (y[i + 1] - y[i]) / (x[i + 1] - x[i]);
      pieces.push_back({x[i], x[i + 1], model::LinearTransform{slope, y[i] - slope * x[i]}, bound[i], bound[i + 1]});
    }
    return PiecewiseTransform(std::move(pieces));
  }
};

Knots random_knots(std::mt19937_64& random, Quad first, Quad last, Quad shift, int pieces) {
  std::uniform_real_distribution<double> unit(0, 1);
  Knots k;
  std::vector<double> cuts;
  for (int i = 1; i < pieces; ++i) cuts.push_back(unit(random));
  std::sort(cuts.begin(), cuts.end());
  k.x.push_back(first);
  for (const double c : cuts) k.x.push_back(std::floor(static_cast<double>(first + (last - first) * c)) + 0.5Q * (c < 0.5));
  k.x.push_back(last);
  k.y.push_back(first + shift);
  for (std::size_t i = 1; i < k.x.size(); ++i) {
    const Quad slope = 1 + (unit(random) - 0.5) * 2e-5;  // within 10 ppm
    k.y.push_back(k.y.back() + slope * (k.x[i] - k.x[i - 1]));
  }
  for (std::size_t i = 0; i < k.x.size(); ++i) k.bound.push_back(10 + 1000 * unit(random));
  return k;
}

// The piece holding t (the first one, at a breakpoint).
const TransformPiece& piece_at(const PiecewiseTransform& t, Quad x) {
  for (const TransformPiece& p : t.pieces()) {
    if (x <= p.last) return p;
  }
  return t.pieces().back();
}

void expect_contiguous(const PiecewiseTransform& t) {
  for (std::size_t i = 1; i < t.pieces().size(); ++i) EXPECT_EQ(t.pieces()[i].first, t.pieces()[i - 1].last);
}

TEST(PiecewiseTransform, CompositionEqualsEvaluatingOneMapAfterTheOther) {
  std::mt19937_64 random(7);
  for (int round = 0; round < 40; ++round) {
    const Quad growth = round % 2 ? 1e-6Q : 0;
    const Knots inner = random_knots(random, kEpoch, kEpoch + 3.6e12Q, 5e9Q, 1 + round % 7);
    // The outer map's span is a bit off the inner's image: continued at both ends.
    const Knots outer = random_knots(random, kEpoch + 5e9Q + 1e9Q, kEpoch + 5e9Q + 3.5e12Q, -2e6Q, 1 + round % 5);
    const PiecewiseTransform composed = outer.transform().after(inner.transform(), growth);
    expect_contiguous(composed);
    EXPECT_EQ(composed.first(), inner.x.front());
    EXPECT_EQ(composed.last(), inner.x.back());
    for (int i = 0; i <= 1000; ++i) {
      const Quad t = kEpoch + 3.6e12Q * i / 1000;
      const auto [mid, inner_bound] = inner.at(t, growth);
      const auto [expected, outer_bound] = outer.at(mid, growth);
      const TransformPiece& p = piece_at(composed, t);
      EXPECT_LE(model::abs(p.at(t) - expected), 1e-6Q) << round << " " << i;
      EXPECT_LE(model::abs(p.bound_at(t) - (inner_bound + outer_bound)), 1e-5Q)
          << round << " " << i << ": " << model::to_double(p.bound_at(t)) << " " << model::to_double(inner_bound)
          << " " << model::to_double(outer_bound) << " piece " << model::to_double(p.first) << " "
          << model::to_double(p.last) << " " << model::to_double(p.bound_first) << " " << model::to_double(p.bound_last);
    }
  }
}

TEST(PiecewiseTransform, InverseUndoesTheMap) {
  std::mt19937_64 random(11);
  const Knots k = random_knots(random, kEpoch, kEpoch + 1e12Q, 3e9Q, 6);
  const PiecewiseTransform forward = k.transform();
  const PiecewiseTransform backward = forward.inverse();
  expect_contiguous(backward);
  for (int i = 0; i <= 500; ++i) {
    const Quad t = kEpoch + 1e12Q * i / 500;
    const Quad y = piece_at(forward, t).at(t);
    EXPECT_LE(model::abs(piece_at(backward, y).at(y) - t), 1e-6Q);
    EXPECT_LE(model::abs(piece_at(backward, y).bound_at(y) - piece_at(forward, t).bound_at(t)), 1e-6Q);
  }
}

TEST(PiecewiseTransform, AtEvaluatesThePieceHoldingTheTimeAndContinuesTheEnds) {
  std::mt19937_64 random(13);
  const Knots k = random_knots(random, kEpoch, kEpoch + 1e12Q, -4e9Q, 9);
  const PiecewiseTransform t = k.transform();
  std::uniform_real_distribution<double> unit(0, 1);
  for (int i = 0; i < 2000; ++i) {
    // Inside the span, beyond both ends, and exactly at every knot.
    const Quad x = i < 1990 ? kEpoch - 1e11Q + 1.2e12Q * static_cast<Quad>(unit(random))
                            : k.x[static_cast<std::size_t>(i - 1990) % k.x.size()];
    EXPECT_LE(model::abs(t.at(x) - k.at(x, 0).first), 1e-6Q) << i;
    EXPECT_EQ(t.at(x), piece_at(t, x).at(x)) << i;
  }
}

// Beyond its span a map is continued along its end piece, and nothing
// measured it there: its bound grows by the rate limit plus the line's
// distance from slope 1 (docs/local-band.md, "Beyond the first and last
// knots"), and not at all with growth 0. The reference's identity is exact
// anywhere: continued, its bound stays 0.
TEST(PiecewiseTransform, AMapContinuedPastItsSpanGrowsByTheRateLimitAroundItsSlope) {
  const Quad rate_limit = 1e-3Q;
  const model::LinearTransform line{1.00004Q, -5e8Q};
  const PiecewiseTransform map({{kEpoch, kEpoch + 1e12Q, line, 40, 60}});
  const PiecewiseTransform wider = map.over(kEpoch - 2e9Q, kEpoch + 1e12Q + 3e9Q, rate_limit);
  ASSERT_EQ(wider.pieces().size(), 3u);
  // (The slope 1.00004 rounded to quad: within 1e-6 ns over seconds.)
  EXPECT_LE(model::abs(wider.pieces().front().bound_first - (40 + (rate_limit + 4e-5Q) * 2e9Q)), 1e-6Q);
  EXPECT_LE(model::abs(wider.pieces().back().bound_last - (60 + (rate_limit + 4e-5Q) * 3e9Q)), 1e-6Q);
  const PiecewiseTransform linear = map.over(kEpoch - 2e9Q, kEpoch + 1e12Q + 3e9Q, 0);
  EXPECT_EQ(linear.pieces().front().bound_first, 40);
  EXPECT_EQ(linear.pieces().back().bound_last, 60);
  const PiecewiseTransform identity =
      PiecewiseTransform::identity(kEpoch, kEpoch + 1e12Q).over(kEpoch - 2e9Q, kEpoch + 1e12Q + 3e9Q, rate_limit);
  for (const TransformPiece& p : identity.pieces()) {
    EXPECT_EQ(p.bound_first, 0);
    EXPECT_EQ(p.bound_last, 0);
  }
}

TEST(PiecewiseTransform, ALoneLineKeepsItsBitsThroughIdentityAndReporting) {
  const model::LinearTransform line = model::b_onto_a(1.0000031Q, -123456789.25Q);
  const PiecewiseTransform link({{kEpoch, kEpoch + 1e12Q, line, 42, 42}});
  const PiecewiseTransform composed = PiecewiseTransform::identity(kEpoch - 5e9Q, kEpoch + 2e12Q).after(link, 0);
  ASSERT_EQ(composed.pieces().size(), 1u);
  EXPECT_EQ(composed.pieces()[0].map.slope, line.slope);
  EXPECT_EQ(composed.pieces()[0].map.offset, line.offset);
  // Reported over a wider span: continued with the same bound (no growth).
  const auto reported = composed.reported(1'699'999'999'000'000'000, 1'700'000'002'000'000'000, 0);
  ASSERT_EQ(reported.size(), 1u);
  EXPECT_EQ(reported[0].map.slope, line.slope);
  EXPECT_EQ(reported[0].map.offset, line.offset);
  EXPECT_EQ(reported[0].bound_first, 42);
  EXPECT_EQ(reported[0].bound_last, 42);
  const SingleLine single = best_single_line(reported);
  EXPECT_EQ(single.map.slope, line.slope);
  EXPECT_EQ(single.map.offset, line.offset);
  EXPECT_EQ(single.bound, 42);
}

TEST(PiecewiseTransform, ReportedPiecesHaveIntegerEndsAndHonestBounds) {
  std::mt19937_64 random(23);
  for (int round = 0; round < 30; ++round) {
    const Knots k = random_knots(random, kEpoch, kEpoch + 2e12Q, 7e8Q, 2 + round % 9);
    const PiecewiseTransform t = k.transform();
    const model::Nanoseconds first = 1'700'000'000'000'000'000 - 1000;
    const model::Nanoseconds last = 1'700'000'002'000'000'000 + 1000;
    const Quad growth = 5e-7Q;
    const std::vector<ReportedPiece> pieces = t.reported(first, last, growth);
    ASSERT_FALSE(pieces.empty());
    EXPECT_EQ(pieces.front().first, first);
    EXPECT_EQ(pieces.back().last, last);
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      EXPECT_LT(pieces[i].first, pieces[i].last);
      EXPECT_GT(pieces[i].map.slope, 0);
      if (i > 0) {
        EXPECT_EQ(pieces[i].first, pieces[i - 1].last);
        // Continuous: both pieces give the same time where they meet.
        EXPECT_LE(model::abs(pieces[i].map.apply(pieces[i].first) - pieces[i - 1].map.apply(pieces[i].first)), 1e-6Q);
      }
    }
    // Honest: at any instant, the reported bound covers the exact map's
    // bound plus the distance between the reported and the exact value.
    for (int i = 0; i <= 2000; ++i) {
      const model::Nanoseconds x = first + static_cast<model::Nanoseconds>((last - first) / 2000.0 * i);
      const auto [exact, exact_bound] = k.at(static_cast<Quad>(x), growth);
      const ReportedPiece* p = &pieces.back();
      for (const ReportedPiece& q : pieces) {
        if (x <= q.last) {
          p = &q;
          break;
        }
      }
      const Quad bound = p->bound_first + (p->bound_last - p->bound_first) * static_cast<Quad>(x - p->first) /
                                              static_cast<Quad>(p->last - p->first);
      EXPECT_LE(model::abs(p->map.apply(x) - exact) + exact_bound, bound + 1e-6Q) << round << " " << i;
    }
    // The best single line is honest too, and no worse than the chord.
    const SingleLine line = best_single_line(pieces);
    for (int i = 0; i <= 2000; ++i) {
      const model::Nanoseconds x = first + static_cast<model::Nanoseconds>((last - first) / 2000.0 * i);
      const auto [exact, exact_bound] = k.at(static_cast<Quad>(x), growth);
      EXPECT_LE(model::abs(line.map.apply(x) - exact) + exact_bound, line.bound + 1e-3Q) << round << " " << i;
    }
    const Quad chord_slope = (pieces.back().map.apply(last) - pieces.front().map.apply(first)) / static_cast<Quad>(last - first);
    Quad chord_bound = 0;
    for (const ReportedPiece& p : pieces) {
      for (const auto& [x, b] : {std::pair{p.first, p.bound_first}, std::pair{p.last, p.bound_last}}) {
        const Quad chord = pieces.front().map.apply(first) + chord_slope * static_cast<Quad>(x - first);
        chord_bound = std::max(chord_bound, model::abs(chord - p.map.apply(x)) + b);
      }
    }
    EXPECT_LE(line.bound, chord_bound + 1e-6Q);
  }
}

// A bending map with knots every few seconds over [first, last]: slopes
// within `ppm` of 1, bounds at its two ends rising outward at `steep` ns per
// ns (faster than the growth beyond a span), inner bounds 50-550 ns.
Knots bending_knots(std::mt19937_64& random, Quad first, Quad last, Quad shift, Quad ppm, Quad steep, Quad inner_first,
                    Quad inner_last) {
  std::uniform_real_distribution<double> unit(0, 1);
  Knots k;
  k.x = {first, inner_first};
  for (Quad x = inner_first + 4e9Q; x < inner_last; x += 2e9Q + 4e9Q * static_cast<Quad>(unit(random))) k.x.push_back(x);
  k.x.push_back(inner_last);
  k.x.push_back(last);
  k.y.push_back(first + shift);
  for (std::size_t i = 1; i < k.x.size(); ++i) {
    const Quad slope = 1 + (static_cast<Quad>(unit(random)) - 0.5Q) * 2 * ppm;
    k.y.push_back(k.y.back() + slope * (k.x[i] - k.x[i - 1]));
  }
  for (std::size_t i = 0; i < k.x.size(); ++i) k.bound.push_back(50 + 500 * static_cast<Quad>(unit(random)));
  k.bound.front() = k.bound[1] + steep * (inner_first - first);
  k.bound.back() = k.bound[k.bound.size() - 2] + steep * (last - inner_last);
  return k;
}

TEST(PiecewiseTransform, AChildsImageBeyondItsParentsTracesMeetsTheParentsLinkMap) {
  // Reference R; parent P, whose link map onto R reaches 20 s beyond P's
  // own traces on both sides (P is the link's b end: the map spans the
  // image of R's span); child C, whose map onto P sends it up to 15 s
  // beyond P's traces. There C's transform must be C's map, then P's link
  // map (its own knots and bounds), then R's: a brute-force evaluation of
  // the knots. Composing P's transform over P's traces only continued P's
  // end piece at `growth` and lost the map's steeper bound there.
  const Quad second = 1e9Q;
  const Quad growth = 1e-4Q;  // 100 ppm
  std::mt19937_64 random(31);
  for (int round = 0; round < 12; ++round) {
    const Quad p_first = kEpoch, p_last = kEpoch + 60 * second;
    const Knots p_onto_r = bending_knots(random, p_first - 20 * second, p_last + 20 * second, 3e9Q, 200e-6Q, 1.087e-3Q,
                                         p_first - 4 * second, p_last + 4 * second);
    const Quad c_shift = -7e8Q;
    const Knots c_onto_p = bending_knots(random, p_first - 15 * second - c_shift, p_last + 15 * second - c_shift, c_shift,
                                         20e-6Q, 5e-6Q, p_first - 14 * second - c_shift, p_last + 14 * second - c_shift);
    const Quad c_first = c_onto_p.x.front(), c_last = c_onto_p.x.back();
    // The reference's traces cover every image: its transform adds nothing.
    const PiecewiseTransform reference = PiecewiseTransform::identity(kEpoch - 60 * second, kEpoch + 120 * second);
    const PiecewiseTransform parent = composed_onto_parent(reference, p_onto_r.transform(), p_first, p_last, growth);
    const PiecewiseTransform child = composed_onto_parent(parent, c_onto_p.transform(), c_first, c_last, growth);
    expect_contiguous(child);
    std::size_t beyond_parents_traces = 0;
    for (int i = 0; i <= 2000; ++i) {
      const Quad t = c_first + (c_last - c_first) * i / 2000;
      const auto [u, c_bound] = c_onto_p.at(t, growth);
      const auto [expected, p_bound] = p_onto_r.at(u, growth);
      if (u < p_first || u > p_last) ++beyond_parents_traces;
      const TransformPiece& piece = piece_at(child, t);
      EXPECT_LE(model::abs(piece.at(t) - expected), 1e-6Q) << round << " " << i;
      // Equal to the sum of the links' bounds there, so it covers it.
      EXPECT_LE(model::abs(piece.bound_at(t) - (c_bound + p_bound)), 1e-5Q)
          << round << " " << i << ": " << model::to_double(piece.bound_at(t)) << " against "
          << model::to_double(c_bound + p_bound) << " at " << model::to_double((u - p_first) / second) << " s of P";
    }
    EXPECT_GT(beyond_parents_traces, 500u);
  }
}

TEST(PiecewiseTransform, BreakpointsBetweenIntegersMoveWithAnAllowance) {
  // Two pieces meeting at x = 10.5 with slopes 1 and 1.5.
  const PiecewiseTransform t({{0, 10.5Q, model::LinearTransform{1, 0}, 1, 1}, {10.5Q, 20, model::LinearTransform{1.5Q, -5.25Q}, 1, 1}});
  const auto pieces = t.reported(0, 20, 0);
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0].last, 11);  // 10.5 rounds away from zero
  EXPECT_EQ(pieces[1].first, 11);
  // The knot at 11 carries the exact value (11.25) and bound 1 + |1.5 - 1|.
  EXPECT_LE(model::abs(pieces[0].map.apply(11) - 11.25Q), 1e-20Q);
  EXPECT_EQ(pieces[0].bound_last, 1.5Q);
  EXPECT_EQ(pieces[1].bound_first, 1.5Q);
  // The right piece holds the exact map from its breakpoint on.
  EXPECT_EQ(pieces[1].map.slope, 1.5Q);
}

}  // namespace

// The search for the best single line over every knot, as it read them all
// before it read only the hulls' (the reference the faster one must match).
SingleLine best_single_line_over_every_knot(const std::vector<ReportedPiece>& pieces) {
  struct Knot {
    Quad x, y, bound;
  };
  std::vector<Knot> knots;
  for (const ReportedPiece& p : pieces) {
    knots.push_back({static_cast<Quad>(p.first), p.map.apply(p.first), p.bound_first});
    knots.push_back({static_cast<Quad>(p.last), p.map.apply(p.last), p.bound_last});
  }
  const Quad x0 = knots.front().x;
  const auto band = [&](Quad s) {
    Quad high = 0, low = 0;
    bool any = false;
    for (const Knot& k : knots) {
      const Quad r = k.y - s * (k.x - x0);
      if (!any || r + k.bound > high) high = r + k.bound;
      if (!any || r - k.bound < low) low = r - k.bound;
      any = true;
    }
    return std::pair{high, low};
  };
  Quad lo = pieces.front().map.slope, hi = lo;
  for (const ReportedPiece& p : pieces) {
    lo = std::min(lo, p.map.slope);
    hi = std::max(hi, p.map.slope);
  }
  for (int i = 0; i < 200 && lo < hi; ++i) {
    const Quad m1 = lo + (hi - lo) / 3;
    const Quad m2 = hi - (hi - lo) / 3;
    const auto [h1, l1] = band(m1);
    const auto [h2, l2] = band(m2);
    (h1 - l1 <= h2 - l2 ? hi : lo) = h1 - l1 <= h2 - l2 ? m2 : m1;
  }
  const Quad slope = (lo + hi) / 2;
  const auto [high, low] = band(slope);
  SingleLine line{{slope, (high + low) / 2 - slope * x0}, 0, std::nullopt};
  for (const Knot& k : knots) line.bound = std::max(line.bound, model::abs(line.map.slope * k.x + line.map.offset - k.y) + k.bound);
  return line;
}

TEST(PiecewiseTransform, TheBestSingleLineOverHullKnotsIsTheOneOverEveryKnot) {
  // A clock map pinned every second for an hour (simultaneous signals on a
  // wandering clock): thousands of pieces, the rate wandering by tens of
  // ppm, bounds of a few us, equal times where pieces meet; and a few
  // pieces only. The line, its offset and its bound are the same to the bit.
  std::mt19937_64 random(37);
  for (const int count : {2, 3, 7, 3600}) {
    std::vector<ReportedPiece> pieces;
    model::Nanoseconds x = 1'700'000'000'000'000'000;
    Quad y = kEpoch + 3.25e9Q;
    Quad bound = 2000;
    for (int i = 0; i < count; ++i) {
      const model::Nanoseconds step = 1'000'000'000 + static_cast<model::Nanoseconds>(random() % 1000);
      const Quad slope = 1 + static_cast<Quad>(static_cast<double>(random() % 100'000) - 50'000.0) * 1e-9Q;
      const Quad next_bound = 1000 + static_cast<Quad>(static_cast<double>(random() % 3000));
      const model::LinearTransform map{slope, y - slope * static_cast<Quad>(x)};
      pieces.push_back({x, x + step, map, bound, next_bound, {}});
      x += step;
      y = map.apply(x);
      bound = next_bound;
    }
    const SingleLine fast = best_single_line(pieces);
    const SingleLine every = best_single_line_over_every_knot(pieces);
    EXPECT_EQ(fast.map.slope, every.map.slope) << count;
    EXPECT_EQ(fast.map.offset, every.map.offset) << count;
    EXPECT_EQ(fast.bound, every.bound) << count;
  }
}

// Reading only the knots on the hulls of (x, y + bound) and (x, y - bound)
// finds the very line that reading every knot finds, and the same bound,
// on maps of a few to a few thousand pieces.
TEST(PiecewiseTransform, BestSingleLineReadsOnlyTheHullsAndFindsTheSameLine) {
  std::mt19937_64 random(41);
  for (int round = 0; round < 22; ++round) {
    const int pieces = round < 20 ? 2 + round : 1000 * (round - 19);
    // Pieces as a bending clock's map gives them: a wandering rate, bounds
    // of tens of microseconds.
    std::vector<ReportedPiece> reported;
    std::uniform_real_distribution<double> unit(0, 1);
    model::Nanoseconds x = 1'767'225'600'000'000'000;
    Quad y = static_cast<Quad>(x) + 3e11Q;
    Quad bound = 40'000;
    for (int i = 0; i < pieces; ++i) {
      const model::Nanoseconds next = x + 1'000'000 + static_cast<model::Nanoseconds>(unit(random) * 1e9);
      const Quad slope = 1 + (unit(random) - 0.5) * 2e-5;
      const Quad next_bound = 20'000 + 80'000 * unit(random);
      const model::LinearTransform map{slope, y - slope * static_cast<Quad>(x)};
      reported.push_back({x, next, map, bound, next_bound, {}});
      y = map.apply(next);
      x = next;
      bound = next_bound;
    }
    const SingleLine fast = best_single_line(reported);
    const SingleLine reference = best_single_line_over_every_knot(reported);
    EXPECT_EQ(fast.map.slope, reference.map.slope) << round;
    EXPECT_EQ(fast.map.offset, reference.map.offset) << round;
    EXPECT_EQ(fast.bound, reference.bound) << round;
  }
}

}  // namespace tracesync::network
