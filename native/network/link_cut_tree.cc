// SPDX-License-Identifier: EPL-2.0
#include "network/link_cut_tree.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "network/edge_order.h"

namespace tracesync::network {

LinkCutTree::LinkCutTree(const std::vector<std::string>& vertex_ids)
    : vertex_ids_(&vertex_ids),
      nodes_(1),
      key_(1, kNoKey),
      leaf_(1),
      aggregate_(1) {}

void LinkCutTree::add_vertex() {
  if (edge_ends_.size() >= kMaxVertices) {
    throw std::length_error("a link-cut tree holds at most " + std::to_string(kMaxVertices) + " vertices");
  }
  const auto v = static_cast<Vertex>(edge_ends_.size());
  // Vertex v brings node 2v+1 and edge slot v (node 2v+2): a forest has
  // fewer edges than vertices, so slots never run out.
  NodeData vertex;
  vertex.size = 1;
  nodes_.push_back(vertex);
  nodes_.push_back(NodeData{});
  key_.push_back(kNoKey);
  edge_ends_.push_back({});
  leaf_.push_back(PathTransform::vertex(v));
  leaf_.push_back(PathTransform{});
  aggregate_.resize(nodes_.size());
  free_slots_.push_back(v);
}

void LinkCutTree::reserve(std::size_t vertices) {
  const std::size_t nodes = 2 * vertices + 1;
  nodes_.reserve(nodes);
  key_.reserve(vertices + 1);
  leaf_.reserve(nodes);
  aggregate_.reserve(nodes);
  edge_ends_.reserve(vertices);
  free_slots_.reserve(vertices);
}

bool LinkCutTree::tie_less(Node a, Node b) const {
  const auto& ids = *vertex_ids_;
  const EdgeEnds& x = edge_ends_[slot(a)];
  const EdgeEnds& y = edge_ends_[slot(b)];
  const double weight = weight_of(own_key(a));
  return edge_key(weight, ids[x.low], ids[x.high]) < edge_key(weight, ids[y.low], ids[y.high]);
}

// The splay primitives run tens of millions of times in the benchmark: inlined.
#define TRACESYNC_HOT [[gnu::always_inline]] inline

TRACESYNC_HOT void LinkCutTree::pull(Node x) {
  NodeData& n = nodes_[x];
  const NodeData& left = nodes_[n.child[0]];
  const NodeData& right = nodes_[n.child[1]];
  n.size = left.size + right.size + own_size(x) + (n.virtual_word & kSizeBits);
  uint64_t best_key = own_key(x);
  Node best = x & ((x & 1U) - 1U);  // kNone for a vertex, as it has no key
  keep_larger(best, best_key, left.max_edge, left.max_key);
  keep_larger(best, best_key, right.max_edge, right.max_key);
  n.max_edge = best;
  n.max_key = best_key;
  n.virtual_word &= ~kFresh;
}

TRACESYNC_HOT void LinkCutTree::flip(Node x) {
  NodeData& n = nodes_[x];
  std::swap(n.child[0], n.child[1]);
  n.virtual_word ^= kReversed;
  if ((n.virtual_word & kFresh) != 0) aggregate_[x] = aggregate_[x].reversed();
}

TRACESYNC_HOT void LinkCutTree::push(Node x) {
  NodeData& n = nodes_[x];
  if ((n.virtual_word & kReversed) == 0) return;
  if (n.child[0] != kNone) flip(n.child[0]);
  if (n.child[1] != kNone) flip(n.child[1]);
  n.virtual_word &= ~kReversed;
}

TRACESYNC_HOT void LinkCutTree::rotate(Node x) {
  NodeData& nx = nodes_[x];
  const Node y = parent(x);
  NodeData& ny = nodes_[y];
  const uint32_t y_word = ny.parent_word;
  const int side = ny.child[1] == x ? 1 : 0;
  if ((y_word & kSplayRoot) == 0) {
    NodeData& nz = nodes_[y_word];
    nz.child[nz.child[1] == y ? 1 : 0] = x;
  }
  nx.parent_word = y_word;  // x takes y's place: its parent, or its root mark and path-parent
  const Node moved = nx.child[1 - side];
  ny.child[side] = moved;
  nodes_[moved].parent_word = y;  // a splay child; kNone's word is written, never read
  nx.child[1 - side] = y;
  ny.parent_word = x;
  pull(y);
}

void LinkCutTree::splay(Node x) {
  // Pending flips must reach x before rotations read child sides. The
  // walk up to the splay root brings the path into the cache and tells
  // whether any flip is pending; only then is the path walked again.
  uint32_t seen = 0;
  for (Node y = x;;) {
    const NodeData& n = nodes_[y];
    seen |= n.virtual_word;
    // The rotations pull the subtrees they move beneath other nodes: those
    // lines load now, side by side, rather than one pull at a time.
    __builtin_prefetch(&nodes_[n.child[0]]);
    __builtin_prefetch(&nodes_[n.child[1]]);
    if ((n.parent_word & kSplayRoot) != 0) {
      // An expose splays the path-parent next: its line loads while x rotates.
      __builtin_prefetch(&nodes_[n.parent_word & ~kSplayRoot]);
      break;
    }
    y = n.parent_word;
  }
  if ((seen & kReversed) != 0) {
    scratch_.clear();
    for (Node y = x;; y = parent(y)) {
      scratch_.push_back(y);
      if (is_splay_root(y)) break;
    }
    for (auto it = scratch_.rbegin(); it != scratch_.rend(); ++it) push(*it);
  }

  while (!is_splay_root(x)) {
    const Node y = parent(x);
    if (!is_splay_root(y)) {
      const Node z = parent(y);
      const bool zig_zig = (nodes_[y].child[0] == x) == (nodes_[z].child[0] == y);
      rotate(zig_zig ? y : x);
    }
    rotate(x);
  }
  pull(x);
}

LinkCutTree::Node LinkCutTree::expose(Node x) {
  Node last = kNone;
  for (Node y = x; y != kNone; y = parent(y)) {
    splay(y);
    NodeData& n = nodes_[y];
    // The old preferred child turns virtual, the path from below turns preferred.
    split_off_ = n.child[1];
    // Both hang from y, so plain stores set their words: no load of
    // split_off_, which is off the path and cold (nor a test for kNone).
    nodes_[split_off_].parent_word = kSplayRoot | y;
    nodes_[last].parent_word = y;
    // Sizes stay within kSizeBits, so the sums leave the flags alone.
    n.virtual_word += nodes_[n.child[1]].size;
    n.virtual_word -= nodes_[last].size;
    n.child[1] = last;
    pull(y);
    last = y;
  }
  return last;
}

LinkCutTree::Node LinkCutTree::access(Node x) {
  const Node last = expose(x);
  splay(x);
  return last;
}

void LinkCutTree::make_root(Node x) {
  access(x);
  flip(x);
  rooted_at_ = x;
}

LinkCutTree::Node LinkCutTree::leftmost(Node x) {
  for (;;) {
    push(x);
    const Node left = nodes_[x].child[0];
    if (left == kNone) return x;
    x = left;
  }
}

LinkCutTree::Node LinkCutTree::link(Vertex low, Vertex high, double weight, const PathTransform& leaf) {
  const uint32_t s = free_slots_.back();
  free_slots_.pop_back();
  const Node e = edge_node(s);
  nodes_[e] = NodeData{};
  key_slot(e) = key_of(weight);
  edge_ends_[s] = {low, high};
  leaf_[e] = leaf;
  pull(e);
  // The edge node hangs below low: it carries no vertex, so no size on
  // low's side changes, and a path-parent pointer is all it takes.
  set_parent(e, vertex_node(low));
  // high's tree, re-rooted at high, hangs below the edge node.
  const Node h = vertex_node(high);
  make_root(h);
  access(e);
  set_parent(h, e);  // a path-parent: h stays a splay root
  nodes_[e].virtual_word += nodes_[h].size;
  pull(e);
  rooted_at_ = kNone;  // h's tree now hangs below another root
  return e;
}

void LinkCutTree::detach_child(Node parent_node, Node child) {
  // The path from the tree root to child is [parent_node, child].
  access(child);
  nodes_[parent_node].parent_word = kSplayRoot;
  nodes_[child].child[0] = kNone;
  pull(child);
}

void LinkCutTree::cut(Node edge) {
  const EdgeEnds ends = edge_ends_[slot(edge)];
  // No re-rooting: access the edge node; the path above it ends at its
  // tree parent, one endpoint, and comes off as a tree of its own. The
  // other endpoint then hangs right below the edge node. (Trees are only
  // ever re-rooted at vertices, so an edge node always has a tree parent.)
  access(edge);
  const Node upper = nodes_[edge].child[0];
  Node above = upper;
  for (;;) {
    push(above);
    const Node right = nodes_[above].child[1];
    if (right == kNone) break;
    above = right;
  }
  nodes_[upper].parent_word = kSplayRoot;
  nodes_[edge].child[0] = kNone;
  pull(edge);
  splay(above);  // pays for the descent
  const Vertex below = vertex_of(above) == ends.low ? ends.high : ends.low;
  detach_child(edge, vertex_node(below));
  nodes_[edge] = NodeData{};
  key_slot(edge) = kNoKey;
  free_slots_.push_back(slot(edge));
}

void LinkCutTree::set_edge_weight(Node edge, double weight) {
  splay(edge);  // at its splay root, only its own aggregate depends on it
  key_slot(edge) = key_of(weight);
  pull(edge);
}

void LinkCutTree::set_edge_transform(Node edge, const PathTransform& leaf) {
  splay(edge);
  leaf_[edge] = leaf;
  set_fresh(edge, false);
}

LinkCutTree::MaxEdge LinkCutTree::max_edge_on_path(Vertex a, Vertex b) {
  const Node x = vertex_node(a);
  const Node y = vertex_node(b);
  // No re-rooting: after exposing x, exposing y stops at their lowest
  // common ancestor, which splits the path into lca..y (its splay tree)
  // and the rest of x's preferred path, now a splay tree of its own.
  expose(x);
  const Node lca = expose(y);
  // lca is now the root of the top splay tree, (lca, y] its right subtree;
  // (lca, x] came off it as the splay tree rooted at split_off_.
  uint64_t best_key = own_key(lca);
  Node best = best_key == kNoKey ? kNone : lca;
  const NodeData& towards_y = nodes_[nodes_[lca].child[1]];
  keep_larger(best, best_key, towards_y.max_edge, towards_y.max_key);
  const NodeData& towards_x = nodes_[split_off_];
  keep_larger(best, best_key, towards_x.max_edge, towards_x.max_key);
  return {best, weight_of(best_key), lca == x || lca == y};
}

bool LinkCutTree::connected(Vertex a, Vertex b) {
  if (a == b) return true;
  const Node x = vertex_node(a);
  access(x);
  const Node root_a = leftmost(x);
  splay(root_a);
  const Node y = vertex_node(b);
  access(y);
  const Node root_b = leftmost(y);
  splay(root_b);
  return root_a == root_b;
}

uint32_t LinkCutTree::tree_size(Vertex v) {
  const Node x = vertex_node(v);
  access(x);
  return nodes_[x].size;
}

std::optional<uint32_t> LinkCutTree::side_size(Vertex near, Vertex far) {
  if (rooted_at_ != vertex_node(near)) make_root(vertex_node(near));
  const Node x = vertex_node(far);
  access(x);
  // x's left splay subtree is the path before it, from near: adjacent
  // vertices leave two nodes there, near and their edge (in either
  // order, as flips may be pending).
  const NodeData& before = nodes_[nodes_[x].child[0]];
  const Node only_child = before.child[0] | before.child[1];
  const bool two_nodes = (before.child[0] == kNone || before.child[1] == kNone) && only_child != kNone &&
                         (nodes_[only_child].child[0] | nodes_[only_child].child[1]) == kNone;
  if (!two_nodes) return std::nullopt;
  // x ends the preferred path: everything beyond it hangs off virtually.
  return own_size(x) + virtual_size(x);
}

LinkCutTree::HeavyVertex LinkCutTree::deepest_heavy_vertex(Vertex root, Vertex target, uint32_t total) {
  make_root(vertex_node(root));
  const Node top = vertex_node(target);
  access(top);
  // The splay tree of `top` holds the path root..target in order. The side
  // of a path node away from root is that node, the nodes after it, and
  // what hangs off them: it shrinks along the path, so descend to the last
  // node where it still holds more than half.
  Node best = kNone;
  Node last_visited = top;
  uint32_t after = 0;  // size hanging off the nodes after the current subtree
  for (Node t = top; t != kNone;) {
    push(t);
    last_visited = t;
    const NodeData& n = nodes_[t];
    const uint32_t side = after + nodes_[n.child[1]].size + own_size(t) + (n.virtual_word & kSizeBits);
    if (2ULL * side > total) {
      best = t;
      t = n.child[1];
    } else {
      after = side;
      t = n.child[0];
    }
  }
  splay(last_visited);  // pays for the descent
  // An edge node in the middle of a path has nothing hanging off it, so its
  // side equals its successor's: the deepest heavy node is a vertex.
  splay(best);
  HeavyVertex result{vertex_of(best), std::nullopt};
  const Node deeper = nodes_[best].child[1];
  if (deeper != kNone && 2ULL * nodes_[deeper].size == total) {
    const Node edge = leftmost(deeper);
    splay(edge);
    const EdgeEnds& ends = edge_ends_[slot(edge)];
    result.next_with_half = ends.low == result.vertex ? ends.high : ends.low;
  }
  return result;
}

const PathTransform& LinkCutTree::fresh_transform(Node x) {
  if (is_fresh(x)) return aggregate_[x];
  // Post-order over the stale part of the splay subtree; fresh subtrees are reused.
  std::vector<Node> stack{x};
  while (!stack.empty()) {
    const Node t = stack.back();
    if (is_fresh(t)) {
      stack.pop_back();
      continue;
    }
    push(t);
    const Node left = nodes_[t].child[0];
    const Node right = nodes_[t].child[1];
    if (left != kNone && !is_fresh(left)) {
      stack.push_back(left);
      continue;
    }
    if (right != kNone && !is_fresh(right)) {
      stack.push_back(right);
      continue;
    }
    PathTransform result = leaf_[t];
    if (left != kNone) result = join(aggregate_[left], result);
    if (right != kNone) result = join(result, aggregate_[right]);
    aggregate_[t] = result;
    set_fresh(t, true);
    stack.pop_back();
  }
  return aggregate_[x];
}

PathTransform LinkCutTree::path_transform(Vertex from, Vertex to) {
  if (from == to) return PathTransform::vertex(from);
  if (rooted_at_ != vertex_node(from)) make_root(vertex_node(from));
  const Node x = vertex_node(to);
  access(x);
  return fresh_transform(x);
}

}  // namespace tracesync::network
