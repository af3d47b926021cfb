// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <vector>

#include "hull/tangent.h"
#include "model/point.h"

namespace tracesync::hull {

// One half-hull of a set of points, kept exactly as points arrive in any
// order. Only strict vertices are stored: a point on or inside the chain can
// never become a vertex again (the hull only grows), so it is dropped for good.
//
// Cost: a point right of every vertex (time order) is amortized O(1); any
// other point is O(log h) plus the vertices it removes (amortized O(1)).
// Tangent queries are O(log h).
//
// Representation: an ordered tree of vertices followed by a plain vector
// `tail_` of the vertices appended since the last out-of-order insertion or
// query. In time order nearly every message is appended and pops a vertex
// or two (Andrew's monotone chain), and a vector does that with no
// allocation; the tail is moved into the tree (O(1) each, with an end
// hint) when a point becomes a vertex inside the chain or a query needs the
// tree. A point that lands inside the chain and is no vertex (the usual
// out-of-order message: a slow one) is rejected where it falls, tail or
// tree, in O(log h), and moves nothing. Queries are const but not
// thread-safe.
class ConvexChain {
 public:
  explicit ConvexChain(ChainKind kind) : kind_(kind) {}

  ChainKind kind() const { return kind_; }
  std::size_t size() const { return vertices_.size() + tail_.size(); }
  bool empty() const { return size() == 0; }

  // Adds p. Returns false when p is not a vertex of the new chain.
  bool insert(const model::Point& p);

  // The vertex touched by the line through q that keeps every vertex on
  // `side` of q on the chain's bulge side (see tangent.h); nullopt when no
  // vertex lies strictly on that side.
  std::optional<model::Point> tangent(const model::Point& q, Side side) const;

  // The vertex with abscissa x, if any.
  std::optional<model::Point> vertex_at(model::Nanoseconds x) const;

  // Vertices in increasing x.
  std::vector<model::Point> vertices() const;

  // Calls f(left, right) for every edge, in increasing x.
  template <typename F>
  void for_each_edge(F&& f) const {
    flush_tail();
    for (const Vertex& v : vertices_) {
      if (v.has_next) f(v.point, v.next);
    }
  }

 private:
  // A vertex caches its successor so that the tangent predicate, which
  // needs both, can run inside the tree's own binary search.
  struct Vertex {
    model::Point point;
    mutable model::Point next;
    mutable bool has_next = false;
  };
  struct TangentProbe {
    ChainKind kind;
    Side side;
    model::Point q;
  };
  struct Order {
    using is_transparent = void;
    bool operator()(const Vertex& a, const Vertex& b) const { return a.point.x < b.point.x; }
    bool operator()(const Vertex& a, model::Nanoseconds x) const { return a.point.x < x; }
    bool operator()(model::Nanoseconds x, const Vertex& a) const { return x < a.point.x; }
    // Only lower_bound(TangentProbe) is used: "v sorts before the probe"
    // means "v comes before the touching vertex".
    bool operator()(const Vertex& v, const TangentProbe& probe) const {
      return before_tangent(probe.kind, probe.side, probe.q, v.point, v.has_next, v.next);
    }
  };
  using Tree = std::set<Vertex, Order>;
  using Iterator = Tree::iterator;

  // True when b is strictly on the bulge side of segment a-c.
  bool strictly_convex(const model::Point& a, const model::Point& b, const model::Point& c) const {
    return bulge(kind_) * model::orientation(a, c, b) > 0;
  }
  // True when a vertex with p's abscissa already dominates p.
  bool dominated_at_same_x(const model::Point& existing, const model::Point& p) const {
    return bulge(kind_) > 0 ? p.y <= existing.y : p.y >= existing.y;
  }
  struct Neighbours {
    const model::Point* before;  // nullptr when x is left of every vertex
    const model::Point* next;
  };
  Neighbours neighbours_of(model::Nanoseconds x) const;
  void relink(Iterator it) const;
  bool append(const model::Point& p);
  void flush_tail() const;
  const model::Point& last_vertex() const {
    return tail_.empty() ? std::prev(vertices_.end())->point : tail_.back();
  }

  ChainKind kind_;
  mutable Tree vertices_;
  mutable std::vector<model::Point> tail_;  // right of every tree vertex, in x order
};

}  // namespace tracesync::hull
