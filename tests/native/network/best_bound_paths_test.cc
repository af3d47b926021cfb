// SPDX-License-Identifier: EPL-2.0
// best_bound_paths against brute force: every simple path of small random
// graphs enumerated, the smallest sum taken, the reference that minimises the
// largest of them chosen; and the same answer whatever the order of edges
// and the numbering of vertices.

#include "network/best_bound_paths.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

namespace tracesync::network {
namespace {

using model::Quad;

struct Graph {
  std::vector<std::string> ids;
  std::vector<BoundEdge> edges;
  std::vector<bool> forced;
};

// Smallest path sum from `from` to every vertex by enumerating simple paths
// (nullopt: unreachable). Sums are taken from `from` outwards.
std::vector<std::optional<Quad>> brute_force_bounds(const Graph& g, Vertex from) {
  const std::size_t n = g.ids.size();
  std::vector<std::vector<std::pair<Vertex, Quad>>> adjacency(n);
  for (const BoundEdge& e : g.edges) {
    adjacency[e.a].push_back({e.b, e.weight});
    adjacency[e.b].push_back({e.a, e.weight});
  }
  std::vector<std::optional<Quad>> best(n);
  std::vector<bool> on_path(n, false);
  const auto walk = [&](auto&& self, Vertex v, Quad sum) -> void {
    if (!best[v] || sum < *best[v]) best[v] = sum;
    on_path[v] = true;
    for (const auto& [next, w] : adjacency[v]) {
      if (!on_path[next]) self(self, next, sum + w);
    }
    on_path[v] = false;
  };
  walk(walk, from, 0);
  return best;
}

Graph random_graph(std::mt19937_64& random, std::size_t n, double density, bool real_weights = false) {
  Graph g;
  std::vector<int> names(n);
  std::iota(names.begin(), names.end(), 0);
  std::shuffle(names.begin(), names.end(), random);  // ids do not follow vertex numbers
  for (std::size_t i = 0; i < n; ++i) g.ids.push_back("host-" + std::to_string(names[i]));
  std::uniform_real_distribution<double> unit(0, 1);
  std::uniform_int_distribution<int> weight(0, 6);  // small integers: many exact ties
  for (Vertex a = 0; a < n; ++a) {
    for (Vertex b = a + 1; b < n; ++b) {
      if (unit(random) < density) {
        // Real weights, as link bounds are: the double shortlist must not lose the exact winner.
        const Quad w = real_weights ? static_cast<Quad>(unit(random)) * 1000 + static_cast<Quad>(unit(random)) * 1e-20Q
                                    : static_cast<Quad>(weight(random));
        g.edges.push_back({a, b, w});
      }
    }
  }
  g.forced.assign(n, false);
  return g;
}

TEST(BestBoundPaths, MatchesEveryVertexsSmallestPathSumAndTheMinimaxReference) {
  std::mt19937_64 random(3);
  for (int round = 0; round < 600; ++round) {
    const Graph g = random_graph(random, 1 + round % 9, 0.2 + 0.1 * (round % 5), round % 2 == 1);
    const BestBoundPaths paths = best_bound_paths(g.ids, g.edges, g.forced);
    const std::size_t n = g.ids.size();
    std::vector<std::vector<std::optional<Quad>>> all(n);
    for (Vertex v = 0; v < n; ++v) all[v] = brute_force_bounds(g, v);
    for (Vertex v = 0; v < n; ++v) {
      // The brute-force reference of v's island: smallest largest bound, ties to the smaller id.
      std::optional<Vertex> reference;
      Quad reference_worst = 0;
      for (Vertex r = 0; r < n; ++r) {
        if (!all[v][r]) continue;  // another island
        Quad worst = 0;
        for (Vertex u = 0; u < n; ++u) {
          if (all[r][u]) worst = std::max(worst, *all[r][u]);
        }
        if (!reference || worst < reference_worst || (worst == reference_worst && g.ids[r] < g.ids[*reference])) {
          reference = r;
          reference_worst = worst;
        }
      }
      ASSERT_EQ(paths.reference[v], *reference) << "round " << round << " vertex " << v;
      EXPECT_EQ(paths.bound[v], *all[*reference][v]) << "round " << round << " vertex " << v;
      // The parent chain is a real path of that bound (summed from the reference outwards).
      std::vector<Quad> weights;
      Vertex at = v;
      while (paths.parent[at]) {
        const Vertex up = *paths.parent[at];
        const auto edge = std::find_if(g.edges.begin(), g.edges.end(), [&](const BoundEdge& e) {
          return (e.a == at && e.b == up) || (e.a == up && e.b == at);
        });
        ASSERT_NE(edge, g.edges.end());
        weights.push_back(edge->weight);
        at = up;
        ASSERT_LE(weights.size(), n);
      }
      Quad sum = 0;
      for (auto w = weights.rbegin(); w != weights.rend(); ++w) sum += *w;
      const auto hops = static_cast<uint32_t>(weights.size());
      EXPECT_EQ(at, *reference);
      EXPECT_EQ(sum, paths.bound[v]);
      EXPECT_EQ(hops, paths.hops[v]);
    }
  }
}

TEST(BestBoundPaths, DoesNotDependOnEdgeOrderOrVertexNumbering) {
  std::mt19937_64 random(5);
  for (int round = 0; round < 200; ++round) {
    const Graph g = random_graph(random, 2 + round % 9, 0.4);
    const BestBoundPaths paths = best_bound_paths(g.ids, g.edges, g.forced);
    // The same graph renumbered, edges shuffled and turned around.
    const std::size_t n = g.ids.size();
    std::vector<Vertex> renumber(n);
    std::iota(renumber.begin(), renumber.end(), Vertex{0});
    std::shuffle(renumber.begin(), renumber.end(), random);
    Graph h;
    h.ids.resize(n);
    h.forced.assign(n, false);
    for (Vertex v = 0; v < n; ++v) h.ids[renumber[v]] = g.ids[v];
    for (const BoundEdge& e : g.edges) h.edges.push_back({renumber[e.b], renumber[e.a], e.weight});
    std::shuffle(h.edges.begin(), h.edges.end(), random);
    const BestBoundPaths other = best_bound_paths(h.ids, h.edges, h.forced);
    for (Vertex v = 0; v < n; ++v) {
      EXPECT_EQ(h.ids[other.reference[renumber[v]]], g.ids[paths.reference[v]]);
      EXPECT_EQ(other.bound[renumber[v]], paths.bound[v]);
      ASSERT_EQ(other.parent[renumber[v]].has_value(), paths.parent[v].has_value());
      if (paths.parent[v]) {
        EXPECT_EQ(h.ids[*other.parent[renumber[v]]], g.ids[*paths.parent[v]]);
      }
    }
  }
}

TEST(BestBoundPaths, PrefersTheSmallerBoundOverTheTreeOfBestSlopes) {
  // The case in small: r - x directly costs 113, r - y - x 50 + 39.
  const std::vector<std::string> ids{"r", "x", "y"};
  const std::vector<BoundEdge> edges{{0, 1, 113}, {0, 2, 50}, {2, 1, 39}};
  const BestBoundPaths paths = best_bound_paths(ids, edges, {true, false, false});
  EXPECT_EQ(paths.reference[1], 0u);
  EXPECT_EQ(paths.bound[1], 89);
  EXPECT_EQ(paths.parent[1], 2u);
  EXPECT_FALSE(paths.on_paths(0, 1));
  EXPECT_TRUE(paths.on_paths(1, 2));
}

TEST(BestBoundPaths, AForcedVertexIsTheReferenceOfItsIsland) {
  const std::vector<std::string> ids{"a", "b", "c", "d"};
  const std::vector<BoundEdge> edges{{0, 1, 1}, {1, 2, 1}};
  const BestBoundPaths paths = best_bound_paths(ids, edges, {false, false, true, true});
  EXPECT_EQ(paths.reference[0], 2u);  // not the centre, b
  EXPECT_EQ(paths.bound[0], 2);
  EXPECT_EQ(paths.reference[3], 3u);  // alone
}

TEST(BestBoundPaths, RejectsAnEdgeToAnUnknownVertex) {
  EXPECT_THROW(best_bound_paths({"a"}, {{0, 1, 1}}, {false}), std::invalid_argument);
  EXPECT_THROW(best_bound_paths({"a", "b"}, {{0, 1, -1}}, {false, false}), std::invalid_argument);
}

}  // namespace
}  // namespace tracesync::network
