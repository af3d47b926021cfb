// SPDX-License-Identifier: EPL-2.0
#pragma once

#include "model/orientation.h"
#include "model/point.h"

namespace tracesync::hull {

// Which half-hull a chain is. Lower points (a -> b) only matter through the
// lower hull of their set; upper points (b -> a) through the upper hull.
enum class ChainKind { kLowerHull, kUpperHull };

// +1 for an upper hull (its vertices bulge upwards), -1 for a lower hull.
inline int bulge(ChainKind kind) { return kind == ChainKind::kUpperHull ? 1 : -1; }

// Which vertices a tangent query looks at: those strictly left or right of
// the query point.
enum class Side { kLeftOf, kRightOf };

// The extreme slope between a point q and the vertices of a chain on one
// side of it is reached where the line through q touches the chain (the
// chain lies entirely on its bulge side of that line). Along the chain the
// slope to q is unimodal, so "vertex v comes before the touching vertex" is
// a monotone predicate of the vertex and its successor `next`, usable by a
// binary search.
//
//  upper hull, left of q:  min slope(v, q)     lower hull, left of q:  max slope(v, q)
//  upper hull, right of q: max slope(q, v)     lower hull, right of q: min slope(q, v)
//
// `has_next` is false for the last vertex of the chain.
inline bool before_tangent(ChainKind kind, Side side, const model::Point& q, const model::Point& v,
                           bool has_next, const model::Point& next) {
  if (side == Side::kLeftOf) {
    if (v.x >= q.x || !has_next || next.x >= q.x) return false;
    return bulge(kind) * model::orientation(v, q, next) > 0;
  }
  if (v.x <= q.x) return true;
  if (!has_next) return false;
  return bulge(kind) * model::orientation(q, v, next) > 0;
}

}  // namespace tracesync::hull
