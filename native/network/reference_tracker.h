// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include "network/network.h"
#include "network/spanning_forest.h"

namespace tracesync::network {

// Each island's reference vertex, kept as the spanning forest changes
// (thesis ch. 4, with subtree sizes from the link-cut tree instead of
// explicit DescendantSize fields).
//
// The reference minimises the sum of tree-path weights to every vertex of
// the island. Crossing an edge towards a side of s vertices changes that sum
// by weight * (n - 2s), so a centroid (no side above n/2) is optimal
// whatever the weights (Lemma 1). From a centroid, the sum stays equal
// exactly across zero-weight edges and across the one edge that splits the
// island evenly (towards the second centroid); every other step costs more.
// The optimal set is therefore the zero-weight component of the centroid,
// plus that of the second centroid if there is one, and the reference is
// its smallest id.
//
// After a change the new centroid lies on a path from the old one:
//  - a join: on the path between the two old centroids;
//  - a replacement (cut one edge, link another in the same island): on the
//    path from the old centroid to the entering edge, since only the
//    sides along that path grew.
// One splay-tree descent along that path finds it, O(log n) amortized. A
// second centroid is the next vertex on the path or, after a replacement,
// one of a few known neighbours (the old second centroid, the ends of the
// entering edge), checked by size. Gathering the zero-weight component
// costs its size, zero for real links (accuracy 0 needs a degenerate hull).
// A forced reference overrides all this for good.
class ReferenceTracker {
 public:
  explicit ReferenceTracker(SpanningForest& forest) : forest_(&forest) {}

  void reserve(std::size_t vertices) {
    islands_.reserve(vertices);
    zero_neighbours_.reserve(vertices);
    has_zero_edge_.reserve(vertices);
    visit_mark_.reserve(vertices);
  }
  // Registers the vertex just added to the forest, alone in its island.
  void add_vertex(Vertex v);
  // Follows one forest change. Returns true when some reference may have changed.
  bool apply(const ForestChange& change);
  // Makes v its island's reference for good.
  void force(Vertex v);

  Vertex reference_of(Vertex v) { return islands_[forest_->island_of(v)].reference; }

 private:
  struct Island {
    Vertex centroid;
    std::optional<Vertex> second_centroid;
    std::optional<Vertex> forced;
    Vertex reference;
  };

  void merge(Vertex kept, Vertex absorbed);
  void find_centroid(Island& island, uint32_t size, Vertex from, Vertex towards,
                     std::initializer_list<std::optional<Vertex>> neighbour_hints);
  void choose_reference(Island& island);
  bool add_zero_edge(const ForestEdge& edge);
  bool remove_zero_edge(const ForestEdge& edge);

  SpanningForest* forest_;
  std::vector<Island> islands_;                     // by island representative
  std::vector<std::vector<Vertex>> zero_neighbours_;  // along zero-weight tree edges
  // Whether a vertex's zero_neighbours_ list is not empty. Real links never
  // weigh 0, yet every edge entering or leaving the tree looked its ends'
  // lists up: 24-byte headers spread over every vertex, a cache and TLB
  // miss each. These bits stay in the cache.
  std::vector<bool> has_zero_edge_;
  std::vector<uint32_t> visit_mark_;
  uint32_t visit_round_ = 0;
  std::vector<Vertex> queue_;
};

}  // namespace tracesync::network
