// SPDX-License-Identifier: EPL-2.0
#include "network/incremental_network.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tracesync::network {

void IncrementalNetwork::reserve(std::size_t vertices, std::size_t edges) {
  state_->forest.reserve(vertices, edges);
  state_->references.reserve(vertices);
  state_->propagation.reserve(vertices);
  by_id_.reserve(vertices);
}

Vertex IncrementalNetwork::add_vertex(std::string id) {
  if (state_->forest.vertex_count() >= LinkCutTree::kMaxVertices) {
    throw std::length_error("add_vertex: the network holds at most " + std::to_string(LinkCutTree::kMaxVertices) +
                            " vertices");
  }
  const auto [it, inserted] = by_id_.try_emplace(id, static_cast<Vertex>(state_->forest.vertex_count()));
  if (!inserted) {
    throw std::invalid_argument("add_vertex: id \"" + id + "\" already names vertex " + std::to_string(it->second));
  }
  const Vertex v = state_->forest.add_vertex(std::move(id));
  forced_.push_back(false);
  state_->references.add_vertex(v);
  state_->propagation.add_vertex();
  return v;
}

void IncrementalNetwork::check_vertex(Vertex v, const char* operation) const {
  if (v >= state_->forest.vertex_count()) {
    throw std::invalid_argument(std::string(operation) + ": unknown vertex " + std::to_string(v) + " (the network has " +
                                std::to_string(state_->forest.vertex_count()) + ")");
  }
}

void IncrementalNetwork::set_edge(Vertex a, Vertex b, const EdgeEstimate& estimate) {
  check_vertex(a, "set_edge");
  check_vertex(b, "set_edge");
  const auto reject = [&](const std::string& problem) {
    throw std::invalid_argument("set_edge(\"" + state_->forest.id(a) + "\", \"" + state_->forest.id(b) + "\"): " + problem);
  };
  if (a == b) reject("an edge needs two different vertices");
  if (!std::isfinite(estimate.weight) || estimate.weight < 0) {
    reject("weight " + std::to_string(estimate.weight) + " is not a finite value >= 0");
  }
  if (!std::isfinite(estimate.uncertainty_ns) || estimate.uncertainty_ns < 0) {
    reject("uncertainty " + std::to_string(estimate.uncertainty_ns) + " ns is not a finite value >= 0");
  }
  const double slope = model::to_double(estimate.b_onto_a.slope);
  const double offset = model::to_double(estimate.b_onto_a.offset);
  if (!std::isfinite(slope) || slope == 0 || !std::isfinite(offset)) {
    reject("transform (slope " + std::to_string(slope) + ", offset " + std::to_string(offset) +
           ") is not an invertible finite map");
  }

  const ForestChange change = state_->forest.set_edge(a, b, estimate);
  if (!change.tree_changed()) return;
  state_->references.apply(change);
  state_->propagation.island_changed(a);
}

void IncrementalNetwork::remove_edge(Vertex a, Vertex b) {
  check_vertex(a, "remove_edge");
  check_vertex(b, "remove_edge");
  if (!state_->forest.has_edge(a, b)) return;
  const Vertex low = std::min(a, b);
  const Vertex high = std::max(a, b);
  const auto old = std::move(state_);
  state_ = std::make_unique<State>();
  for (Vertex v = 0; v < old->forest.vertex_count(); ++v) {
    state_->forest.add_vertex(old->forest.id(v));
    state_->references.add_vertex(v);
    state_->propagation.add_vertex();
  }
  // Islands start as singletons, so forcing in any order keeps every flag,
  // and merges then pick the smallest forced id, as before.
  for (Vertex v = 0; v < forced_.size(); ++v) {
    if (forced_[v]) state_->references.force(v);
  }
  old->forest.for_each_edge([&](const EdgeRecord& e) {
    if (e.low == low && e.high == high) return;
    // Replay each edge in the direction it was given.
    const ForestChange change = state_->forest.set_edge(e.first(), e.second(), e.estimate());
    if (change.tree_changed()) {
      state_->references.apply(change);
      state_->propagation.island_changed(e.low);
    }
  });
}

void IncrementalNetwork::force_reference(Vertex v) {
  check_vertex(v, "force_reference");
  const Vertex island = state_->references.reference_of(v);
  for (Vertex u = 0; u < forced_.size(); ++u) {
    if (forced_[u] && state_->references.reference_of(u) == island) forced_[u] = false;
  }
  forced_[v] = true;
  state_->references.force(v);
  state_->propagation.island_changed(v);
}

Vertex IncrementalNetwork::reference_of(Vertex v) const {
  check_vertex(v, "reference_of");
  return state_->references.reference_of(v);
}

model::LinearTransform IncrementalNetwork::transform(Vertex v) const {
  check_vertex(v, "transform");
  return state_->propagation.read(v).transform;
}

double IncrementalNetwork::uncertainty_ns(Vertex v) const {
  check_vertex(v, "uncertainty_ns");
  return static_cast<double>(state_->propagation.read(v).uncertainty_ns);
}

}  // namespace tracesync::network
