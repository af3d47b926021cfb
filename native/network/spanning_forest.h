// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "network/edge_record.h"
#include "network/islands.h"
#include "network/link_cut_tree.h"
#include "network/network.h"
#include "network/non_tree_edges.h"
#include "network/tree_adjacency.h"

namespace tracesync::network {

// A tree edge as reported in a ForestChange.
struct ForestEdge {
  Vertex low;
  Vertex high;
  double weight;
};

// What one set_edge did to the forest.
struct ForestChange {
  std::optional<ForestEdge> entered;     // became a tree edge
  std::optional<ForestEdge> left;        // stopped being one; `entered` replaced it in the same island
  std::optional<ForestEdge> reweighted;  // a tree edge that stayed, with its new weight
  // Set when `entered` joined two islands: their representatives before
  // (kept is also the representative after).
  std::optional<std::pair<Vertex, Vertex>> joined;
  bool transform_changed = false;  // a tree edge kept its place but got a new transform or uncertainty

  bool tree_changed() const { return entered || left || reweighted || transform_changed; }
};

// The minimum spanning forest of the synchronization graph under the total
// edge order of edge_order.h, kept incrementally (the thesis' ch. 5, with
// link-cut trees):
//  - an edge between two islands joins them;
//  - an edge inside an island enters when its key is below the largest key
//    on the tree path between its ends, which it then replaces (cycle rule);
//  - a decrease of a tree edge's weight changes nothing else; a decrease of
//    a non-tree edge is the cycle rule again;
//  - an increase of a non-tree edge changes nothing; an increase of a tree
//    edge cuts it and takes the smallest edge that reconnects the two sides,
//    itself included. That scan is O(m log n) over the island's edges, but
//    the default estimator only ever improves links, so it never runs there.
// Each update is O(log n) amortized otherwise.
class SpanningForest {
 public:
  SpanningForest() : tree_(ids_) {}
  SpanningForest(const SpanningForest&) = delete;
  SpanningForest& operator=(const SpanningForest&) = delete;

  Vertex add_vertex(std::string id);
  // Capacity hints (like std::vector::reserve): no regrowth below these sizes.
  void reserve(std::size_t vertices, std::size_t edges);
  std::size_t vertex_count() const { return ids_.size(); }
  const std::string& id(Vertex v) const { return ids_[v]; }

  // Inserts or updates edge (a, b); `estimate.b_onto_a` maps b onto a.
  // Preconditions (checked by the network): valid distinct vertices, weight >= 0.
  ForestChange set_edge(Vertex a, Vertex b, const EdgeEstimate& estimate);

  // O(log n) amortized: a path query (which restructures the trees).
  bool in_tree(Vertex a, Vertex b) { return tree_edge(std::min(a, b), std::max(a, b)) != LinkCutTree::kNone; }
  // Whether set_edge(a, b, ...) was ever called. O(m): for rare rebuilds.
  bool has_edge(Vertex a, Vertex b);
  // f(const EdgeRecord&) for every edge with its latest estimate: the tree
  // edges, then the others.
  template <typename F>
  void for_each_edge(F&& f) {
    for_each_tree_edge([&](const EdgeRecord& edge, LinkCutTree::Node) { f(edge); });
    compact_non_tree_edges();
    non_tree_.for_each(f);
  }

  // Island representative and size (vertex count).
  Vertex island_of(Vertex v) { return islands_.find(v); }

  // v's neighbours in the forest, with the link-cut tree node of each edge.
  // The first read after a change of the tree rebuilds every list: O(n).
  using TreeNeighbour = TreeAdjacency::Neighbour;
  std::span<const TreeNeighbour> tree_neighbours(Vertex v);
  uint32_t island_size(Vertex representative) const { return islands_.size(representative); }

  LinkCutTree& tree() { return tree_; }

 private:
  bool key_less(const EdgeRecord& x, const EdgeRecord& y) const;
  bool beats(const EdgeRecord& edge, const LinkCutTree::MaxEdge& tree_edge) const;
  static PathTransform leaf(const EdgeRecord& edge);
  EdgeRecord& record_of(LinkCutTree::Node node) { return tree_records_[LinkCutTree::edge_slot(node)]; }
  // The tree edge (low, high), or kNone.
  LinkCutTree::Node tree_edge(Vertex low, Vertex high);
  // Whether the path whose maximum this is consists of edge (low, high) alone.
  bool is_edge(const LinkCutTree::MaxEdge& path_max, Vertex low, Vertex high) const {
    return path_max.one_end_above_the_other && tree_.edge_low(path_max.node) == low &&
           tree_.edge_high(path_max.node) == high;
  }
  // f(record, node) for every tree edge, by slot.
  template <typename F>
  void for_each_tree_edge(F&& f) {
    for (uint32_t s = 0; s < tree_.edge_slots(); ++s) {
      if (tree_.slot_in_use(s)) f(tree_records_[s], LinkCutTree::edge_of_slot(s));
    }
  }
  void add_non_tree_edge(const EdgeRecord& edge);
  void compact_non_tree_edges();
  void link(const EdgeRecord& edge);
  // Cuts a tree edge and logs it among the non-tree edges.
  void unlink(LinkCutTree::Node node);
  // The cycle rule for an edge that is not a tree edge, given the largest
  // key on the tree path between its ends.
  ForestChange offer(const EdgeRecord& edge, const LinkCutTree::MaxEdge& heaviest);
  ForestChange update_tree_edge(LinkCutTree::Node node, const EdgeRecord& given);
  ForestChange replace_after_increase(LinkCutTree::Node node);

  std::vector<std::string> ids_;
  LinkCutTree tree_;
  base::HugePageVector<EdgeRecord> tree_records_;  // by link-cut tree edge slot
  NonTreeEdges non_tree_;
  Islands islands_;
  TreeAdjacency adjacency_;  // rebuilt when read after a link or cut
};

}  // namespace tracesync::network
