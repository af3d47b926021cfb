// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <memory>
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
//
// remove_edge rebuilds the whole network from its remaining edges
// (O(m log n)): islands are a union-find that can only merge, and only
// estimators that forget (window-independent) ever make a link unusable.
class IncrementalNetwork final : public Network {
 public:
  IncrementalNetwork() : state_(std::make_unique<State>()) {}

  // Capacity hints (like std::vector::reserve): no regrowth below these sizes.
  void reserve(std::size_t vertices, std::size_t edges);

  Vertex add_vertex(std::string id) override;
  std::size_t vertex_count() const override { return state_->forest.vertex_count(); }
  const std::string& id(Vertex v) const override { return state_->forest.id(v); }
  void set_edge(Vertex a, Vertex b, const EdgeEstimate& estimate) override;
  void remove_edge(Vertex a, Vertex b) override;
  void force_reference(Vertex v) override;

  bool in_tree(Vertex a, Vertex b) const override { return state_->forest.in_tree(a, b); }
  Vertex reference_of(Vertex v) const override;
  model::LinearTransform transform(Vertex v) const override;
  double uncertainty_ns(Vertex v) const override;
  void expect_reading_every_transform() override { state_->propagation.expect_reading_every_vertex(); }

 private:
  void check_vertex(Vertex v, const char* operation) const;

  // The three parts refer to each other, so they live (and are rebuilt) together.
  struct State {
    State() : references(forest), propagation(forest, references) {}
    SpanningForest forest;
    ReferenceTracker references;
    TransformPropagation propagation;
  };
  std::unique_ptr<State> state_;
  std::unordered_map<std::string, Vertex> by_id_;
  // Which vertices are forced (forcing v un-forces the rest of its island),
  // to replay on a rebuild.
  std::vector<bool> forced_;
};

}  // namespace tracesync::network
