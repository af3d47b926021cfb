#include "network/non_tree_edges.h"

#include <algorithm>

namespace tracesync::network {

bool NonTreeEdges::contains(Vertex low, Vertex high) const {
  return std::any_of(log_.begin(), log_.end(), [&](const EdgeRecord& r) { return r.low == low && r.high == high; });
}

void NonTreeEdges::compact(const std::vector<uint64_t>& sorted_tree_keys) {
  // Positions sorted by (edge, position): the last of each run is the
  // latest record; a merge with the tree's keys drops the tree edges.
  struct Entry {
    uint64_t edge;
    uint32_t position;
  };
  std::vector<Entry> entries(log_.size());
  for (std::size_t i = 0; i < log_.size(); ++i) entries[i] = {key(log_[i].low, log_[i].high), static_cast<uint32_t>(i)};
  std::sort(entries.begin(), entries.end(), [](const Entry& x, const Entry& y) {
    return x.edge != y.edge ? x.edge < y.edge : x.position < y.position;
  });
  std::vector<bool> keep(log_.size(), false);
  auto tree_key = sorted_tree_keys.begin();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const bool latest = i + 1 == entries.size() || entries[i + 1].edge != entries[i].edge;
    if (!latest) continue;
    while (tree_key != sorted_tree_keys.end() && *tree_key < entries[i].edge) ++tree_key;
    const bool in_tree = tree_key != sorted_tree_keys.end() && *tree_key == entries[i].edge;
    keep[entries[i].position] = !in_tree;
  }
  std::size_t kept = 0;
  for (std::size_t i = 0; i < log_.size(); ++i) {
    if (keep[i]) log_[kept++] = log_[i];
  }
  log_.resize(kept);
  compact_at_ = std::max(kFirstCompaction, kGrowth * kept);
}

}  // namespace tracesync::network
