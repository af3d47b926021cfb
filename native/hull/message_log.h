// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

#include "hull/chunk_log.h"
#include "hull/link_message.h"
#include "model/point.h"

namespace tracesync::hull {

// Every message of a link or segment, kept for the envelope bound and for
// resegmenting (piecewise_hull_estimator.h): 16 bytes a message, each
// direction's points in a ChunkLog of their own, so that no direction field
// is stored. Keeping messages costs mostly the first touch of their pages
// (docs/clock-model.md, "Speed"): a third fewer than 24-byte records.
//
// Arrival order until sort(), which orders each direction by (x, y): the
// rule's order (x, direction, y) restricted to one direction.
class MessageLog {
 public:
  using Points = ChunkLog<model::Point>;

  // On the hot path of every message: no comparison, one store.
  void append(const LinkMessage& message) { (message.is_lower() ? lower_ : upper_).append(message.point); }

  std::size_t size() const { return lower_.size() + upper_.size(); }
  bool empty() const { return size() == 0; }

  // Sorts both directions, unless they already are (one pass over each).
  void sort() {
    for (Points* points : {&lower_, &upper_}) {
      if (!std::is_sorted(points->begin(), points->end())) points->sort(std::less<>());
    }
  }

  // The a -> b messages' points and the b -> a ones, sorted after sort().
  const Points& lower() const { return lower_; }
  const Points& upper() const { return upper_; }

  // Every message in the rule's order, (x, direction, y); sorts first.
  std::vector<LinkMessage> in_rule_order() {
    sort();
    std::vector<LinkMessage> out;
    out.reserve(size());
    for_each_in_rule_order([&](const LinkMessage& m) { out.push_back(m); });
    return out;
  }

  // Every message in the rule's order, without a copy; the log is sorted
  // (sort()).
  template <typename F>
  void for_each_in_rule_order(F&& f) const {
    auto l = lower_.begin();
    auto u = upper_.begin();
    while (l != lower_.end() || u != upper_.end()) {
      // At one abscissa the a -> b messages come first.
      if (u == upper_.end() || (l != lower_.end() && l->x <= u->x)) {
        f(LinkMessage{Direction::kAtoB, *l++});
      } else {
        f(LinkMessage{Direction::kBtoA, *u++});
      }
    }
  }

  // Every message, in no particular order.
  template <typename F>
  void for_each(F&& f) const {
    for (const model::Point& p : lower_) f(LinkMessage{Direction::kAtoB, p});
    for (const model::Point& p : upper_) f(LinkMessage{Direction::kBtoA, p});
  }

 private:
  Points lower_;
  Points upper_;
};

}  // namespace tracesync::hull
