// SPDX-License-Identifier: EPL-2.0
#include "hull/convex_chain.h"

#include <algorithm>
#include <iterator>

namespace tracesync::hull {

void ConvexChain::relink(Iterator it) const {
  if (it == vertices_.end()) return;
  const auto next = std::next(it);
  it->has_next = next != vertices_.end();
  if (it->has_next) it->next = next->point;
}

void ConvexChain::flush_tail() const {
  if (tail_.empty()) return;
  for (const model::Point& p : tail_) {
    const auto it = vertices_.emplace_hint(vertices_.end(), Vertex{p, {}, false});
    if (it != vertices_.begin()) relink(std::prev(it));
  }
  relink(std::prev(vertices_.end()));
  tail_.clear();
}

bool ConvexChain::append(const model::Point& p) {
  // p is right of every vertex: it is a vertex, and it can only make
  // vertices at the end of the chain redundant (Andrew's monotone chain).
  // In the tail first: nearly always enough, as the tree only holds what
  // was left of the last query or vertex inserted inside the chain.
  std::size_t t = tail_.size();
  while (t >= 2 && !strictly_convex(tail_[t - 2], tail_[t - 1], p)) --t;
  tail_.resize(t);
  // Fewer than two vertices left in the tail: the others are in the tree.
  while (tail_.size() < 2 && size() >= 2) {
    const auto last_in_tree = std::prev(vertices_.end());
    const model::Point last = tail_.empty() ? last_in_tree->point : tail_.front();
    const model::Point before_last = tail_.empty() ? std::prev(last_in_tree)->point : last_in_tree->point;
    if (strictly_convex(before_last, last, p)) break;
    if (!tail_.empty()) {
      tail_.pop_back();
    } else {
      vertices_.erase(last_in_tree);
    }
  }
  tail_.push_back(p);
  return true;
}

// The vertices on each side of an abscissa x inside the chain, found in the
// tail or the tree without moving anything: the first vertex at or right of
// x (there is one, x is not beyond the last) and the one before it, if any.
ConvexChain::Neighbours ConvexChain::neighbours_of(model::Nanoseconds x) const {
  if (!tail_.empty() && x >= tail_.front().x) {
    const auto next = std::lower_bound(tail_.begin(), tail_.end(), x,
                                       [](const model::Point& v, model::Nanoseconds key) { return v.x < key; });
    if (next != tail_.begin()) return {&*std::prev(next), &*next};
    return {vertices_.empty() ? nullptr : &std::prev(vertices_.end())->point, &*next};
  }
  const auto next = vertices_.lower_bound(x);
  const model::Point* before = next == vertices_.begin() ? nullptr : &std::prev(next)->point;
  return {before, next == vertices_.end() ? &tail_.front() : &next->point};
}

bool ConvexChain::insert(const model::Point& p) {
  if (empty() || p.x > last_vertex().x) return append(p);
  // A point that lands inside the chain (in arrival order, a message that
  // came late because it was slow: nearly every out-of-order one) changes
  // nothing: answer it where it falls, without moving the tail to the tree.
  const Neighbours around = neighbours_of(p.x);
  if (around.next->x == p.x ? dominated_at_same_x(*around.next, p)
                            : around.before && !strictly_convex(*around.before, p, *around.next)) {
    return false;
  }
  flush_tail();

  auto next = vertices_.lower_bound(p.x);  // first vertex with x >= p.x
  if (next != vertices_.end() && next->point.x == p.x) {
    if (dominated_at_same_x(next->point, p)) return false;
    next = vertices_.erase(next);  // p replaces it, or neither is a vertex
  }
  if (next != vertices_.begin() && next != vertices_.end()) {
    const auto prev = std::prev(next);
    if (!strictly_convex(prev->point, p, next->point)) {
      relink(prev);  // in case a same-x vertex was just erased
      return false;
    }
  }

  const auto it = vertices_.emplace_hint(next, Vertex{p, {}, false});
  // Vertices p now hides, on each side, form a contiguous run next to it.
  while (it != vertices_.begin() && std::prev(it) != vertices_.begin()) {
    const auto prev = std::prev(it);
    if (strictly_convex(std::prev(prev)->point, prev->point, p)) break;
    vertices_.erase(prev);
  }
  while (std::next(it) != vertices_.end() && std::next(std::next(it)) != vertices_.end()) {
    const auto after = std::next(it);
    if (strictly_convex(p, after->point, std::next(after)->point)) break;
    vertices_.erase(after);
  }
  relink(it);
  if (it != vertices_.begin()) relink(std::prev(it));
  return true;
}

std::optional<model::Point> ConvexChain::tangent(const model::Point& q, Side side) const {
  flush_tail();
  const auto it = vertices_.lower_bound(TangentProbe{kind_, side, q});
  if (it == vertices_.end()) return std::nullopt;
  const bool on_side = side == Side::kLeftOf ? it->point.x < q.x : it->point.x > q.x;
  if (!on_side) return std::nullopt;
  return it->point;
}

std::optional<model::Point> ConvexChain::vertex_at(model::Nanoseconds x) const {
  // Most queries (time order) fall beyond the last vertex: answer those in O(1).
  if (empty() || x > last_vertex().x) return std::nullopt;
  if (!tail_.empty() && x >= tail_.front().x) {
    const auto it = std::lower_bound(tail_.begin(), tail_.end(), x,
                                     [](const model::Point& v, model::Nanoseconds key) { return v.x < key; });
    if (it != tail_.end() && it->x == x) return *it;
    return std::nullopt;
  }
  const auto it = vertices_.find(x);
  if (it == vertices_.end()) return std::nullopt;
  return it->point;
}

std::vector<model::Point> ConvexChain::vertices() const {
  flush_tail();
  std::vector<model::Point> out;
  out.reserve(vertices_.size());
  for (const Vertex& v : vertices_) out.push_back(v.point);
  return out;
}

}  // namespace tracesync::hull
