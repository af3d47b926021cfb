// SPDX-License-Identifier: EPL-2.0
// verify's own derivation of a link's lines from its messages, on a case
// worked by hand: b = a + 5, two messages each way; and its check that
// every other message lies on the allowed side of those lines.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <random>

#include <nlohmann/json.hpp>

#include "verify/allowed_sides.h"
#include "verify/certificate_check.h"
#include "verify/cone_envelope.h"
#include "verify/exact_band.h"
#include "verify/exact_lp.h"
#include "verify/knot_bounds.h"
#include "verify/message_lines.h"

namespace tracesync::verify {
namespace {

using model::Rational;

// a -> b: sent on a at x, received on b at y; b -> a: received on a at x, sent on b at y.
const std::vector<MessagePoint> kAToB = {{0, 7}, {10, 16}};
const std::vector<MessagePoint> kBToA = {{4, 8}, {14, 18}};

TEST(MessageLines, ExtremeSlopesComeFromTheirPinningPairs) {
  std::string why;
  const auto lines = extreme_lines(kAToB, kBToA, &why);
  ASSERT_TRUE(lines) << why;
  // The greatest slope: b -> a (4, 8) before a -> b (10, 16): 8 / 6.
  EXPECT_EQ(lines->lmax.slope, Rational(4, 3));
  EXPECT_EQ(lines->lmax.intercept, Rational(8, 3));
  EXPECT_EQ(lines->lmax_pair, (std::pair<std::size_t, std::size_t>{1, 0}));
  // The least: a -> b (0, 7) before b -> a (14, 18): 11 / 14, beating 1/4 and 1/2.
  EXPECT_EQ(lines->lmin.slope, Rational(11, 14));
  EXPECT_EQ(lines->lmin.intercept, Rational(7));
  EXPECT_EQ(lines->lmin_pair, (std::pair<std::size_t, std::size_t>{0, 1}));
  EXPECT_EQ(first_on_wrong_side(lines->lmin, kAToB, kBToA), "");
  EXPECT_EQ(first_on_wrong_side(lines->lmax, kAToB, kBToA), "");
}

TEST(MessageLines, AllowedRangeAtAnInstant) {
  // At 0 the a -> b message (0, 7) caps every line; Lmax is the lowest there.
  const auto [low, high] = allowed_range_at(0, kAToB, kBToA);
  EXPECT_EQ(low, Rational(8, 3));
  EXPECT_EQ(high, Rational(7));
  // Far right, Lmax is the highest and Lmin the lowest.
  const auto [far_low, far_high] = allowed_range_at(100, kAToB, kBToA);
  EXPECT_EQ(far_high, Rational(4, 3) * 100 + Rational(8, 3));
  EXPECT_EQ(far_low, Rational(11, 14) * 100 + 7);
}

TEST(MessageLines, WrongSideIsNamed) {
  const ExactLine too_high{1, 8};  // above the a -> b message (0, 7)
  EXPECT_NE(first_on_wrong_side(too_high, kAToB, kBToA).find("sent 0 received 7"), std::string::npos);
  const ExactLine too_low{1, 2};  // below the b -> a message sent 8, received 4
  EXPECT_NE(first_on_wrong_side(too_low, kAToB, kBToA).find("sent 8 received 4"), std::string::npos);
}

TEST(MessageLines, NoLineOrNoBoundIsSaid) {
  std::string why;
  EXPECT_FALSE(extreme_lines(kAToB, {}, &why));
  EXPECT_NE(why.find("do not bound"), std::string::npos);
  // Received at 5 on a b -> a message sent at 6, and the a -> b message sent at 5
  // arrived at 5: no line can pass between them.
  EXPECT_FALSE(extreme_lines({{5, 5}, {10, 20}}, {{5, 6}, {0, 0}}, &why));
  EXPECT_NE(why.find("no line"), std::string::npos);
  // Slopes crossing: the least allowed exceeds the greatest.
  EXPECT_FALSE(extreme_lines({{0, 10}, {10, 10}}, {{5, 12}}, &why));
  EXPECT_NE(why.find("no line"), std::string::npos);
}


// The hand case as a certificate: link A / B, segment 0 (from -5e18 to 14,
// ACCURATE, the messages above with Lmin through a -> b 0 and b -> a 1, Lmax
// through a -> b 1 and b -> a 0), a gap, then segment 1 (20 to 30) that no
// line fits. At x = 5, Lmin is 7 + 55/14 (10.93) and Lmax 28/3 (9.33).
const nlohmann::json kSides = nlohmann::json::parse(R"({"links": [{"a": "A", "b": "B", "segments": [
  {"first_ns": -5000000000000000000, "last_ns": 14, "quality": "ACCURATE",
   "a_to_b": [{"send_ns": 0, "receive_ns": 7}, {"send_ns": 10, "receive_ns": 16}],
   "b_to_a": [{"send_ns": 8, "receive_ns": 4}, {"send_ns": 18, "receive_ns": 14}],
   "lmin": {"a_to_b": 0, "b_to_a": 1}, "lmax": {"a_to_b": 1, "b_to_a": 0}},
  {"first_ns": 20, "last_ns": 30, "quality": "APPROXIMATE", "a_to_b": [], "b_to_a": []}]}]})");

TEST(AllowedSides, MessagesOnOrBeyondBothLinesAgree) {
  AllowedSides sides(kSides);
  sides.check("A", 0, "B", 7);     // pins Lmin: on it
  sides.check("A", 5, "B", 12);    // above both lines
  sides.check("B", 9, "A", 7);     // received on A at 7, sent on B at 9: below both (12.5 and 12)
  sides.check("A", 25, "B", 0);    // in the segment without lines
  sides.check("A", 1, "C", 2);     // no link
  sides.check("B", 3, "B", 4);     // within one domain
  EXPECT_EQ(sides.disagreement(), "");
  EXPECT_EQ(sides.on_their_side(), 3u);
  EXPECT_EQ(sides.in_unbounded_segments(), 1u);
  EXPECT_EQ(sides.on_no_link(), 2u);
}

TEST(AllowedSides, TheFirstMessageOnTheWrongSideIsNamed) {
  AllowedSides below(kSides);
  below.check("A", 5, "B", 10);  // under Lmin (10.93), over Lmax
  below.check("A", 5, "B", 9);   // under both: not the first
  EXPECT_EQ(below.disagreement(),
            "link A / B: the a -> b message sent at 5 ns and received at 10 ns lies below segment 0's Lmin: no message "
            "may, and the certificate does not cite it");
  EXPECT_EQ(below.on_their_side(), 0u);
  AllowedSides above(kSides);
  above.check("B", 13, "A", 7);  // x = 7, y = 13: over Lmin (12.5) and Lmax (12)
  EXPECT_NE(above.disagreement().find("the b -> a message sent at 13 ns and received at 7 ns lies above segment 0's Lmin"),
            std::string::npos)
      << above.disagreement();
}

TEST(AllowedSides, AMessageInNoSegmentIsLeftOutByTheReport) {
  AllowedSides sides(kSides);
  sides.check("A", 17, "B", 30);  // between segment 0 (to 14) and segment 1 (from 20)
  EXPECT_NE(sides.disagreement().find("lies in none of the link's segments (at 17 ns on a's clock)"), std::string::npos)
      << sides.disagreement();
}

// Differences beyond 2^62 are compared in arbitrary precision: at x = -4.7e18
// Lmin is about -3.69e18 and Lmax about -6.27e18.
TEST(AllowedSides, FarTimesAreComparedExactly) {
  AllowedSides sides(kSides);
  sides.check("A", -4'700'000'000'000'000'000, "B", -3'000'000'000'000'000'000);
  EXPECT_EQ(sides.disagreement(), "");
  EXPECT_EQ(sides.on_their_side(), 1u);
  sides.check("A", -4'700'000'000'000'000'000, "B", -5'000'000'000'000'000'000);
  EXPECT_NE(sides.disagreement().find("lies below segment 0's Lmin"), std::string::npos) << sides.disagreement();
}

TEST(AllowedSides, AMalformedCertificateIsBadInput) {
  nlohmann::json vertical = kSides;
  vertical["links"][0]["segments"][0]["b_to_a"][1] = {{"send_ns", 18}, {"receive_ns", 0}};  // x 0, as a -> b 0
  EXPECT_THROW(AllowedSides{vertical}, VerifyInputError);
  nlohmann::json uncited = kSides;
  uncited["links"][0]["segments"][0]["lmax"]["a_to_b"] = 7;
  EXPECT_THROW(AllowedSides{uncited}, VerifyInputError);
}


// The cones' envelope: by hand, and against a scan of every nanosecond.
TEST(ConeEnvelope, LargestLowestConeByHand) {
  const ExactLine diagonal{1, 0};
  // a -> b messages 10 and 20 ns above y = x at 0 and 100; cones of slope 1/10.
  const std::vector<MessagePoint> above = {{100, 120}, {0, 10}};
  const std::vector<MessagePoint> below = {{50, 49}};  // 1 ns below at 50
  // Between 0 and 100 the cones meet at 50, at 15 + 5 = 20; at 200 the cone of (100, 120) is 30.
  EXPECT_EQ(static_cast<double>(envelope_peak(above, below, diagonal, Rational(1, 10), 0, 100)), 20.0);
  EXPECT_EQ(static_cast<double>(envelope_peak(above, below, diagonal, Rational(1, 10), 0, 200)), 30.0);
  // Below: 1 + 5 at 0 and 100, 1 + 15 at 200; above dominates.
  EXPECT_EQ(static_cast<double>(envelope_peak({{0, 0}}, below, diagonal, Rational(1, 10), 0, 200)), 20.0);
}

TEST(ConeEnvelope, EqualsTheLargestOverEveryInstant) {
  uint64_t state = 12345;
  const auto next = [&](int64_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((state >> 33) % static_cast<uint64_t>(n));
  };
  for (int round = 0; round < 20; ++round) {
    std::vector<MessagePoint> above, below;
    for (int i = 0; i < 12; ++i) {
      const int64_t x = next(2000);
      above.push_back({x, x + 5 + next(300)});
      const int64_t u = next(2000);
      below.push_back({u, u - 5 - next(300)});
    }
    const ExactLine line{Rational(1), Rational(0)};
    const Rational c(1, 8);
    const int64_t first = -50, last = 2050;
    double scanned = 0;
    for (int64_t x = first; x <= last; ++x) {
      double up = 1e300, down = 1e300;
      const auto cone = [x](int64_t residual, int64_t at) {
        return static_cast<double>(residual) + 0.125 * static_cast<double>(std::abs(x - at));
      };
      for (const MessagePoint& p : above) up = std::min(up, cone(p.y - p.x, p.x));
      for (const MessagePoint& p : below) down = std::min(down, cone(p.x - p.y, p.x));
      scanned = std::max({scanned, up, down});
    }
    const double peak = static_cast<double>(envelope_peak(above, below, line, c, first, last));
    // The peak may fall between two whole nanoseconds: at most c / 2 above the scan.
    EXPECT_GE(peak, scanned);
    EXPECT_LE(peak, scanned + 0.0625);
  }
}

// The exact 2-D LP (knot bounds' local bands) against brute force: every
// pair of constraint lines (the box's among them) meets in a vertex; the
// optimum is the feasible vertex of greatest V, then greatest M. Small random
// cases, with parallel, repeated and contradictory half-planes among them.
TEST(ExactLp, EqualsTheBestVertexOfEveryPairOfConstraints) {
  std::mt19937 random(36);
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random); };
  const Rational box_m(static_cast<int64_t>(kSlopeBox));
  const Rational box_v = Rational(int64_t{1} << 40) * Rational(int64_t{1} << 40);
  ASSERT_EQ(kValueBox, model::Int128{1} << 80);
  int feasible = 0, infeasible = 0;
  for (int round = 0; round < 1000; ++round) {
    std::vector<HalfPlane> planes;
    const int n = uniform(1, 9);
    for (int i = 0; i < n; ++i) planes.push_back({uniform(-6, 6), uniform(0, 1) ? 1 : -1, uniform(-40, 40)});
    // As lines a M + b V = c (the box: M = +-box_m, V = box_v).
    struct Line {
      Rational a, b, c;
    };
    std::vector<Line> lines{{1, 0, box_m}, {-1, 0, box_m}, {0, 1, box_v}};
    for (const HalfPlane& h : planes) lines.push_back({Rational(static_cast<int64_t>(h.a)), h.b, Rational(static_cast<int64_t>(h.c))});
    std::optional<std::pair<Rational, Rational>> best;  // (V, M)
    for (std::size_t i = 0; i < lines.size(); ++i) {
      for (std::size_t j = i + 1; j < lines.size(); ++j) {
        const Rational det = lines[i].a * lines[j].b - lines[j].a * lines[i].b;
        if (det == 0) continue;
        const Rational m = (lines[i].c * lines[j].b - lines[j].c * lines[i].b) / det;
        const Rational v = (lines[i].a * lines[j].c - lines[j].a * lines[i].c) / det;
        bool ok = true;
        for (const Line& l : lines) ok = ok && l.a * m + l.b * v <= l.c;
        if (ok && (!best || std::pair{v, m} > *best)) best = std::pair{v, m};
      }
    }
    const LpOptimum o = highest_point(planes);
    ASSERT_EQ(o.kind == LpOptimum::Kind::kOptimal, best.has_value()) << "round " << round;
    if (!best) {
      ++infeasible;
      continue;
    }
    ++feasible;
    const auto exact = [](model::Int128 v) {
      return Rational(static_cast<int64_t>(v >> 64)) * Rational(int64_t{1} << 32) * Rational(int64_t{1} << 32) +
             Rational(static_cast<uint64_t>(v & ~uint64_t{0}));
    };
    EXPECT_EQ(exact(o.v) / exact(o.den), best->first) << "round " << round;
    EXPECT_EQ(exact(o.m) / exact(o.den), best->second) << "round " << round;
  }
  EXPECT_GT(feasible, 150);
  EXPECT_GT(infeasible, 30);
}

// The band at t worked by hand: b = a + 1000 ns, one message each way at
// t - 10 and t + 10, a -> b with delays of 5 and 15 ns, b -> a likewise.
TEST(ExactBand, TwoMessagesEachWayGiveTheChordsBand) {
  const int64_t t = 1'000'000;
  // a -> b: sent at x, received at y = x + 1000 + delay; b -> a: sent on b
  // at y, received on a at x = y - 1000 + delay.
  const std::vector<MessagePoint> lower = {{t - 10, t - 10 + 1000 + 5}, {t + 10, t + 10 + 1000 + 15}};
  const std::vector<MessagePoint> upper = {{t - 10, t - 10 + 1000 - 5}, {t + 10, t + 10 + 1000 - 15}};
  const ExactBand band = exact_band(lower, upper, t, 0, 10'000'000'000);
  ASSERT_EQ(band.kind, ExactBand::Kind::kBounded);
  // In z = b - a - 1000 a line g meets g(-10) <= 5, g(10) <= 15 (a -> b)
  // and g(-10) >= -5, g(10) >= -15 (b -> a); g(t) is their mean: at most
  // (5 + 15) / 2, at least (-5 - 15) / 2.
  EXPECT_EQ(band.hi(), Rational(t + 1000 + 10));
  EXPECT_EQ(band.lo(), Rational(t + 1000 - 10));
  // Under a stability of 1 ppm (1,000 milli-ppm) each point moves by
  // P |d| / 2 = 1e-6 * 10 / 2 ns = 5e-6 ns outwards: the band widens by as much.
  const ExactBand wider = exact_band(lower, upper, t, 1000, 10'000'000'000);
  ASSERT_EQ(wider.kind, ExactBand::Kind::kBounded);
  EXPECT_EQ(wider.hi(), Rational(t + 1000 + 10) + Rational(5, 1'000'000));
  EXPECT_EQ(wider.lo(), Rational(t + 1000 - 10) - Rational(5, 1'000'000));
  // One direction missing: unbounded; contradicting messages: empty.
  EXPECT_EQ(exact_band(lower, {}, t, 0, 10'000'000'000).kind, ExactBand::Kind::kUnbounded);
  const std::vector<MessagePoint> late = {{t, t + 1000 + 20}};
  EXPECT_EQ(exact_band({{{t, t + 1000 + 1}}}, late, t, 0, 10'000'000'000).kind, ExactBand::Kind::kEmpty);
}

// Only hull vertices can bind: the band over them equals the band over every
// constraint, on random point sets around a drifting line (some beyond the
// horizon, some with contradicting messages, some one-sided).
TEST(ExactBand, HullVerticesGiveTheBandOfEveryConstraint) {
  std::mt19937_64 random(31);
  auto uniform = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(random); };
  int kinds[3] = {0, 0, 0};
  for (int round = 0; round < 400; ++round) {
    const int64_t t = uniform(0, 1'000'000);
    const int64_t offset = uniform(-1'000'000, 1'000'000);
    const int64_t drift = uniform(-200, 200);  // ns per ms
    std::vector<MessagePoint> lower, upper;
    const int n = static_cast<int>(uniform(0, 30));
    for (int i = 0; i < n; ++i) {
      const int64_t x = uniform(0, 2'000'000);
      const int64_t y = x + offset + drift * x / 1'000'000;
      if (uniform(0, 1)) lower.push_back({x, y + uniform(-40, 400)});
      else upper.push_back({x, y - uniform(-40, 400)});
    }
    const auto by_xy = [](const MessagePoint& a, const MessagePoint& b) { return a.x != b.x ? a.x < b.x : a.y < b.y; };
    std::sort(lower.begin(), lower.end(), by_xy);
    std::sort(upper.begin(), upper.end(), by_xy);
    const int64_t milli_ppm = uniform(0, 1) == 0 ? 0 : uniform(1, 2'000'000);
    const int64_t horizon = uniform(1, 1'000'000);
    const ExactBand fast = exact_band(lower, upper, t, milli_ppm, horizon);
    const ExactBand every = exact_band(lower, upper, t, milli_ppm, horizon, true);
    ASSERT_EQ(fast.kind, every.kind) << "round " << round;
    ++kinds[static_cast<int>(fast.kind)];
    if (fast.kind != ExactBand::Kind::kBounded) continue;
    EXPECT_EQ(fast.lo(), every.lo()) << "round " << round;
    EXPECT_EQ(fast.hi(), every.hi()) << "round " << round;
    EXPECT_LE(fast.lo(), fast.hi());
  }
  EXPECT_GT(kinds[static_cast<int>(ExactBand::Kind::kBounded)], 100);
  EXPECT_GT(kinds[static_cast<int>(ExactBand::Kind::kEmpty)], 3);
  EXPECT_GT(kinds[static_cast<int>(ExactBand::Kind::kUnbounded)], 10);
}

// Beyond a map's first and last band instants its bound must grow from
// there by the rate limit plus its piece's distance from slope 1 (1,000 ppm
// + |s - 1| per ns). Here the messages give one instant, x0 (the first
// message; the others are within 10 ms), with band [lo, hi]: knots 1 s out
// on each side, and 2 s out on the left (a chain of two stretches), pass
// at exactly the rule and fail 1 ns below it, naming the knot; so do the
// knots of a map whose one piece holds the instant (no knot at it), where
// the band's need on the chord stands for the inner bound.
TEST(KnotBounds, BeyondTheBandInstantsTheBoundGrowsByTheRateLimit) {
  const int64_t t = 1'000'000'000'000;
  const std::vector<MessagePoint> lower = {{t - 10, t - 10 + 1000 + 5}, {t + 10, t + 10 + 1000 + 15}};
  const std::vector<MessagePoint> upper = {{t - 10, t - 10 + 1000 - 5}, {t + 10, t + 10 + 1000 - 15}};
  const int64_t milli_ppm = 100'000;
  const int64_t x0 = t - 10;
  const ExactBand band = exact_band(lower, upper, x0, milli_ppm, 10'000'000'000);
  ASSERT_EQ(band.kind, ExactBand::Kind::kBounded);
  const Rational centre = (band.lo() + band.hi()) / 2;
  const Rational half_width = (band.hi() - band.lo()) / 2;
  const int64_t second = 1'000'000'000;
  const Rational left_slope = Rational(1) + Rational(1, 100'000);   // 10 ppm fast
  const Rational right_slope = Rational(1) - Rational(1, 50'000);   // 20 ppm slow
  const Rational rate_limit(1, 1'000);
  // Knot 2 at the instant; the pieces' own check wants its bound at least
  // the band's half-width (its centre is on both pieces' lines).
  std::vector<ReportedKnot> map = {
      {x0 - 2 * second, centre - left_slope * 2 * second, half_width + (rate_limit + Rational(1, 100'000)) * 2 * second},
      {x0 - second, centre - left_slope * second, half_width + (rate_limit + Rational(1, 100'000)) * second},
      {x0, centre, half_width},
      {x0 + second, centre + right_slope * second, half_width + (rate_limit + Rational(1, 50'000)) * second}};
  const std::string link = "link a / b";
  const KnotBoundCheck exact = check_knot_bounds(link, lower, upper, map, milli_ppm);
  EXPECT_EQ(exact.disagreement, "");
  EXPECT_EQ(exact.instants, 1u);
  EXPECT_EQ(exact.knots, 4u);
  for (const std::size_t k : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
    std::vector<ReportedKnot> narrowed = map;
    narrowed[k].bound -= 1;
    const KnotBoundCheck caught = check_knot_bounds(link, lower, upper, narrowed, milli_ppm);
    EXPECT_NE(caught.disagreement.find(link + ": its clock map's knot " + std::to_string(k) + " (at " +
                                       std::to_string(map[k].x) + " ns) has bound"),
              std::string::npos)
        << caught.disagreement;
    EXPECT_NE(caught.disagreement.find(k == 3 ? "narrower than the rate limit allows after the last band instant"
                                              : "narrower than the rate limit allows before the first band instant"),
              std::string::npos)
        << caught.disagreement;
  }
  // One piece over the instant, slope 1 through the band's centre: each
  // end needs the half-width plus 1,000 ppm of its distance.
  const std::vector<ReportedKnot> across = {{x0 - second, centre - second, half_width + rate_limit * second},
                                            {x0 + 2 * second, centre + 2 * second, half_width + rate_limit * 2 * second}};
  const KnotBoundCheck held = check_knot_bounds(link, lower, upper, across, milli_ppm);
  EXPECT_EQ(held.disagreement, "");
  EXPECT_EQ(held.knots, 2u);
  for (const std::size_t k : {std::size_t{0}, std::size_t{1}}) {
    std::vector<ReportedKnot> narrowed = across;
    narrowed[k].bound -= 1;
    const KnotBoundCheck caught = check_knot_bounds(link, lower, upper, narrowed, milli_ppm);
    EXPECT_NE(caught.disagreement.find("its clock map's knot " + std::to_string(k) + " "), std::string::npos)
        << caught.disagreement;
    EXPECT_NE(caught.disagreement.find("the band's need there on the chord of knots 0 and 1"), std::string::npos)
        << caught.disagreement;
  }
}

}  // namespace
}  // namespace tracesync::verify
