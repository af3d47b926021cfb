// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/quad.h"
#include "network/network.h"

namespace tracesync::network {

// An undirected usable link and the weight of a path through it: its worst
// bound over the span (docs/network.md says why).
struct BoundEdge {
  Vertex a = 0;
  Vertex b = 0;
  model::Quad weight = 0;  // >= 0
};

// For every vertex, the path of links to its island's reference that gives
// the smallest bound (the sum of the weights along it), and the references
// (DESIGN.md, "Network"):
//  - the reference of an island minimises the island's largest bound, ties
//    to the smaller id (byte-wise), unless the island holds forced
//    vertices: then the forced one with the smallest id;
//  - among paths of equal bound, the one with fewer links, then the one
//    whose next vertex towards the reference has the smaller id.
// Everything is decided by exact comparisons of values that depend only on
// the graph and the ids: the result does not depend on the order edges or
// vertices were given in (sums are taken from the reference outwards, in
// path order).
struct BestBoundPaths {
  std::vector<Vertex> reference;              // per vertex
  std::vector<std::optional<Vertex>> parent;  // the next vertex towards the reference
  std::vector<model::Quad> bound;             // sum of weights along the path
  std::vector<uint32_t> hops;                 // links along the path

  // Whether the link (a, b) is on some vertex's chosen path.
  bool on_paths(Vertex a, Vertex b) const { return parent[a] == b || parent[b] == a; }
};

// `ids` names the vertices (distinct); `forced` flags forced references.
// Islands are the connected components of `edges` (each vertex pair at most
// once). Cost: per island of n vertices and m edges, one shortest-path
// search per candidate reference, O(n m log n) at worst, in doubles; a
// search stops as soon as it exceeds the best candidate so far, and only
// the candidates within 1e-9 of the best are searched again exactly.
BestBoundPaths best_bound_paths(const std::vector<std::string>& ids, const std::vector<BoundEdge>& edges,
                                const std::vector<bool>& forced);

}  // namespace tracesync::network
