// SPDX-License-Identifier: EPL-2.0
#include "network/transform_propagation.h"

namespace tracesync::network {

void TransformPropagation::reserve(std::size_t vertices) {
  islands_.reserve(vertices);
  cache_.reserve(vertices);
}

void TransformPropagation::add_vertex() {
  islands_.push_back({next_version_++, 0, false});
  cache_.emplace_back();
}

void TransformPropagation::island_changed(Vertex v) {
  islands_[forest_->island_of(v)] = {next_version_++, 0, false};
}

void TransformPropagation::expect_reading_every_vertex() {
  for (IslandState& island : islands_) island.traverse = true;
}

const TransformPropagation::PathToReference& TransformPropagation::read(Vertex v) {
  Cached& cached = cache_[v];
  const Vertex representative = forest_->island_of(v);
  IslandState& island = islands_[representative];
  if (cached.version == island.version) return cached.value;

  const Vertex reference = references_->reference_of(v);
  if (island.traverse || island.path_reads >= forest_->island_size(representative) / kTraversalShare) {
    propagate_island(reference, island.version);
    return cached.value;
  }
  ++island.path_reads;
  // first = the reference, last = v: last_onto_first maps v onto the reference.
  const PathTransform path = forest_->tree().path_transform(reference, v);
  cached = Cached{island.version, {path.last_onto_first, path.uncertainty_ns}};
  return cached.value;
}

void TransformPropagation::propagate_island(Vertex reference, uint64_t version) {
  // Breadth-first from the reference: each vertex is its parent's transform
  // after the edge's. (Vertices already read by path queries in this
  // version are recomputed too: their subtrees must be reached.)
  cache_[reference] = Cached{version, {}};
  queue_.assign(1, {reference, reference});
  for (std::size_t i = 0; i < queue_.size(); ++i) {
    const auto [parent, grandparent] = queue_[i];
    const PathToReference& from = cache_[parent].value;
    for (const SpanningForest::TreeNeighbour& next : forest_->tree_neighbours(parent)) {
      if (next.vertex == grandparent) continue;
      // The edge's own stretch runs low -> high.
      const PathTransform& edge = forest_->tree().edge_transform(next.edge);
      const model::LinearTransform& child_onto_parent =
          next.vertex == edge.last ? edge.last_onto_first : edge.first_onto_last;
      cache_[next.vertex] =
          Cached{version, {from.transform.after(child_onto_parent), from.uncertainty_ns + edge.uncertainty_ns}};
      queue_.push_back({next.vertex, parent});
    }
  }
}

}  // namespace tracesync::network
