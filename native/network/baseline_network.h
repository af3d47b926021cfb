// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <map>
#include <set>
#include <utility>
#include <vector>

#include "network/network.h"

namespace tracesync::network {

// The recompute-everything network, built on Boost.Graph: after every change
// it runs Kruskal's MST over all edges, then picks each tree's reference as
// Clément & Dagenais do, by summing Dijkstra shortest-path distances from
// every vertex, and composes transforms outwards from the reference.
// O(m log m + n^2 log n) per change: for equivalence tests and benchmarks.
//
// Path-weight sums are accumulated in quad precision and compared exactly;
// weights that are equal in exact arithmetic but reach a sum through
// different roundings could tie-break differently from the incremental
// network, so equivalence tests use dyadic weights.
class BaselineNetwork final : public Network {
 public:
  Vertex add_vertex(std::string id) override;
  std::size_t vertex_count() const override { return ids_.size(); }
  const std::string& id(Vertex v) const override { return ids_[v]; }
  void set_edge(Vertex a, Vertex b, const EdgeEstimate& estimate) override;
  void remove_edge(Vertex a, Vertex b) override;
  void force_reference(Vertex v) override;

  bool in_tree(Vertex a, Vertex b) const override;
  Vertex reference_of(Vertex v) const override { return reference_[v]; }
  model::LinearTransform transform(Vertex v) const override { return transform_[v]; }
  double uncertainty_ns(Vertex v) const override { return uncertainty_[v]; }

 private:
  using EdgeId = std::pair<Vertex, Vertex>;  // (smaller index, larger index)

  void recompute();
  std::vector<EdgeId> kruskal_forest() const;
  void choose_references(const std::vector<std::vector<Vertex>>& islands,
                         const std::vector<std::vector<std::pair<Vertex, double>>>& tree_adjacency);
  void propagate_transforms(const std::vector<std::vector<Vertex>>& islands,
                            const std::vector<std::vector<std::pair<Vertex, double>>>& tree_adjacency);

  std::vector<std::string> ids_;
  std::vector<bool> forced_;
  std::map<EdgeId, EdgeEstimate> edges_;  // b_onto_a maps .second onto .first

  std::set<EdgeId> tree_;
  std::vector<Vertex> reference_;
  std::vector<model::LinearTransform> transform_;
  std::vector<double> uncertainty_;
};

}  // namespace tracesync::network
