#include "network/link_cut_tree.h"

#include <utility>

#include "network/edge_order.h"

namespace tracesync::network {

LinkCutTree::LinkCutTree(const std::vector<std::string>& vertex_ids)
    : vertex_ids_(&vertex_ids),
      nodes_(1),
      key_(1, kNoKey),
      reversed_(1, 0),
      leaf_(1),
      aggregate_(1),
      aggregate_fresh_(1, 1) {}

void LinkCutTree::add_vertex() {
  const auto v = static_cast<Vertex>(edge_ends_.size());
  // Vertex v brings node 2v+1 and edge slot v (node 2v+2): a forest has
  // fewer edges than vertices, so slots never run out.
  NodeData vertex;
  vertex.size = 1;
  nodes_.push_back(vertex);
  nodes_.push_back(NodeData{});
  key_.resize(nodes_.size(), kNoKey);
  reversed_.resize(nodes_.size(), 0);
  edge_ends_.push_back({});
  leaf_.push_back(PathTransform::vertex(v));
  leaf_.push_back(PathTransform{});
  aggregate_.resize(nodes_.size());
  aggregate_fresh_.resize(nodes_.size(), 0);
  free_slots_.push_back(v);
}

void LinkCutTree::reserve(std::size_t vertices) {
  const std::size_t nodes = 2 * vertices + 1;
  nodes_.reserve(nodes);
  key_.reserve(nodes);
  reversed_.reserve(nodes);
  leaf_.reserve(nodes);
  aggregate_.reserve(nodes);
  aggregate_fresh_.reserve(nodes);
  edge_ends_.reserve(vertices);
  free_slots_.reserve(vertices);
}

bool LinkCutTree::tie_less(Node a, Node b) const {
  const auto& ids = *vertex_ids_;
  const EdgeEnds& x = edge_ends_[slot(a)];
  const EdgeEnds& y = edge_ends_[slot(b)];
  const double weight = weight_of(key_[a]);
  return edge_key(weight, ids[x.low], ids[x.high]) < edge_key(weight, ids[y.low], ids[y.high]);
}

// The splay primitives run tens of millions of times in the benchmark: inlined.
#define TRACESYNC_HOT [[gnu::always_inline]] inline

TRACESYNC_HOT void LinkCutTree::pull(Node x) {
  NodeData& n = nodes_[x];
  const NodeData& left = nodes_[n.child[0]];
  const NodeData& right = nodes_[n.child[1]];
  n.size = left.size + right.size + own_size(x) + n.virtual_size;
  uint64_t best_key = key_[x];
  Node best = best_key == kNoKey ? kNone : x;
  keep_larger(best, best_key, left.max_edge, left.max_key);
  keep_larger(best, best_key, right.max_edge, right.max_key);
  n.max_edge = best;
  n.max_key = best_key;
  aggregate_fresh_[x] = 0;
}

TRACESYNC_HOT void LinkCutTree::flip(Node x) {
  NodeData& n = nodes_[x];
  std::swap(n.child[0], n.child[1]);
  reversed_[x] ^= 1;
  if (aggregate_fresh_[x]) aggregate_[x] = aggregate_[x].reversed();
}

TRACESYNC_HOT void LinkCutTree::push(Node x) {
  if (!reversed_[x]) return;
  const NodeData& n = nodes_[x];
  if (n.child[0] != kNone) flip(n.child[0]);
  if (n.child[1] != kNone) flip(n.child[1]);
  reversed_[x] = 0;
}

TRACESYNC_HOT void LinkCutTree::rotate(Node x) {
  const Node y = parent(x);
  const Node z = parent(y);
  const int side = nodes_[y].child[1] == x ? 1 : 0;
  if (is_splay_root(y)) {
    // x takes y's place at the top, path-parent included.
    set_splay_root(x, true);
    set_splay_root(y, false);
  } else {
    nodes_[z].child[nodes_[z].child[1] == y ? 1 : 0] = x;
  }
  set_parent(x, z);
  const Node moved = nodes_[x].child[1 - side];
  nodes_[y].child[side] = moved;
  if (moved != kNone) set_parent(moved, y);
  nodes_[x].child[1 - side] = y;
  set_parent(y, x);
  pull(y);
}

void LinkCutTree::splay(Node x) {
  // Pending flips must reach x before rotations read child sides.
  scratch_.clear();
  for (Node y = x;; y = parent(y)) {
    scratch_.push_back(y);
    if (is_splay_root(y)) break;
  }
  for (auto it = scratch_.rbegin(); it != scratch_.rend(); ++it) push(*it);

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
    if (split_off_ != kNone) set_splay_root(split_off_, true);
    if (last != kNone) set_splay_root(last, false);
    n.virtual_size += nodes_[n.child[1]].size;
    n.virtual_size -= nodes_[last].size;
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
  key_[e] = key_of(weight);
  reversed_[e] = 0;
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
  nodes_[e].virtual_size += nodes_[h].size;
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
  key_[edge] = kNoKey;
  reversed_[edge] = 0;
  free_slots_.push_back(slot(edge));
}

void LinkCutTree::set_edge_weight(Node edge, double weight) {
  splay(edge);  // at its splay root, only its own aggregate depends on it
  key_[edge] = key_of(weight);
  pull(edge);
}

void LinkCutTree::set_edge_transform(Node edge, const PathTransform& leaf) {
  splay(edge);
  leaf_[edge] = leaf;
  aggregate_fresh_[edge] = 0;
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
  uint64_t best_key = key_[lca];
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

uint32_t LinkCutTree::side_size(Vertex near, Vertex far) {
  make_root(vertex_node(near));
  const Node x = vertex_node(far);
  access(x);
  // x ends the preferred path: everything beyond it hangs off virtually.
  return own_size(x) + nodes_[x].virtual_size;
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
    const uint32_t side = after + nodes_[n.child[1]].size + own_size(t) + n.virtual_size;
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
  if (aggregate_fresh_[x]) return aggregate_[x];
  // Post-order over the stale part of the splay subtree; fresh subtrees are reused.
  std::vector<Node> stack{x};
  while (!stack.empty()) {
    const Node t = stack.back();
    if (aggregate_fresh_[t]) {
      stack.pop_back();
      continue;
    }
    push(t);
    const Node left = nodes_[t].child[0];
    const Node right = nodes_[t].child[1];
    if (left != kNone && !aggregate_fresh_[left]) {
      stack.push_back(left);
      continue;
    }
    if (right != kNone && !aggregate_fresh_[right]) {
      stack.push_back(right);
      continue;
    }
    PathTransform result = leaf_[t];
    if (left != kNone) result = join(aggregate_[left], result);
    if (right != kNone) result = join(result, aggregate_[right]);
    aggregate_[t] = result;
    aggregate_fresh_[t] = 1;
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
