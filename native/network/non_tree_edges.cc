// SPDX-License-Identifier: EPL-2.0
#include "network/non_tree_edges.h"

#include <algorithm>
#include <utility>

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
  uint64_t used_bits = 0;
  for (std::size_t i = 0; i < log_.size(); ++i) {
    entries[i] = {key(log_[i].low, log_[i].high), static_cast<uint32_t>(i)};
    used_bits |= entries[i].edge;
  }
  // A least-significant-digit radix sort by edge: stable, so each edge's
  // records stay in write order, and linear (a comparison sort of the
  // million records of a large graph costs several times more). Digits no
  // key uses are skipped: vertex numbers rarely fill 32 bits.
  constexpr int kDigitBits = 16;
  constexpr uint64_t kDigitMask = (uint64_t{1} << kDigitBits) - 1;
  std::vector<Entry> sorted(entries.size());
  std::vector<uint32_t> starts(std::size_t{1} << kDigitBits);
  for (int shift = 0; shift < 64; shift += kDigitBits) {
    if (((used_bits >> shift) & kDigitMask) == 0) continue;
    std::fill(starts.begin(), starts.end(), 0);
    for (const Entry& e : entries) ++starts[(e.edge >> shift) & kDigitMask];
    uint32_t start = 0;
    for (uint32_t& s : starts) start += std::exchange(s, start);
    for (const Entry& e : entries) sorted[starts[(e.edge >> shift) & kDigitMask]++] = e;
    entries.swap(sorted);
  }
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
