// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "network/edge_record.h"
#include "base/huge_page_vector.h"

namespace tracesync::network {

// The latest estimate of every edge outside the spanning forest. The forest
// never looks one up: a non-tree edge's update is judged by the cycle rule
// alone, whatever its old weight. Only the rare rebuilds (a tree edge got
// worse, an edge was removed) read them all. So records are appended, never
// searched: a write that streams, instead of a hash probe that misses the
// caches on every update of a million-edge graph.
//
// The owner compacts the log (the latest record per edge, edges now in the
// tree dropped) when wants_compaction() says it has grown fourfold since the
// last compaction: memory stays within four times the edges it holds plus
// the updates since, for O(log m) amortized work per record.
class NonTreeEdges {
 public:
  static uint64_t key(Vertex low, Vertex high) { return (uint64_t{low} << 32) | high; }

  void add(const EdgeRecord& record) { log_.push_back(record); }
  void reserve(std::size_t records) { log_.reserve(records); }
  bool wants_compaction() const { return log_.size() >= compact_at_; }

  // Whether (low, high), low < high, was ever added (it may be a tree edge now). O(m).
  bool contains(Vertex low, Vertex high) const;

  // Keeps one record per edge, the latest, in the order they were written,
  // and none of the edges whose keys are in `sorted_tree_keys` (ascending).
  void compact(const std::vector<uint64_t>& sorted_tree_keys);

  // f(const EdgeRecord&) for each record; after a compaction, one per non-tree edge.
  template <typename F>
  void for_each(F&& f) const {
    for (const EdgeRecord& r : log_) f(r);
  }

 private:
  static constexpr std::size_t kFirstCompaction = std::size_t{1} << 16;
  static constexpr std::size_t kGrowth = 4;

  base::HugePageVector<EdgeRecord> log_;
  std::size_t compact_at_ = kFirstCompaction;
};

}  // namespace tracesync::network
