// SPDX-License-Identifier: EPL-2.0
#include "network/spanning_forest.h"

#include <algorithm>

#include "network/edge_order.h"

namespace tracesync::network {

Vertex SpanningForest::add_vertex(std::string id) {
  tree_.add_vertex();  // first: it is the one that may refuse
  ids_.push_back(std::move(id));
  tree_records_.emplace_back();  // the edge slot the new vertex brings
  adjacency_.invalidate();
  return islands_.add();
}

void SpanningForest::reserve(std::size_t vertices, std::size_t edges) {
  ids_.reserve(vertices);
  tree_.reserve(vertices);
  tree_records_.reserve(vertices);
  islands_.reserve(vertices);
  non_tree_.reserve(edges);
}

LinkCutTree::Node SpanningForest::tree_edge(Vertex low, Vertex high) {
  if (low == high || islands_.find(low) != islands_.find(high)) return LinkCutTree::kNone;
  const LinkCutTree::MaxEdge heaviest = tree_.max_edge_on_path(low, high);
  return is_edge(heaviest, low, high) ? heaviest.node : LinkCutTree::kNone;
}

std::span<const SpanningForest::TreeNeighbour> SpanningForest::tree_neighbours(Vertex v) {
  if (!adjacency_.fresh()) {
    adjacency_.rebuild(vertex_count(), [&](auto&& f) {
      for_each_tree_edge([&](const EdgeRecord& edge, LinkCutTree::Node node) { f(edge.low, edge.high, node); });
    });
  }
  return adjacency_.of(v);
}

bool SpanningForest::has_edge(Vertex a, Vertex b) {
  const Vertex low = std::min(a, b);
  const Vertex high = std::max(a, b);
  return tree_edge(low, high) != LinkCutTree::kNone || non_tree_.contains(low, high);
}

void SpanningForest::add_non_tree_edge(const EdgeRecord& edge) {
  non_tree_.add(edge);
  if (non_tree_.wants_compaction()) compact_non_tree_edges();
}

void SpanningForest::compact_non_tree_edges() {
  std::vector<uint64_t> tree_keys;
  for_each_tree_edge(
      [&](const EdgeRecord& edge, LinkCutTree::Node) { tree_keys.push_back(NonTreeEdges::key(edge.low, edge.high)); });
  std::sort(tree_keys.begin(), tree_keys.end());
  non_tree_.compact(tree_keys);
}

bool SpanningForest::beats(const EdgeRecord& edge, const LinkCutTree::MaxEdge& tree_edge) const {
  // The tree edge's weight comes with the path query (no lookup, no cache miss).
  if (edge.weight != tree_edge.weight) return edge.weight < tree_edge.weight;
  return edge_key(edge.weight, ids_[edge.low], ids_[edge.high]) <
         edge_key(tree_edge.weight, ids_[tree_.edge_low(tree_edge.node)], ids_[tree_.edge_high(tree_edge.node)]);
}

bool SpanningForest::key_less(const EdgeRecord& x, const EdgeRecord& y) const {
  if (x.weight != y.weight) return x.weight < y.weight;
  return edge_key(x.weight, ids_[x.low], ids_[x.high]) < edge_key(y.weight, ids_[y.low], ids_[y.high]);
}

PathTransform SpanningForest::leaf(const EdgeRecord& edge) {
  return PathTransform::edge(edge.low, edge.high, edge.transform, edge.maps_high_onto_low, edge.uncertainty_ns);
}

void SpanningForest::link(const EdgeRecord& edge) {
  const LinkCutTree::Node node = tree_.link(edge.low, edge.high, edge.weight, leaf(edge));
  record_of(node) = edge;
  adjacency_.invalidate();
}

void SpanningForest::unlink(LinkCutTree::Node node) {
  const EdgeRecord& edge = record_of(node);  // the slot's record stays until the next link
  tree_.cut(node);
  adjacency_.invalidate();
  add_non_tree_edge(edge);
}

ForestChange SpanningForest::set_edge(Vertex a, Vertex b, const EdgeEstimate& estimate) {
  EdgeRecord given;
  given.low = std::min(a, b);
  given.high = std::max(a, b);
  given.maps_high_onto_low = a == given.low;  // b_onto_a maps b onto a
  given.transform = estimate.b_onto_a;
  given.weight = estimate.weight;
  given.uncertainty_ns = estimate.uncertainty_ns;

  const Vertex island_low = islands_.find(given.low);
  const Vertex island_high = islands_.find(given.high);
  if (island_low != island_high) {
    // A new edge between two islands joins them.
    link(given);
    ForestChange change;
    change.entered = ForestEdge{given.low, given.high, given.weight};
    change.joined = islands_.unite(island_low, island_high);
    return change;
  }
  const LinkCutTree::MaxEdge heaviest = tree_.max_edge_on_path(given.low, given.high);
  if (is_edge(heaviest, given.low, given.high)) return update_tree_edge(heaviest.node, given);
  // A new edge, or a non-tree edge with a new weight: either way the cycle
  // rule decides (a non-tree edge that got worse still loses to its path).
  return offer(given, heaviest);
}

ForestChange SpanningForest::update_tree_edge(LinkCutTree::Node node, const EdgeRecord& given) {
  EdgeRecord& edge = record_of(node);
  const double old_weight = edge.weight;
  const model::LinearTransform& stored_direction = edge.maps_high_onto_low == given.maps_high_onto_low
                                                       ? given.transform
                                                       : given.transform.inverse();  // a caller switching sides: rare
  const bool transform_changed = edge.transform.slope != stored_direction.slope ||
                                 edge.transform.offset != stored_direction.offset ||
                                 edge.uncertainty_ns != given.uncertainty_ns;
  edge = given;

  if (edge.weight > old_weight) return replace_after_increase(node);
  ForestChange change;
  if (edge.weight != old_weight) {
    tree_.set_edge_weight(node, edge.weight);
    change.reweighted = ForestEdge{edge.low, edge.high, edge.weight};
  }
  if (transform_changed) {
    tree_.set_edge_transform(node, leaf(edge));
    change.transform_changed = true;
  }
  return change;
}

ForestChange SpanningForest::offer(const EdgeRecord& edge, const LinkCutTree::MaxEdge& heaviest) {
  // The edge and the tree path between its ends form a cycle, whose largest key must go.
  ForestChange change;
  if (!beats(edge, heaviest)) {
    add_non_tree_edge(edge);
    return change;
  }
  const EdgeRecord& leaving = record_of(heaviest.node);
  change.left = ForestEdge{leaving.low, leaving.high, leaving.weight};
  unlink(heaviest.node);
  link(edge);
  change.entered = ForestEdge{edge.low, edge.high, edge.weight};
  return change;
}

ForestChange SpanningForest::replace_after_increase(LinkCutTree::Node node) {
  // The forest minus this edge is still minimum for its two sides; the
  // lightest edge across the cut reconnects them, this one included.
  const EdgeRecord edge = record_of(node);
  unlink(node);  // logs it: it competes with the others below
  const Vertex island = islands_.find(edge.low);
  compact_non_tree_edges();  // one record per edge, the tree's own dropped
  const EdgeRecord* best = nullptr;
  non_tree_.for_each([&](const EdgeRecord& other) {
    if (best != nullptr && !key_less(other, *best)) return;
    if (islands_.find(other.low) != island) return;
    if (!tree_.connected(other.low, other.high)) best = &other;
  });
  link(*best);  // `edge` at least reconnects the sides
  ForestChange change;
  if (best->low == edge.low && best->high == edge.high) {
    change.reweighted = ForestEdge{edge.low, edge.high, edge.weight};
    change.transform_changed = true;
  } else {
    change.left = ForestEdge{edge.low, edge.high, edge.weight};
    change.entered = ForestEdge{best->low, best->high, best->weight};
  }
  return change;
}

}  // namespace tracesync::network
