// SPDX-License-Identifier: EPL-2.0
#include "network/edge_table.h"

#include <bit>
#include <utility>

namespace tracesync::network {

std::size_t EdgeTable::home(uint64_t k) const {
  // Fibonacci hashing: the top bits of k * 2^64/phi.
  return static_cast<std::size_t>((k * 0x9E3779B97F4A7C15ULL) >> shift_);
}

std::size_t EdgeTable::probe(uint64_t k) const {
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = home(k);
  while (slots_[i].edge != kEmpty && slots_[i].key != k) i = (i + 1) & mask;
  return i;
}

const EdgeTable::Edge* EdgeTable::find(Vertex a, Vertex b) const {
  if (slots_.empty()) return nullptr;
  const Slot& slot = slots_[probe(a < b ? key(a, b) : key(b, a))];
  return slot.edge == kEmpty ? nullptr : &edges_[slot.edge];
}

EdgeTable::Edge* EdgeTable::find(Vertex a, Vertex b) {
  return const_cast<Edge*>(std::as_const(*this).find(a, b));
}

EdgeTable::Found EdgeTable::find_or_add(Vertex low, Vertex high) {
  if (2 * (edges_.size() + 1) > slots_.size()) grow();
  const uint64_t k = key(low, high);
  Slot& slot = slots_[probe(k)];
  if (slot.edge != kEmpty) return {edges_[slot.edge], false};
  slot = {k, static_cast<EdgeId>(edges_.size())};
  Edge& edge = edges_.emplace_back();
  edge.low = low;
  edge.high = high;
  return {edge, true};
}

void EdgeTable::reserve(std::size_t edges) {
  edges_.reserve(edges);
  if (2 * edges > slots_.size()) rehash(std::bit_ceil(2 * edges));
}

void EdgeTable::grow() { rehash(slots_.empty() ? 16 : 2 * slots_.size()); }

void EdgeTable::rehash(std::size_t capacity) {
  shift_ = 64 - static_cast<unsigned>(std::countr_zero(capacity));
  slots_.assign(capacity, Slot{});
  for (EdgeId id = 0; id < edges_.size(); ++id) {
    const uint64_t k = key(edges_[id].low, edges_[id].high);
    slots_[probe(k)] = {k, id};
  }
}

}  // namespace tracesync::network
