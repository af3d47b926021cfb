// SPDX-License-Identifier: EPL-2.0
// The local band at one instant (hull/local_band.h) against a brute force in
// exact rationals: every vertex of the two-variable program (two constraints
// made tight), checked against every constraint.

#include "hull/local_band.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <optional>
#include <random>
#include <vector>

#include "model/rational.h"
#include "support/sanitized.h"

namespace tracesync::hull {
namespace {

using model::Nanoseconds;
using model::Point;
using model::Rational;

Rational rational(model::Int128 v) {
  const bool negative = v < 0;
  const auto magnitude = static_cast<model::UInt128>(negative ? -v : v);
  Rational r = Rational(static_cast<uint64_t>(magnitude >> 64)) * Rational(boost::multiprecision::cpp_int(1) << 64) +
               Rational(static_cast<uint64_t>(magnitude));
  return negative ? -r : r;
}

Rational value_of(const LocalBand& band, const LocalBand::Value& v) {
  return Rational(band.origin) + rational(v.num) / (rational(v.den) * rational(LocalBand::kScale));
}

// a * v + b * r <= c over (v, r): v the line's value at t, r its slope.
struct Constraint {
  Rational a, b, c;
};

struct OracleBand {
  bool empty = true;
  Rational lo, hi;
};

// Assumes a bounded program: lower and upper points on both sides of t.
// Within the horizon S the points are relaxed by P |d| / 2, beyond it by
// P S / 2 + (2R - P/2)(|d| - S), R = 1000 ppm.
OracleBand oracle(const std::vector<Point>& lower, const std::vector<Point>& upper, Nanoseconds t, int64_t milli_ppm,
                  Nanoseconds horizon = kNoHorizon) {
  std::vector<Constraint> cs;
  auto slack = [&](const Point& p) {
    const Rational d = Rational(p.x) - Rational(t);
    const Rational distance = d < 0 ? Rational(-d) : d;
    const Rational per_ns = Rational(milli_ppm) / Rational(2'000'000'000);
    if (distance <= Rational(horizon)) return Rational(per_ns * distance);
    const Rational beyond = Rational(4'000'000 - milli_ppm) / Rational(2'000'000'000);
    return Rational(per_ns * Rational(horizon) + beyond * (distance - Rational(horizon)));
  };
  for (const Point& p : lower) cs.push_back({1, Rational(p.x - t), Rational(p.y) + slack(p)});
  for (const Point& p : upper) cs.push_back({-1, -Rational(p.x - t), -(Rational(p.y) - slack(p))});
  OracleBand out;
  for (std::size_t i = 0; i < cs.size(); ++i) {
    for (std::size_t j = i + 1; j < cs.size(); ++j) {
      const Rational det = cs[i].a * cs[j].b - cs[j].a * cs[i].b;
      if (det == 0) continue;
      const Rational v = (cs[i].c * cs[j].b - cs[j].c * cs[i].b) / det;
      const Rational r = (cs[i].a * cs[j].c - cs[j].a * cs[i].c) / det;
      bool ok = true;
      for (const Constraint& c : cs) ok = ok && c.a * v + c.b * r <= c.c;
      if (!ok) continue;
      if (out.empty) {
        out.lo = out.hi = v;
        out.empty = false;
      }
      out.lo = std::min(out.lo, v);
      out.hi = std::max(out.hi, v);
    }
  }
  return out;
}

// Points around t on both sides, both directions, from a line plus a kink
// and delays that may be negative (then the band may be empty).
struct Case {
  std::vector<Point> lower, upper;
  Nanoseconds t;
};

Case random_case(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> count(1, 7);
  std::uniform_int_distribution<Nanoseconds> width(1, 2'000'000'000);
  const Nanoseconds t = 1'767'225'600'000'000'000 + std::uniform_int_distribution<Nanoseconds>(0, 1'000'000'000'000)(rng);
  const Nanoseconds offset = std::uniform_int_distribution<Nanoseconds>(-1'000'000'000'000, 1'000'000'000'000)(rng);
  const long double drift = std::uniform_real_distribution<long double>(-200e-6L, 200e-6L)(rng);
  const long double kink = std::uniform_real_distribution<long double>(-300e-6L, 300e-6L)(rng);
  const Nanoseconds w = width(rng);
  std::uniform_int_distribution<Nanoseconds> along(-w, w);
  std::uniform_int_distribution<Nanoseconds> delay(-2'000, 60'000);
  auto truth = [&](Nanoseconds x) {
    const long double d = static_cast<long double>(x - t);
    return x + offset + static_cast<Nanoseconds>(drift * d + (d > 0 ? kink * d : 0));
  };
  Case c{{}, {}, t};
  for (int side : {-1, 1}) {
    for (bool lower : {true, false}) {
      const int n = count(rng);
      for (int i = 0; i < n; ++i) {
        Nanoseconds d = along(rng);
        if (d == 0 || (d > 0) != (side > 0)) d = -d;
        if (d == 0) d = side;
        const Nanoseconds x = t + d;
        const Nanoseconds y = truth(x) + (lower ? delay(rng) : -delay(rng));
        (lower ? c.lower : c.upper).push_back({x, y});
      }
    }
  }
  std::sort(c.lower.begin(), c.lower.end());
  std::sort(c.upper.begin(), c.upper.end());
  return c;
}

TEST(LocalBand, EqualsTheBruteForceProgramOnRandomPointSets) {
  std::mt19937_64 rng(33);
  const int64_t stabilities[] = {0, 1'000, 100'000, 1'000'000, 17'321};
  int bounded = 0;
  int empty = 0;
  for (int round = 0; round < 600; ++round) {
    const Case c = random_case(rng);
    const int64_t p = stabilities[round % 5];
    const Nanoseconds horizon = round % 3 == 0 ? 300'000'000 : kNoHorizon;
    const LocalBand band = local_band(c.lower, c.upper, c.t, p, horizon);
    const OracleBand expected = oracle(c.lower, c.upper, c.t, p, horizon);
    SCOPED_TRACE("round " + std::to_string(round));
    if (expected.empty) {
      EXPECT_EQ(band.kind, LocalBand::Kind::kEmpty);
      ++empty;
      continue;
    }
    ASSERT_EQ(band.kind, LocalBand::Kind::kBounded);
    ++bounded;
    EXPECT_EQ(value_of(band, band.lo), expected.lo);
    EXPECT_EQ(value_of(band, band.hi), expected.hi);
    // The half-width from the exact difference, within quad rounding.
    const model::Quad half = model::to_quad((expected.hi - expected.lo) / 2);
    EXPECT_TRUE(model::abs(half - band.half_width()) <= 1e-25 + half * 1e-30) << model::to_double(half);
  }
  // Both outcomes were exercised.
  EXPECT_GT(bounded, 120);
  EXPECT_GT(empty, 40);
}

TEST(LocalBand, NeededStabilityIsTheLeastThatMakesTheBandNonEmpty) {
  std::mt19937_64 rng(31);
  constexpr int64_t kCap = 2'000'000;
  int found = 0;
  int beyond = 0;
  for (int round = 0; round < 400 && found < 60; ++round) {
    const Case c = random_case(rng);
    if (!oracle(c.lower, c.upper, c.t, 0).empty) continue;
    SCOPED_TRACE("round " + std::to_string(round));
    const auto needed = needed_stability(c.lower, c.upper, c.t, 0, kCap);
    if (!needed) {
      EXPECT_TRUE(oracle(c.lower, c.upper, c.t, kCap).empty);
      ++beyond;
      continue;
    }
    ++found;
    EXPECT_FALSE(oracle(c.lower, c.upper, c.t, *needed).empty);
    EXPECT_TRUE(oracle(c.lower, c.upper, c.t, *needed - 1).empty);
    EXPECT_NE(local_band(c.lower, c.upper, c.t, *needed).kind, LocalBand::Kind::kEmpty);
  }
  EXPECT_GT(found, 20);
  (void)beyond;  // negative delays at one abscissa cannot be relaxed away: fine either way
}

TEST(LocalBand, IsUnboundedWhenOneSideLacksADirection) {
  const Nanoseconds t = 1'000'000'000;
  const std::vector<Point> lower{{t - 100, t - 100 + 50}, {t + 100, t + 100 + 50}};
  const std::vector<Point> upper_right{{t + 200, t + 200 - 50}};
  // No upper point left of t: the line can pivot down forever there.
  EXPECT_EQ(local_band(lower, upper_right, t, 100'000).kind, LocalBand::Kind::kUnbounded);
  EXPECT_EQ(local_band(lower, {}, t, 100'000).kind, LocalBand::Kind::kUnbounded);
  const std::vector<Point> upper{{t - 200, t - 200 - 50}, {t + 200, t + 200 - 50}};
  const LocalBand band = local_band(lower, upper, t, 0);
  ASSERT_EQ(band.kind, LocalBand::Kind::kBounded);
  // Symmetric delays of 50 ns around the identity: the truth, t, in the middle.
  EXPECT_EQ(value_of(band, band.lo) + value_of(band, band.hi), Rational(2 * t));
}

TEST(LocalBand, AWiderStabilityOnlyWidensTheBand) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 300; ++round) {
    const Case c = random_case(rng);
    const LocalBand narrow = local_band(c.lower, c.upper, c.t, 1'000);
    const LocalBand wide = local_band(c.lower, c.upper, c.t, 100'000);
    if (narrow.kind != LocalBand::Kind::kBounded) continue;
    ASSERT_EQ(wide.kind, LocalBand::Kind::kBounded);
    EXPECT_LE(value_of(wide, wide.lo), value_of(narrow, narrow.lo));
    EXPECT_GE(value_of(wide, wide.hi), value_of(narrow, narrow.hi));
  }
}

// The estimate (estimate_in): the centre of the band under the first of P/4,
// P/2 (below P) that the points leave non-empty, kept within `most_shift`
// half-widths of the band's centre, with the distance to the band's
// farther end as its reach: against the brute force's bands in exact
// rationals. A BandProgram set at one instant after another gives every
// band as local_band does.
TEST(LocalBand, TheEstimateIsTheTighterBandsCentreKeptNearTheBandsCentre) {
  std::mt19937_64 rng(11);
  constexpr int64_t kBandPpm = 100'000;
  BandProgram program;
  int tighter_used = 0;
  int shift_bound = 0;
  const int rounds = testing::sanitized() ? 40 : 100;  // the brute force is cubic
  for (int round = 0; round < rounds; ++round) {
    const Case c = random_case(rng);
    const OracleBand wide = oracle(c.lower, c.upper, c.t, kBandPpm);
    if (wide.empty) continue;
    const LocalBand band = local_band(c.lower, c.upper, c.t, kBandPpm);
    if (band.kind != LocalBand::Kind::kBounded) continue;
    SCOPED_TRACE("round " + std::to_string(round));
    program.set(c.lower, c.upper, c.t);
    const LocalBand again = program.under(kBandPpm);
    ASSERT_EQ(again.kind, LocalBand::Kind::kBounded);
    EXPECT_EQ(value_of(again, again.lo), wide.lo);
    EXPECT_EQ(value_of(again, again.hi), wide.hi);
    const Rational centre = (wide.lo + wide.hi) / 2;
    const Rational half = (wide.hi - wide.lo) / 2;
    for (const double most_shift : {0.1, 1.0}) {
      Rational expected = centre;
      for (const int64_t p : {kBandPpm / 4, kBandPpm / 2}) {
        const OracleBand tight = oracle(c.lower, c.upper, c.t, p);
        if (tight.empty) continue;
        const Rational shift = half * Rational(static_cast<int64_t>(most_shift * 10)) / 10;
        expected = std::clamp(Rational((tight.lo + tight.hi) / 2), Rational(centre - shift), Rational(centre + shift));
        if (most_shift < 1) shift_bound += expected != (tight.lo + tight.hi) / 2;
        tighter_used += most_shift < 1;
        break;
      }
      const BandEstimate e = program.estimate(band, kBandPpm, kBandPpm / 4, most_shift);
      const Rational reach = std::max(Rational(expected - wide.lo), Rational(wide.hi - expected));
      // The quads are rounded once from exact values of about 2^61 ns.
      EXPECT_NEAR(model::to_double(e.value - model::to_quad(expected)), 0, 1e-6);
      EXPECT_NEAR(model::to_double(e.reach - model::to_quad(reach)), 0, 1e-6);
      EXPECT_LE(model::to_double(e.reach - model::to_quad(half)), most_shift * model::to_double(model::to_quad(half)) + 1e-6);
    }
  }
  std::cout << "  " << tighter_used << " estimates from a tighter band, " << shift_bound << " of them kept near the centre\n";
  EXPECT_GT(tighter_used, rounds / 7);
  EXPECT_GT(shift_bound, rounds / 50);
}

}  // namespace
}  // namespace tracesync::hull
