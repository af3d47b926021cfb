// SPDX-License-Identifier: EPL-2.0
#pragma once

#include "model/linear_transform.h"
#include "model/quad.h"
#include "network/network.h"

namespace tracesync::network {

// The composition of the link transforms along a stretch of a tree path, in
// both directions, with the sum of the link uncertainties: the aggregate a
// splay tree keeps for the path it represents (link_cut_tree.h).
//
// A stretch alternates vertices and edges. Its ends are vertices: a stretch
// that begins (ends) with an edge is named by that edge's outer endpoint. A
// lone edge has no direction yet, since either endpoint may be outside; it
// takes one when joined to a neighbour, which names the shared vertex.
struct PathTransform {
  Vertex first = 0;
  Vertex last = 0;
  bool oriented = true;   // false only for a lone edge
  bool identity = true;   // a lone vertex: nothing to compose
  model::LinearTransform last_onto_first;
  model::LinearTransform first_onto_last;
  model::Quad uncertainty_ns = 0;

  static PathTransform vertex(Vertex v) {
    PathTransform p;
    p.first = p.last = v;
    return p;
  }

  // An edge between `low` and `high`; `high_onto_low` maps high's time onto low's.
  static PathTransform edge(Vertex low, Vertex high, const model::LinearTransform& high_onto_low,
                            double uncertainty_ns) {
    return PathTransform{low, high, false, false, high_onto_low, high_onto_low.inverse(), uncertainty_ns};
  }
  // The same from whichever direction is at hand.
  static PathTransform edge(Vertex low, Vertex high, const model::LinearTransform& transform,
                            bool maps_high_onto_low, double uncertainty_ns) {
    if (maps_high_onto_low) return edge(low, high, transform, uncertainty_ns);
    return PathTransform{low, high, false, false, transform.inverse(), transform, uncertainty_ns};
  }

  // The same stretch read from the other end.
  PathTransform reversed() const {
    return PathTransform{last, first, oriented, identity, first_onto_last, last_onto_first, uncertainty_ns};
  }

  // The stretch `before` followed by the stretch `after` (adjacent on a path).
  friend PathTransform join(const PathTransform& before, const PathTransform& after);
};

}  // namespace tracesync::network
