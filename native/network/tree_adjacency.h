// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "network/network.h"

namespace tracesync::network {

// The forest's tree edges as neighbour lists, for the rare whole-island
// traversals (transform propagation for a snapshot). Keeping lists up to
// date on every link and cut cost two scattered list updates per change;
// instead they are rebuilt from the tree edges, in one pass, the first
// time they are read after a change.
class TreeAdjacency {
 public:
  struct Neighbour {
    Vertex vertex;
    uint32_t edge;  // the caller's handle of the tree edge (a link-cut tree node)
  };

  // The forest changed (an edge or a vertex): the next read rebuilds.
  void invalidate() { fresh_ = false; }
  bool fresh() const { return fresh_; }

  // Rebuilds from `for_each_edge(f)`, which calls f(low, high, edge) once per tree edge.
  template <typename ForEachEdge>
  void rebuild(std::size_t vertices, ForEachEdge for_each_edge) {
    offsets_.assign(vertices + 1, 0);
    for_each_edge([&](Vertex low, Vertex high, uint32_t) {
      ++offsets_[low + 1];
      ++offsets_[high + 1];
    });
    for (std::size_t v = 0; v < vertices; ++v) offsets_[v + 1] += offsets_[v];
    neighbours_.resize(offsets_[vertices]);
    fill_.assign(offsets_.begin(), offsets_.end() - 1);
    for_each_edge([&](Vertex low, Vertex high, uint32_t edge) {
      neighbours_[fill_[low]++] = {high, edge};
      neighbours_[fill_[high]++] = {low, edge};
    });
    fresh_ = true;
  }

  // Precondition: fresh().
  std::span<const Neighbour> of(Vertex v) const {
    return {neighbours_.data() + offsets_[v], neighbours_.data() + offsets_[v + 1]};
  }

 private:
  bool fresh_ = false;
  std::vector<uint32_t> offsets_;  // v's neighbours are [offsets_[v], offsets_[v + 1])
  std::vector<Neighbour> neighbours_;
  std::vector<uint32_t> fill_;
};

}  // namespace tracesync::network
