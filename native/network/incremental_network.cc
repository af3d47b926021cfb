#include "network/incremental_network.h"

#include <cmath>
#include <stdexcept>

namespace tracesync::network {

void IncrementalNetwork::reserve(std::size_t vertices, std::size_t edges) {
  forest_.reserve(vertices, edges);
  references_.reserve(vertices);
  propagation_.reserve(vertices);
  by_id_.reserve(vertices);
}

Vertex IncrementalNetwork::add_vertex(std::string id) {
  const auto [it, inserted] = by_id_.try_emplace(id, static_cast<Vertex>(forest_.vertex_count()));
  if (!inserted) {
    throw std::invalid_argument("add_vertex: id \"" + id + "\" already names vertex " + std::to_string(it->second));
  }
  const Vertex v = forest_.add_vertex(std::move(id));
  references_.add_vertex(v);
  propagation_.add_vertex();
  return v;
}

void IncrementalNetwork::check_vertex(Vertex v, const char* operation) const {
  if (v >= forest_.vertex_count()) {
    throw std::invalid_argument(std::string(operation) + ": unknown vertex " + std::to_string(v) + " (the network has " +
                                std::to_string(forest_.vertex_count()) + ")");
  }
}

void IncrementalNetwork::set_edge(Vertex a, Vertex b, const EdgeEstimate& estimate) {
  check_vertex(a, "set_edge");
  check_vertex(b, "set_edge");
  const auto reject = [&](const std::string& problem) {
    throw std::invalid_argument("set_edge(\"" + forest_.id(a) + "\", \"" + forest_.id(b) + "\"): " + problem);
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

  const ForestChange change = forest_.set_edge(a, b, estimate);
  if (!change.tree_changed()) return;
  references_.apply(change);
  propagation_.island_changed(a);
}

void IncrementalNetwork::force_reference(Vertex v) {
  check_vertex(v, "force_reference");
  references_.force(v);
  propagation_.island_changed(v);
}

Vertex IncrementalNetwork::reference_of(Vertex v) const {
  check_vertex(v, "reference_of");
  return references_.reference_of(v);
}

model::LinearTransform IncrementalNetwork::transform(Vertex v) const {
  check_vertex(v, "transform");
  return propagation_.read(v).transform;
}

double IncrementalNetwork::uncertainty_ns(Vertex v) const {
  check_vertex(v, "uncertainty_ns");
  return static_cast<double>(propagation_.read(v).uncertainty_ns);
}

}  // namespace tracesync::network
