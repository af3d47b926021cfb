#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "network/network.h"
#include "network/reference_tracker.h"
#include "network/spanning_forest.h"

namespace tracesync::network {

// The network of the thesis' LIANA (ch. 4 and 5), incremental throughout:
//  - the minimum spanning forest in link-cut trees (SpanningForest),
//    O(log n) amortized per set_edge;
//  - each island's reference kept by centroid search along one path
//    (ReferenceTracker), O(log n) amortized per forest change;
//  - transforms composed along the tree path to the reference on demand, in
//    O(log n) amortized, and cached per vertex until its island's tree,
//    reference or tree-edge estimates change (Algorithm 9's "update only
//    what changed", made lazy: an island that changes often costs nothing
//    until someone asks).
//
// Invalid calls (unknown vertex, a == b, a negative or non-finite weight, a
// duplicate id, a transform that cannot be inverted) throw
// std::invalid_argument naming the vertices, and change nothing.
//
// Queries restructure splay trees and compress union-find paths, so the
// const methods mutate internal state: one network is for one thread.
class IncrementalNetwork final : public Network {
 public:
  IncrementalNetwork() : references_(forest_) {}

  Vertex add_vertex(std::string id) override;
  std::size_t vertex_count() const override { return forest_.vertex_count(); }
  const std::string& id(Vertex v) const override { return forest_.id(v); }
  void set_edge(Vertex a, Vertex b, const EdgeEstimate& estimate) override;
  void force_reference(Vertex v) override;

  bool in_tree(Vertex a, Vertex b) const override { return forest_.in_tree(a, b); }
  Vertex reference_of(Vertex v) const override;
  model::LinearTransform transform(Vertex v) const override { return path_to_reference(v).transform; }
  double uncertainty_ns(Vertex v) const override { return path_to_reference(v).uncertainty_ns; }

 private:
  struct PathToReference {
    uint64_t version = 0;  // the island version it was computed for
    model::LinearTransform transform;
    double uncertainty_ns = 0;
  };

  void check_vertex(Vertex v, const char* operation) const;
  void touch_island(Vertex v);
  const PathToReference& path_to_reference(Vertex v) const;

  mutable SpanningForest forest_;
  mutable ReferenceTracker references_;
  std::unordered_map<std::string, Vertex> by_id_;
  // Bumped whenever anything an island's transforms depend on changes.
  std::vector<uint64_t> island_version_;  // by island representative
  uint64_t next_version_ = 1;
  mutable std::vector<PathToReference> cache_;
};

}  // namespace tracesync::network
