// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <vector>

#include "base/huge_page_vector.h"
#include "network/network.h"

namespace tracesync::network {

// The edges of a generated workload (thesis_workload.h) with their latest
// weights, found by their endpoints in O(1) expected time (open addressing:
// the benchmark's million edges make a node-based map slow to generate).
class EdgeTable {
 public:
  using EdgeId = uint32_t;
  static constexpr uint32_t kNotInTree = 0;

  struct Edge {
    double weight = 0;
    Vertex low = 0;  // the endpoint with the smaller index
    Vertex high = 0;
  };


  // The edge between a and b, if any (either order).
  const Edge* find(Vertex a, Vertex b) const;
  Edge* find(Vertex a, Vertex b);
  // Room for `edges` edges without regrowth.
  void reserve(std::size_t edges);
  // The edge (low, high) with low < high, added with only its ends set if
  // it is new (then `added`): one probe for a lookup that may insert.
  struct Found {
    Edge& edge;
    bool added;
  };
  Found find_or_add(Vertex low, Vertex high);

  std::size_t size() const { return edges_.size(); }
  Edge& operator[](EdgeId id) { return edges_[id]; }
  const Edge& operator[](EdgeId id) const { return edges_[id]; }
  base::HugePageVector<Edge>& edges() { return edges_; }

 private:
  static constexpr EdgeId kEmpty = UINT32_MAX;

  static uint64_t key(Vertex low, Vertex high) { return (uint64_t{low} << 32) | high; }
  std::size_t home(uint64_t k) const;
  std::size_t probe(uint64_t k) const;  // the slot holding k, or the empty slot where it would go
  void grow();
  void rehash(std::size_t capacity);

  base::HugePageVector<Edge> edges_;
  struct Slot {
    uint64_t key = 0;
    EdgeId edge = kEmpty;
  };
  base::HugePageVector<Slot> slots_;  // key and edge side by side: one cache miss per probe
  unsigned shift_ = 64;  // 64 - log2(capacity)
};

}  // namespace tracesync::network
