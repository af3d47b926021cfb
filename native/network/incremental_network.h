#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "network/network.h"
#include "network/reference_tracker.h"
#include "network/spanning_forest.h"
#include "network/transform_propagation.h"

namespace tracesync::network {

// The network of the thesis' LIANA (ch. 4 and 5), incremental throughout:
//  - the minimum spanning forest in link-cut trees (SpanningForest),
//    O(log n) amortized per set_edge;
//  - each island's reference kept by centroid search along one path
//    (ReferenceTracker), O(log n) amortized per forest change;
//  - transforms composed along the tree to the reference when read, and
//    cached until the island changes (TransformPropagation): O(log n)
//    amortized for a lone read, O(1) per vertex when a whole island is read.
//    Algorithm 9's "update only what changed", made lazy: an island that
//    changes often costs nothing until someone asks.
//
// Invalid calls (unknown vertex, a == b, a negative or non-finite weight, a
// duplicate id, a transform that cannot be inverted) throw
// std::invalid_argument naming the vertices, and change nothing.
//
// Queries restructure splay trees and compress union-find paths, so the
// const methods mutate internal state: one network is for one thread.
class IncrementalNetwork final : public Network {
 public:
  IncrementalNetwork() : references_(forest_), propagation_(forest_, references_) {}

  // Capacity hints (like std::vector::reserve): no regrowth below these sizes.
  void reserve(std::size_t vertices, std::size_t edges);

  Vertex add_vertex(std::string id) override;
  std::size_t vertex_count() const override { return forest_.vertex_count(); }
  const std::string& id(Vertex v) const override { return forest_.id(v); }
  void set_edge(Vertex a, Vertex b, const EdgeEstimate& estimate) override;
  void force_reference(Vertex v) override;

  bool in_tree(Vertex a, Vertex b) const override { return forest_.in_tree(a, b); }
  Vertex reference_of(Vertex v) const override;
  model::LinearTransform transform(Vertex v) const override;
  double uncertainty_ns(Vertex v) const override;

 private:
  void check_vertex(Vertex v, const char* operation) const;

  mutable SpanningForest forest_;
  mutable ReferenceTracker references_;
  mutable TransformPropagation propagation_;
  std::unordered_map<std::string, Vertex> by_id_;
};

}  // namespace tracesync::network
