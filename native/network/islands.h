// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "network/network.h"

namespace tracesync::network {

// The connected components (islands) of the synchronization graph. Edges
// are never removed from the graph, so islands only merge: a union-find
// with union by size and path halving answers "which island" in
// near-constant time, and its representative keys per-island records.
class Islands {
 public:
  Vertex add() {
    const auto v = static_cast<Vertex>(parent_.size());
    parent_.push_back(v);
    size_.push_back(1);
    return v;
  }

  void reserve(std::size_t vertices) {
    parent_.reserve(vertices);
    size_.reserve(vertices);
  }

  Vertex find(Vertex v) {
    while (parent_[v] != v) {
      parent_[v] = parent_[parent_[v]];
      v = parent_[v];
    }
    return v;
  }

  uint32_t size(Vertex representative) const { return size_[representative]; }

  // Merges the islands of two representatives; returns (kept, absorbed).
  std::pair<Vertex, Vertex> unite(Vertex x, Vertex y) {
    if (size_[x] < size_[y]) std::swap(x, y);
    parent_[y] = x;
    size_[x] += size_[y];
    return {x, y};
  }

 private:
  std::vector<Vertex> parent_;
  std::vector<uint32_t> size_;
};

}  // namespace tracesync::network
