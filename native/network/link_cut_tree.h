// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/huge_page_vector.h"
#include "network/network.h"
#include "network/path_transform.h"

namespace tracesync::network {

// A forest of unrooted trees over clock domains, as link-cut trees (Sleator
// and Tarjan) on splay trees, amortized O(log n) per operation. Each tree
// edge is a node of its own between its two endpoints (the edge-as-vertex
// trick), so that path aggregates see edges:
//  - the edge with the largest key (EdgeKey order) on a path: the MST cycle test;
//  - how many vertices hang beyond each node of a path, through virtual-subtree
//    sizes: the reference (centroid) search;
//  - the composition of edge transforms along a path, both ways, with the sum
//    of uncertainties (PathTransform).
// Transform aggregates are quad-precision and costly, and only transform
// queries need them, so a rotation merely marks them stale; a query rebuilds
// the stale ones it reads. Restructuring stays integer-and-double work.
//
// Nodes are numbered so that vertex v is node 2v+1 and edge slot k is node
// 2k+2 (a forest over n vertices has fewer than n edges); 0 is "none", a
// sentinel whose zero size and aggregates stand for an empty subtree. Its
// parent word is written (rotations and exposes re-parent children without
// testing for none) and never read.
// Queries restructure the splay trees: nothing here is safe to share
// between threads, even read-only.
class LinkCutTree {
 public:
  using Node = uint32_t;
  static constexpr Node kNone = 0;
  // Node indices keep the top bit free (kSplayRoot) and sizes two (flags).
  static constexpr std::size_t kMaxVertices = (std::size_t{1} << 30) - 1;

  // `vertex_ids` names vertices for the EdgeKey tie-break; it must outlive this.
  explicit LinkCutTree(const std::vector<std::string>& vertex_ids);

  static Node vertex_node(Vertex v) { return 2 * v + 1; }
  static bool is_vertex_node(Node x) { return (x & 1U) != 0; }
  static Vertex vertex_of(Node x) { return (x - 1) / 2; }

  // A new isolated vertex; vertices are numbered densely from 0. Throws
  // std::length_error beyond kMaxVertices.
  void add_vertex();
  void reserve(std::size_t vertices);

  // Creates the tree edge (low, high) between two different trees and
  // returns its node. `leaf` carries its transform (PathTransform::edge).
  Node link(Vertex low, Vertex high, double weight, const PathTransform& leaf);
  // Deletes a tree edge created by link.
  void cut(Node edge);

  // Edge nodes are numbered densely from 0 by slot (fewer than the vertices).
  static uint32_t edge_slot(Node edge) { return slot(edge); }
  static Node edge_of_slot(uint32_t s) { return edge_node(s); }
  uint32_t edge_slots() const { return static_cast<uint32_t>(edge_ends_.size()); }
  // Whether slot s holds a tree edge now (a linked edge has a key, a cut one none).
  bool slot_in_use(uint32_t s) const { return key_[s + 1] != kNoKey; }
  Vertex edge_low(Node edge) const { return edge_ends_[slot(edge)].low; }
  Vertex edge_high(Node edge) const { return edge_ends_[slot(edge)].high; }
  double edge_weight(Node edge) const { return weight_of(key_[edge / 2]); }
  // The edge's own transform, as given to link or set_edge_transform.
  const PathTransform& edge_transform(Node edge) const { return leaf_[edge]; }
  // Changes an edge's key or transform in place (the tree is unchanged).
  void set_edge_weight(Node edge, double weight);
  void set_edge_transform(Node edge, const PathTransform& leaf);

  // The edge with the largest key on the path between two different
  // vertices of one tree, and its weight.
  struct MaxEdge {
    Node node;
    double weight;
    // Whether one end lies on the path from the other to the tree root, as
    // it must when the path is a single edge (telling that costs nothing).
    bool one_end_above_the_other;
  };
  MaxEdge max_edge_on_path(Vertex a, Vertex b);

  bool connected(Vertex a, Vertex b);

  // Number of vertices of the tree containing v.
  uint32_t tree_size(Vertex v);

  // The number of vertices on `far`'s side of the tree edge between `near`
  // and `far` (two different vertices of one tree), or nothing when no
  // edge joins them: one access answers both.
  std::optional<uint32_t> side_size(Vertex near, Vertex far);

  // On the path from `root` to `target` (one tree of `total` vertices),
  // the vertex farthest from `root` whose side, away from root, holds more
  // than half the vertices: the tree's centroid when one lies on that path.
  // `next` is the following vertex on the path when its side holds exactly
  // half (a second centroid).
  struct HeavyVertex {
    Vertex vertex;
    std::optional<Vertex> next_with_half;
  };
  HeavyVertex deepest_heavy_vertex(Vertex root, Vertex target, uint32_t total);

  // The composition of transforms from `from` to `to` (same tree):
  // first = from, last = to.
  PathTransform path_transform(Vertex from, Vertex to);

 private:
  // The fields every splay step touches, in 32 bytes: one cache line holds
  // a node whole (the forest is memory-bound: a rotation costs its misses).
  struct alignas(32) NodeData {
    Node child[2] = {kNone, kNone};
    // The splay parent, or the path-parent from a splay root; the top bit
    // (kSplayRoot) marks splay roots, so that telling one needs no look at
    // the parent's children (a cache miss per level on a large forest).
    // Nothing else lives here: a rotation re-parents a subtree it does not
    // otherwise touch with a plain store, no load of that cold node.
    uint32_t parent_word = kSplayRoot;
    Node max_edge = kNone;      // largest-key edge node in this splay subtree
    // The vertices in the subtrees hanging off by path-parent links (the
    // low bits, kSizeBits), and the flags kReversed and kFresh: in the
    // node's line, not in arrays of their own, where each pull and push
    // would touch one more line.
    uint32_t virtual_word = 0;
    uint32_t size = 0;          // vertices in this splay subtree and everything hanging off it
    uint64_t max_key = kNoKey;  // key of max_edge (see key_of)
  };
  struct EdgeEnds {
    Vertex low = 0;
    Vertex high = 0;
  };
  static constexpr uint64_t kNoKey = 0;
  static constexpr uint32_t kSplayRoot = 0x80000000U;
  // In virtual_word: the node's children's subtrees still have to be
  // flipped (a pending reversal); aggregate_[node] is up to date.
  static constexpr uint32_t kReversed = 0x80000000U;
  static constexpr uint32_t kFresh = 0x40000000U;
  static constexpr uint32_t kSizeBits = kFresh - 1;
  // A weight's place in the order as an integer: the bits of a non-negative
  // double grow with its value, so comparing keys is comparing weights
  // (+1 keeps 0 for "no edge"; adding 0.0 turns -0.0 into +0.0).
  static uint64_t key_of(double weight) { return std::bit_cast<uint64_t>(weight + 0.0) + 1; }
  static double weight_of(uint64_t key) { return std::bit_cast<double>(key - 1); }

  static uint32_t slot(Node edge) { return edge / 2 - 1; }
  static Node edge_node(uint32_t slot) { return 2 * slot + 2; }
  static uint32_t own_size(Node x) { return x & 1U; }
  // Edge node 2s+2 keeps its key at key_[s+1]; every vertex node reads
  // key_[0], kNoKey, one entry that stays cached (computed, not branched
  // on: the kind of the nodes a rotation pulls follows no pattern).
  uint64_t own_key(Node x) const { return key_[(x >> 1) & ((x & 1U) - 1U)]; }
  uint64_t& key_slot(Node edge) { return key_[edge / 2]; }

  // Between two edges of equal weight: the ids decide (EdgeKey).
  bool tie_less(Node a, Node b) const;
  // Keeps in (best, best_key) the larger of itself and (candidate, candidate_key).
  void keep_larger(Node& best, uint64_t& best_key, Node candidate, uint64_t candidate_key) const {
    if (candidate_key == best_key && candidate_key != kNoKey) [[unlikely]] {
      if (tie_less(best, candidate)) best = candidate;
      return;
    }
    const bool larger = candidate_key > best_key;
    best = larger ? candidate : best;
    best_key = larger ? candidate_key : best_key;
  }
  bool is_splay_root(Node x) const { return (nodes_[x].parent_word & kSplayRoot) != 0; }
  Node parent(Node x) const { return nodes_[x].parent_word & ~kSplayRoot; }
  void set_parent(Node x, Node p) { nodes_[x].parent_word = (nodes_[x].parent_word & kSplayRoot) | p; }
  uint32_t virtual_size(Node x) const { return nodes_[x].virtual_word & kSizeBits; }
  bool is_fresh(Node x) const { return (nodes_[x].virtual_word & kFresh) != 0; }
  void set_fresh(Node x, bool fresh) {
    nodes_[x].virtual_word = (nodes_[x].virtual_word & ~kFresh) | (fresh ? kFresh : 0);
  }
  void pull(Node x);
  void flip(Node x);
  void push(Node x);
  void rotate(Node x);
  void splay(Node x);
  // Makes the path from x's tree root to x preferred; x ends at the root of
  // its splay tree. Returns the last node where the path joined the root's
  // splay tree (the lowest common ancestor with the previously accessed node).
  Node access(Node x);
  // access without the final splay of x: for when only the path's shape matters.
  Node expose(Node x);
  void make_root(Node x);
  void detach_child(Node parent_node, Node child);  // parent_node: its tree's root, child right below
  Node leftmost(Node x);
  const PathTransform& fresh_transform(Node x);

  const std::vector<std::string>* vertex_ids_;
  base::HugePageVector<NodeData> nodes_;
  base::HugePageVector<uint64_t> key_;      // per edge slot + 1: key_of(the edge's weight) (see own_key)
  base::HugePageVector<EdgeEnds> edge_ends_;
  base::HugePageVector<PathTransform> leaf_;        // per node: its own transform
  base::HugePageVector<PathTransform> aggregate_;   // per node: the composition over its splay subtree
  std::vector<uint32_t> free_slots_;
  std::vector<Node> scratch_;
  // The node last made root of its tree, while it still is: reading many
  // transforms from one reference re-roots once.
  Node rooted_at_ = kNone;
  // The splay tree the last expose step cut off below its top node.
  Node split_off_ = kNone;
};

}  // namespace tracesync::network
