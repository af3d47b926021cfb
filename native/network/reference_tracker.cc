// SPDX-License-Identifier: EPL-2.0
#include "network/reference_tracker.h"

#include <algorithm>

namespace tracesync::network {

void ReferenceTracker::add_vertex(Vertex v) {
  islands_.push_back(Island{v, std::nullopt, std::nullopt, v});
  zero_neighbours_.emplace_back();
  has_zero_edge_.push_back(false);
  visit_mark_.push_back(0);
}

void ReferenceTracker::force(Vertex v) {
  Island& island = islands_[forest_->island_of(v)];
  island.forced = v;
  island.reference = v;
}

bool ReferenceTracker::add_zero_edge(const ForestEdge& edge) {
  if (edge.weight != 0) return false;
  zero_neighbours_[edge.low].push_back(edge.high);
  zero_neighbours_[edge.high].push_back(edge.low);
  has_zero_edge_[edge.low] = has_zero_edge_[edge.high] = true;
  return true;
}

bool ReferenceTracker::remove_zero_edge(const ForestEdge& edge) {
  // The edge's weight may be its new one (a reweighted edge): look it up.
  if (!has_zero_edge_[edge.low]) return false;
  auto& low = zero_neighbours_[edge.low];
  const auto it = std::find(low.begin(), low.end(), edge.high);
  if (it == low.end()) return false;
  low.erase(it);
  auto& high = zero_neighbours_[edge.high];
  high.erase(std::find(high.begin(), high.end(), edge.low));
  has_zero_edge_[edge.low] = !low.empty();
  has_zero_edge_[edge.high] = !high.empty();
  return true;
}

bool ReferenceTracker::apply(const ForestChange& change) {
  bool zero_edges_changed = false;
  if (change.left) zero_edges_changed |= remove_zero_edge(*change.left);
  if (change.reweighted) {
    zero_edges_changed |= remove_zero_edge(*change.reweighted);
    zero_edges_changed |= add_zero_edge(*change.reweighted);
  }
  if (change.entered) zero_edges_changed |= add_zero_edge(*change.entered);

  if (change.joined) {
    merge(change.joined->first, change.joined->second);
    return true;
  }
  if (change.left) {
    const ForestEdge& entered = *change.entered;
    const Vertex representative = forest_->island_of(entered.low);
    Island& island = islands_[representative];
    if (island.forced) return false;
    find_centroid(island, forest_->island_size(representative), island.centroid, entered.low,
                  {island.second_centroid, entered.low, entered.high});
    return true;
  }
  if (change.reweighted && zero_edges_changed) {
    Island& island = islands_[forest_->island_of(change.reweighted->low)];
    if (island.forced) return false;
    choose_reference(island);
    return true;
  }
  return false;
}

void ReferenceTracker::merge(Vertex kept, Vertex absorbed) {
  Island& into = islands_[kept];
  const Island from = islands_[absorbed];
  if (into.forced || from.forced) {
    const auto& forest = *forest_;
    if (!into.forced || (from.forced && forest.id(*from.forced) < forest.id(*into.forced))) into.forced = from.forced;
    into.reference = *into.forced;
    return;
  }
  // The merged centroid lies on the path between the two old ones, and any
  // second centroid next to it on that path: no hints needed.
  find_centroid(into, forest_->island_size(kept), into.centroid, from.centroid, {});
}

void ReferenceTracker::find_centroid(Island& island, uint32_t size, Vertex from, Vertex towards,
                                     std::initializer_list<std::optional<Vertex>> neighbour_hints) {
  LinkCutTree& tree = forest_->tree();
  const LinkCutTree::HeavyVertex heavy = tree.deepest_heavy_vertex(from, towards, size);
  island.centroid = heavy.vertex;
  island.second_centroid = heavy.next_with_half;
  if (!island.second_centroid && size % 2 == 0) {
    for (const std::optional<Vertex>& hint : neighbour_hints) {
      if (!hint || *hint == heavy.vertex) continue;
      const std::optional<uint32_t> side = tree.side_size(heavy.vertex, *hint);
      if (side && 2 * *side == size) {
        island.second_centroid = *hint;
        break;
      }
    }
  }
  choose_reference(island);
}

void ReferenceTracker::choose_reference(Island& island) {
  // Breadth-first over zero-weight tree edges from the centroid(s).
  if (++visit_round_ == 0) {
    std::fill(visit_mark_.begin(), visit_mark_.end(), 0);
    visit_round_ = 1;
  }
  queue_.clear();
  const auto enqueue = [&](Vertex v) {
    if (visit_mark_[v] == visit_round_) return;
    visit_mark_[v] = visit_round_;
    queue_.push_back(v);
  };
  enqueue(island.centroid);
  if (island.second_centroid) enqueue(*island.second_centroid);
  Vertex best = island.centroid;
  for (std::size_t i = 0; i < queue_.size(); ++i) {
    const Vertex v = queue_[i];
    if (forest_->id(v) < forest_->id(best)) best = v;
    if (!has_zero_edge_[v]) continue;
    for (const Vertex next : zero_neighbours_[v]) enqueue(next);
  }
  island.reference = best;
}

}  // namespace tracesync::network
