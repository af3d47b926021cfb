// SPDX-License-Identifier: EPL-2.0
// The clock map: continuous, strictly increasing, covering exactly the span
// asked for, with knots on the segments' lines, and bridges that keep the
// bounds honest where neighbouring lines jump.

#include <gtest/gtest.h>

#include "hull/piecewise_clock_map.h"
#include "hull/piecewise_hull_estimator.h"
#include "hull/synthetic_clock.h"

namespace tracesync::hull {
namespace {

using model::Quad;

void expect_strictly_increasing(const ClockMap& map) {
  for (std::size_t i = 1; i < map.size(); ++i) {
    EXPECT_LT(map[i - 1].x, map[i].x) << i;
    EXPECT_LT(map[i - 1].y, map[i].y) << i;
  }
}

// With a stability above 0 a link of several segments takes its map from
// local bands (local_band_map_test.cc); with 0 (linear clocks assumed), and
// where no instant has a band, from its segments' lines, bridged.
TEST(PiecewiseClockMap, KnotsLieOnTheSegmentsLinesAndCoverTheSpan) {
  for (const double ppm : {0.0, ClockStability::kDefaultPpm}) {
    SCOPED_TRACE(::testing::Message() << ppm << " ppm");
    SyntheticClock clock;
    clock.steps = {{20'000'000'000, 30.0}};  // a big step: two segments at least
    SyntheticTraffic traffic;
    traffic.duration_ns = 60'000'000'000;
    traffic.mean_gap_ns = 2'000'000;
    PiecewiseHullEstimator estimator(ClockStability{ppm});
    for (const auto& m : generate_traffic(clock, traffic)) estimator.add(m);
    ASSERT_GE(estimator.segment_count(), 2u);

    const TimeSpan span{clock.start_ns - 1'000'000, clock.start_ns + traffic.duration_ns + 1'000'000};
    const auto map = estimator.clock_map(span);
    ASSERT_TRUE(map);
    EXPECT_EQ(map->front().x, span.first);
    EXPECT_EQ(map->back().x, span.last);
    expect_strictly_increasing(*map);
    const auto segments = estimator.segments(span);
    ASSERT_EQ(segments.size(), estimator.segment_count());
    EXPECT_EQ(segments.front().span.first, span.first);
    EXPECT_EQ(segments.back().span.last, span.last);
    // Every segment's two ends are knots, on its own line, with at least its bound.
    for (const LinkSegment& s : ppm == 0 ? segments : std::vector<LinkSegment>{}) {
      for (const auto& [end, bound] : {std::pair{s.span.first, *s.uncertainty_first}, std::pair{s.span.last, *s.uncertainty_last}}) {
        const model::Nanoseconds x = end;  // clang 14 lambdas cannot capture structured bindings
        const auto knot = std::find_if(map->begin(), map->end(), [&](const Knot& k) { return k.x == x; });
        ASSERT_NE(knot, map->end()) << x;
        EXPECT_TRUE(knot->y == s.estimate.alpha * static_cast<Quad>(x) + s.estimate.beta);
        EXPECT_GE(knot->bound, bound);
      }
    }
    // A span inside the messages is cut by interpolation.
    const TimeSpan inner{clock.start_ns + 10'000'000'000, clock.start_ns + 50'000'000'000};
    const auto cut = estimator.clock_map(inner);
    ASSERT_TRUE(cut);
    EXPECT_EQ(cut->front().x, inner.first);
    EXPECT_EQ(cut->back().x, inner.last);
    expect_strictly_increasing(*cut);
  }
}

TEST(PiecewiseClockMap, JumpingLinesAreBridgedUpwardsWithTheMoveInTheBound) {
  // The second line starts 50 ns below where the first ends, 10 ns later.
  const std::vector<ClockPiece> pieces = {
      {{0, 1000}, Line{1, 0}, {5, 7}},
      {{1010, 2000}, Line{1, -60}, {4, 4}},
  };
  const auto map = join_pieces(pieces, ClockStability{0}, {0, 2000});
  ASSERT_TRUE(map);
  ASSERT_EQ(map->size(), 5u);
  expect_strictly_increasing(*map);
  // The bridge's ends carry the larger bound; the lower one moved up to 1 ns
  // per ns above its predecessor, its bound grown by the move.
  EXPECT_TRUE((*map)[1].y == 1000 && (*map)[1].bound == 7);
  EXPECT_TRUE((*map)[2].x == 1010 && (*map)[2].y == 1010);
  EXPECT_TRUE((*map)[2].bound == 7 + (1010 - 950));
  // From there the map rises at half speed until it meets the second line
  // again, 2 x 60 ns later (and a nanosecond for the rounding), and follows
  // it to the end: the rest of the piece is not tilted.
  EXPECT_TRUE((*map)[3].x == 1131 && (*map)[3].y == 1071);
  EXPECT_NEAR(model::to_double((*map)[3].bound), 7 - 3.0 * 121 / 990, 1e-12);
  EXPECT_TRUE((*map)[4].y == 1940 && (*map)[4].bound == 4);
}

TEST(PiecewiseClockMap, AMovedKnotRejoinsItsPieceSoonAndEveryInstantStaysCovered) {
  // A line that starts 88 us below the previous one's end, 35 us later,
  // with slopes of a few ppm (a 50 ppm step, as seen in simulate's steps).
  const std::vector<ClockPiece> pieces = {
      {{0, 48'000'000'000}, Line{1.0000074, 0}, {130'000, 125'000}},
      {{48'000'035'000, 94'000'000'000}, Line{1.0000143, 48'000'035'000 * (1.0000074 - 1.0000143) - 88'000}, {125'000, 127'000}},
  };
  const auto map = join_pieces(pieces, ClockStability{100}, {0, 94'000'000'000});
  ASSERT_TRUE(map);
  expect_strictly_increasing(*map);
  // Within 2 x (88 + 35) us of the jump the map is back on the second line.
  const ClockPiece& second = pieces[1];
  const Knot& back = (*map)[3];
  EXPECT_LT(back.x - second.span.first, 2 * (88'000 + 35'000) + 2);
  EXPECT_TRUE(back.y == second.line.at(back.x));
  // At every instant the map's interval covers the second line's interval
  // (which holds the truth), however far the map moved from it.
  for (model::Nanoseconds x = second.span.first; x <= 48'001'000'000; x += 997) {
    std::size_t k = 1;
    while ((*map)[k].x < x) ++k;
    const Knot at = (*map)[k].x == x ? (*map)[k]
                                    : Knot{x,
                                           (*map)[k - 1].y + ((*map)[k].y - (*map)[k - 1].y) *
                                                                 static_cast<Quad>(x - (*map)[k - 1].x) /
                                                                 static_cast<Quad>((*map)[k].x - (*map)[k - 1].x),
                                           (*map)[k - 1].bound + ((*map)[k].bound - (*map)[k - 1].bound) *
                                                                     static_cast<Quad>(x - (*map)[k - 1].x) /
                                                                     static_cast<Quad>((*map)[k].x - (*map)[k - 1].x)};
    const Quad line = second.line.at(x);
    const Quad line_bound = 125'000;  // at least the second piece's own bound there
    ASSERT_LE(at.y - at.bound, line - line_bound + 1e-6) << x;
    ASSERT_GE(at.y + at.bound, line + line_bound - 1e-6) << x;
  }
}

TEST(PiecewiseClockMap, KnotsAtOneAbscissaMergeIntoOneCoveringBoth) {
  const std::vector<ClockPiece> pieces = {
      {{0, 100}, Line{1, 0}, {1, 2}},
      {{100, 200}, Line{1, 10}, {3, 3}},
  };
  const auto map = join_pieces(pieces, ClockStability{0}, {0, 200});
  ASSERT_TRUE(map);
  ASSERT_EQ(map->size(), 3u);
  // [100 - 3, 100 + 3] and [110 - 3, 110 + 3] merge into [97, 113].
  EXPECT_TRUE((*map)[1].x == 100 && (*map)[1].y == 105 && (*map)[1].bound == 8);
}

TEST(PiecewiseClockMap, AGapBetweenSegmentsWidensTheBridgeWithItsLength) {
  const std::vector<ClockPiece> pieces = {
      {{0, 1'000'000}, Line{1, 0}, {5, 5}},
      {{3'000'000, 4'000'000}, Line{1, 0}, {5, 5}},
  };
  const auto band = join_pieces(pieces, ClockStability{100}, {0, 4'000'000});
  ASSERT_TRUE(band);
  // 100 ppm * 2 ms / 4 = 50 ns (the rate limit would allow 1000 ns).
  EXPECT_TRUE((*band)[1].bound == 55 && (*band)[2].bound == 55);
  const auto rate = join_pieces(pieces, ClockStability{5000}, {0, 4'000'000});
  // 1000 ppm * 2 ms / 2 = 1000 ns, smaller than 5000 ppm * 2 ms / 4.
  EXPECT_NEAR(model::to_double((*rate)[1].bound), 1005, 1e-9);
}

}  // namespace
}  // namespace tracesync::hull
