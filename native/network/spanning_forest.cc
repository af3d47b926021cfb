#include "network/spanning_forest.h"

#include <algorithm>

#include "network/edge_order.h"

namespace tracesync::network {

Vertex SpanningForest::add_vertex(std::string id) {
  ids_.push_back(std::move(id));
  tree_.add_vertex();
  tree_neighbours_.emplace_back();
  return islands_.add();
}

void SpanningForest::reserve(std::size_t vertices, std::size_t edges) {
  ids_.reserve(vertices);
  tree_neighbours_.reserve(vertices);
  tree_.reserve(vertices);
  islands_.reserve(vertices);
  edges_.reserve(edges);
}

bool SpanningForest::in_tree(Vertex a, Vertex b) const {
  const EdgeTable::Edge* e = edges_.find(a, b);
  return e != nullptr && e->tree_node != EdgeTable::kNotInTree;
}

bool SpanningForest::beats(const EdgeTable::Edge& edge, const LinkCutTree::MaxEdge& tree_edge) const {
  // The tree edge's weight comes with the path query (no lookup, no cache miss).
  if (edge.weight != tree_edge.weight) return edge.weight < tree_edge.weight;
  return edge_key(edge.weight, ids_[edge.low], ids_[edge.high]) <
         edge_key(tree_edge.weight, ids_[tree_.edge_low(tree_edge.node)], ids_[tree_.edge_high(tree_edge.node)]);
}

bool SpanningForest::key_less(const EdgeTable::Edge& x, const EdgeTable::Edge& y) const {
  if (x.weight != y.weight) return x.weight < y.weight;
  return edge_key(x.weight, ids_[x.low], ids_[x.high]) < edge_key(y.weight, ids_[y.low], ids_[y.high]);
}

PathTransform SpanningForest::leaf(const EdgeTable::Edge& edge) const {
  return PathTransform::edge(edge.low, edge.high, edge.transform, edge.maps_high_onto_low, edge.uncertainty_ns);
}

void SpanningForest::link(EdgeTable::Edge& edge) {
  edge.tree_node = tree_.link(edge.low, edge.high, edge.weight, leaf(edge));
  if (neighbour_position_.size() <= edge.tree_node) neighbour_position_.resize(2 * vertex_count() + 1);
  for (const auto& [v, other] : {std::pair{edge.low, edge.high}, std::pair{edge.high, edge.low}}) {
    neighbour_position_[edge.tree_node][v == edge.low ? 0 : 1] = static_cast<uint32_t>(tree_neighbours_[v].size());
    tree_neighbours_[v].push_back({other, edge.tree_node});
  }
}

void SpanningForest::unlink(EdgeTable::Edge& edge) {
  tree_.cut(edge.tree_node);
  // O(1) removal from both neighbour lists (a star's centre has thousands).
  for (const Vertex v : {edge.low, edge.high}) {
    auto& list = tree_neighbours_[v];
    const uint32_t position = neighbour_position_[edge.tree_node][v == edge.low ? 0 : 1];
    const TreeNeighbour moved = list.back();
    list[position] = moved;
    list.pop_back();
    neighbour_position_[moved.edge][tree_.edge_low(moved.edge) == v ? 0 : 1] = position;
  }
  edge.tree_node = EdgeTable::kNotInTree;
}

ForestChange SpanningForest::set_edge(Vertex a, Vertex b, const EdgeEstimate& estimate) {
  const Vertex low = std::min(a, b);
  const Vertex high = std::max(a, b);
  const bool maps_high_onto_low = a == low;  // b_onto_a maps b onto a

  const auto [edge, added] = edges_.find_or_add(low, high);
  if (added) {
    edge.transform = estimate.b_onto_a;
    edge.maps_high_onto_low = maps_high_onto_low;
    edge.weight = estimate.weight;
    edge.uncertainty_ns = estimate.uncertainty_ns;
    return offer(edge);
  }
  const double old_weight = edge.weight;
  const model::LinearTransform& given = edge.maps_high_onto_low == maps_high_onto_low
                                            ? estimate.b_onto_a
                                            : estimate.b_onto_a.inverse();  // a caller switching sides: rare
  const bool transform_changed = edge.transform.slope != given.slope || edge.transform.offset != given.offset ||
                                 edge.uncertainty_ns != estimate.uncertainty_ns;
  edge.weight = estimate.weight;
  edge.transform = estimate.b_onto_a;
  edge.maps_high_onto_low = maps_high_onto_low;
  edge.uncertainty_ns = estimate.uncertainty_ns;

  if (edge.tree_node == EdgeTable::kNotInTree) {
    // Only a smaller key can beat the path it used to lose to.
    return edge.weight < old_weight ? offer(edge) : ForestChange{};
  }
  if (edge.weight > old_weight) return replace_after_increase(edge);
  ForestChange change;
  if (edge.weight != old_weight) {
    tree_.set_edge_weight(edge.tree_node, edge.weight);
    change.reweighted = ForestEdge{low, high, edge.weight};
  }
  if (transform_changed) {
    tree_.set_edge_transform(edge.tree_node, leaf(edge));
    change.transform_changed = true;
  }
  return change;
}

ForestChange SpanningForest::offer(EdgeTable::Edge& edge) {
  ForestChange change;
  const Vertex island_low = islands_.find(edge.low);
  const Vertex island_high = islands_.find(edge.high);
  if (island_low != island_high) {
    link(edge);
    change.entered = ForestEdge{edge.low, edge.high, edge.weight};
    change.joined = islands_.unite(island_low, island_high);
    return change;
  }
  // The cycle rule: the new edge and the tree path between its ends form a
  // cycle, whose largest key must go.
  const LinkCutTree::MaxEdge heaviest = tree_.max_edge_on_path(edge.low, edge.high);
  if (!beats(edge, heaviest)) return change;
  EdgeTable::Edge& max_edge = *edges_.find(tree_.edge_low(heaviest.node), tree_.edge_high(heaviest.node));
  change.left = ForestEdge{max_edge.low, max_edge.high, max_edge.weight};
  unlink(max_edge);
  link(edge);
  change.entered = ForestEdge{edge.low, edge.high, edge.weight};
  return change;
}

ForestChange SpanningForest::replace_after_increase(EdgeTable::Edge& edge) {
  // The forest minus this edge is still minimum for its two sides; the
  // lightest edge across the cut reconnects them, this one included.
  unlink(edge);
  const Vertex island = islands_.find(edge.low);
  EdgeTable::Edge* best = &edge;
  for (EdgeTable::Edge& other : edges_.edges()) {
    if (other.tree_node != EdgeTable::kNotInTree || &other == &edge) continue;
    if (!key_less(other, *best) || islands_.find(other.low) != island) continue;
    if (!tree_.connected(other.low, other.high)) best = &other;
  }
  link(*best);
  ForestChange change;
  if (best == &edge) {
    change.reweighted = ForestEdge{edge.low, edge.high, edge.weight};
    change.transform_changed = true;
  } else {
    change.left = ForestEdge{edge.low, edge.high, edge.weight};
    change.entered = ForestEdge{best->low, best->high, best->weight};
  }
  return change;
}

}  // namespace tracesync::network
