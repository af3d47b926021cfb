// SPDX-License-Identifier: EPL-2.0
#include "hull/convex_chain.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "brute_force_oracle.h"
#include "message_generators.h"

namespace tracesync::hull {
namespace {

using model::Point;

std::vector<Point> insert_all(ChainKind kind, const std::vector<Point>& points) {
  ConvexChain chain(kind);
  for (const Point& p : points) chain.insert(p);
  return chain.vertices();
}

TEST(ConvexChain, DropsPointsInsideAndCollinear) {
  ConvexChain lower(ChainKind::kLowerHull);
  EXPECT_TRUE(lower.insert({0, 0}));
  EXPECT_TRUE(lower.insert({10, 0}));
  EXPECT_FALSE(lower.insert({5, 0}));   // on the edge: never a vertex
  EXPECT_FALSE(lower.insert({5, 3}));   // above the lower hull
  EXPECT_TRUE(lower.insert({5, -1}));   // below: a new vertex
  EXPECT_FALSE(lower.insert({5, 2}));   // same x, higher
  EXPECT_EQ(lower.vertices(), (std::vector<Point>{{0, 0}, {5, -1}, {10, 0}}));
  EXPECT_TRUE(lower.insert({5, -20}));  // same x, lower: replaces it
  EXPECT_EQ(lower.vertices(), (std::vector<Point>{{0, 0}, {5, -20}, {10, 0}}));
  EXPECT_TRUE(lower.insert({-10, 100}));
  EXPECT_TRUE(lower.insert({20, 100}));
  // Hides (5,-20) and (10,0), and (0,0) too: it lies above the new edge
  // from (-10,100) to (6,-100), which passes x = 0 at y = -25.
  EXPECT_TRUE(lower.insert({6, -100}));
  EXPECT_EQ(lower.vertices(), (std::vector<Point>{{-10, 100}, {6, -100}, {20, 100}}));
}

TEST(ConvexChain, MatchesBruteForceInAnyOrder) {
  std::mt19937_64 rng(3);
  for (uint64_t seed = 0; seed < 300; ++seed) {
    for (const ChainKind kind : {ChainKind::kLowerHull, ChainKind::kUpperHull}) {
      std::vector<Point> points;
      for (const auto& m : generate::grid(40, seed, seed % 2 ? 12 : 1000)) points.push_back(m.point);
      auto unique = points;
      std::sort(unique.begin(), unique.end());
      unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
      const auto expected = oracle::hull_vertices(unique, kind == ChainKind::kUpperHull ? 1 : -1);
      std::sort(points.begin(), points.end());
      EXPECT_EQ(insert_all(kind, points), expected) << "sorted, seed " << seed;
      std::shuffle(points.begin(), points.end(), rng);
      EXPECT_EQ(insert_all(kind, points), expected) << "shuffled, seed " << seed;
    }
  }
}

// Arrival order: sorted but for points a few places late (slow messages),
// so that points land inside the chain in the tail, in the tree and at the
// border between them, with tangent queries now and then moving the tail
// into the tree. insert() must say whether the point is a vertex of the
// brute-force hull so far, and the chain must equal that hull now and then
// (vertices() itself moves the tail into the tree) and at the end.
TEST(ConvexChain, MatchesBruteForceAfterEachPointInNearlySortedOrder) {
  std::mt19937_64 rng(7);
  for (uint64_t seed = 0; seed < 200; ++seed) {
    for (const ChainKind kind : {ChainKind::kLowerHull, ChainKind::kUpperHull}) {
      std::vector<Point> points;
      for (const auto& m : generate::grid(40, seed, seed % 2 ? 12 : 1000)) points.push_back(m.point);
      std::sort(points.begin(), points.end());
      for (std::size_t i = 0; i + 1 < points.size(); ++i) {
        if (rng() % 3 == 0) std::swap(points[i], points[std::min(points.size() - 1, i + 1 + rng() % 4)]);
      }
      ConvexChain chain(kind);
      std::vector<Point> so_far;
      for (std::size_t i = 0; i < points.size(); ++i) {
        // A repeated point is no new vertex.
        const bool repeated = std::find(so_far.begin(), so_far.end(), points[i]) != so_far.end();
        const bool is_vertex = chain.insert(points[i]);
        so_far.push_back(points[i]);
        auto unique = so_far;
        std::sort(unique.begin(), unique.end());
        unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
        const auto expected = oracle::hull_vertices(unique, kind == ChainKind::kUpperHull ? 1 : -1);
        ASSERT_EQ(is_vertex, !repeated && std::find(expected.begin(), expected.end(), points[i]) != expected.end())
            << "seed " << seed << ", point " << i;
        if (rng() % 8 == 0) chain.tangent(points[i], rng() % 2 ? Side::kLeftOf : Side::kRightOf);
        if (rng() % 10 == 0 || i + 1 == points.size()) {
          ASSERT_EQ(chain.vertices(), expected) << "seed " << seed << ", after point " << i;
        }
      }
    }
  }
}

// The tangent from q: the vertex on one side of q with the extreme slope.
std::optional<Point> brute_tangent(const std::vector<Point>& vertices, ChainKind kind, Side side,
                                   const Point& q) {
  std::optional<Point> best;
  for (const Point& v : vertices) {
    const bool on_side = side == Side::kLeftOf ? v.x < q.x : v.x > q.x;
    if (!on_side) continue;
    const auto slope = side == Side::kLeftOf ? model::Slope::through(v, q) : model::Slope::through(q, v);
    if (!best) {
      best = v;
      continue;
    }
    const auto best_slope = side == Side::kLeftOf ? model::Slope::through(*best, q) : model::Slope::through(q, *best);
    // upper/left and lower/right minimise; upper/right and lower/left maximise.
    const bool minimise = (kind == ChainKind::kUpperHull) == (side == Side::kLeftOf);
    const int c = model::compare(slope, best_slope);
    if (minimise ? c < 0 : c > 0) best = v;
  }
  return best;
}

TEST(ConvexChain, TangentsMatchBruteForce) {
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<int64_t> coordinate(-50, 1050);
  for (uint64_t seed = 0; seed < 300; ++seed) {
    for (const ChainKind kind : {ChainKind::kLowerHull, ChainKind::kUpperHull}) {
      ConvexChain chain(kind);
      for (const auto& m : generate::grid(30, seed, 1000)) chain.insert(m.point);
      const auto vertices = chain.vertices();
      for (int i = 0; i < 40; ++i) {
        const Point q{coordinate(rng), coordinate(rng)};
        for (const Side side : {Side::kLeftOf, Side::kRightOf}) {
          const auto got = chain.tangent(q, side);
          const auto want = brute_tangent(vertices, kind, side, q);
          ASSERT_EQ(got.has_value(), want.has_value());
          if (!got) continue;
          // Ties: any vertex on the same tangent line will do.
          const auto slope_of = [&](const Point& v) {
            return side == Side::kLeftOf ? model::Slope::through(v, q) : model::Slope::through(q, v);
          };
          EXPECT_EQ(model::compare(slope_of(*got), slope_of(*want)), 0) << "seed " << seed;
        }
      }
    }
  }
}

}  // namespace
}  // namespace tracesync::hull
