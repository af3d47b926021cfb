// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "model/linear_transform.h"

namespace tracesync::network {

// A clock domain, numbered densely in the order it was added.
using Vertex = uint32_t;

// What the network needs of a usable link (a, b).
struct EdgeEstimate {
  double weight = 0;                 // the link's accuracy, >= 0; smaller is better
  model::LinearTransform b_onto_a;   // maps b's time onto a's
  double uncertainty_ns = 0;         // of the link's offset over the experiment
};

// The synchronization graph over clock domains (DESIGN.md, "Network"): an
// edge per usable link, a minimum spanning forest of it, a reference vertex
// per tree (island), and every vertex's transform onto its reference.
//
// Determinism: edges are ordered by (weight, smaller id, larger id), ids
// compared byte-wise, so every implementation keeps the same forest. The
// reference of an island minimises the sum of tree-path weights to all its
// vertices, ties going to the smaller id, unless a vertex of the island was
// forced (the forced vertex with the smallest id wins when forced islands
// merge).
class Network {
 public:
  virtual ~Network() = default;

  // Adds an isolated vertex; ids must be unique.
  virtual Vertex add_vertex(std::string id) = 0;
  virtual std::size_t vertex_count() const = 0;
  virtual const std::string& id(Vertex v) const = 0;

  // Inserts edge (a, b) or replaces its estimate (a != b). The estimate's
  // b_onto_a maps b's time onto a's; set_edge(b, a, ...) with the inverse
  // transform means the same edge.
  virtual void set_edge(Vertex a, Vertex b, const EdgeEstimate& estimate) = 0;

  // Removes edge (a, b) if present: a link that stopped being usable (only
  // estimators that forget, like window-independent, do that).
  virtual void remove_edge(Vertex a, Vertex b) = 0;

  // Makes v the reference of its island from now on.
  virtual void force_reference(Vertex v) = 0;

  virtual bool in_tree(Vertex a, Vertex b) const = 0;
  virtual Vertex reference_of(Vertex v) const = 0;
  // Maps v's time onto its reference's time.
  virtual model::LinearTransform transform(Vertex v) const = 0;
  // Sum of the link uncertainties along the tree path to the reference.
  virtual double uncertainty_ns(Vertex v) const = 0;

  // Every vertex's transform is about to be read (a snapshot). Reads that
  // follow then give bits that depend only on the forest, its estimates and
  // the references: not on the order of the operations that built it (a
  // path query composes in the shape its splay trees happen to have, and
  // quad rounding tells the shapes apart in the last digits).
  virtual void expect_reading_every_transform() {}
};

enum class NetworkKind { kIncremental, kBaseline };

std::string_view to_string(NetworkKind kind);
std::unique_ptr<Network> make_network(NetworkKind kind);

}  // namespace tracesync::network
