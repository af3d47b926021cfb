// SPDX-License-Identifier: EPL-2.0
#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "network/spanning_forest.h"
#include "numbered_id.h"

namespace tracesync::network {
namespace {

using Edge = std::pair<Vertex, Vertex>;

EdgeEstimate weighing(double weight) { return EdgeEstimate{weight, model::LinearTransform{}, 1.0}; }

// Every vertex's neighbour lists, as the set of edges they describe; each
// edge must be listed from both ends, with its link-cut tree node.
std::set<Edge> listed_edges(SpanningForest& forest) {
  std::set<Edge> edges;
  for (Vertex v = 0; v < forest.vertex_count(); ++v) {
    for (const SpanningForest::TreeNeighbour& n : forest.tree_neighbours(v)) {
      const Vertex low = std::min(v, n.vertex);
      const Vertex high = std::max(v, n.vertex);
      EXPECT_EQ(forest.tree().edge_low(n.edge), low);
      EXPECT_EQ(forest.tree().edge_high(n.edge), high);
      const auto back = forest.tree_neighbours(n.vertex);
      EXPECT_TRUE(std::any_of(back.begin(), back.end(), [&](const auto& m) { return m.vertex == v; }))
          << v << " lists " << n.vertex << " but not the other way";
      edges.insert({low, high});
    }
  }
  return edges;
}

TEST(TreeAdjacencyTest, NeighbourListsFollowLinksCutsAndNewVertices) {
  SpanningForest forest;
  for (int i = 0; i < 5; ++i) forest.add_vertex(testutil::numbered_id("h", i));
  forest.set_edge(0, 1, weighing(5));
  forest.set_edge(1, 2, weighing(4));
  forest.set_edge(2, 3, weighing(3));
  EXPECT_EQ(listed_edges(forest), (std::set<Edge>{{0, 1}, {1, 2}, {2, 3}}));
  EXPECT_TRUE(forest.tree_neighbours(4).empty());

  // A cycle edge lighter than the path's heaviest (0, 1) replaces it.
  const ForestChange change = forest.set_edge(3, 0, weighing(1));
  ASSERT_TRUE(change.left && change.entered);
  EXPECT_EQ(listed_edges(forest), (std::set<Edge>{{0, 3}, {1, 2}, {2, 3}}));

  // A heavier cycle edge changes nothing.
  forest.set_edge(0, 2, weighing(9));
  EXPECT_EQ(listed_edges(forest), (std::set<Edge>{{0, 3}, {1, 2}, {2, 3}}));

  // Vertices added after a read get lists too, and joins show up.
  const Vertex late = forest.add_vertex("h5");
  EXPECT_TRUE(forest.tree_neighbours(late).empty());
  forest.set_edge(late, 4, weighing(2));
  forest.set_edge(4, 1, weighing(2));
  EXPECT_EQ(listed_edges(forest), (std::set<Edge>{{0, 3}, {1, 2}, {2, 3}, {4, 5}, {1, 4}}));
  EXPECT_EQ(forest.tree_neighbours(1).size(), 2U);
}

}  // namespace
}  // namespace tracesync::network
