// SPDX-License-Identifier: EPL-2.0
#include "network/path_transform.h"

namespace tracesync::network {
namespace {

// Gives a lone edge the direction that puts `shared` at its `end` side.
PathTransform oriented_towards(const PathTransform& stretch, Vertex shared, bool shared_is_last) {
  if (stretch.oriented) return stretch;
  const bool already = shared_is_last ? stretch.last == shared : stretch.first == shared;
  PathTransform result = already ? stretch : stretch.reversed();
  result.oriented = true;
  return result;
}

}  // namespace

PathTransform join(const PathTransform& before, const PathTransform& after) {
  // Neighbouring stretches share their meeting vertex: one of them owns it
  // as a node, the other names it as its outer endpoint.
  if (before.identity) return oriented_towards(after, before.last, false);
  if (after.identity) return oriented_towards(before, after.first, true);
  const PathTransform a = oriented_towards(before, after.first, true);
  const PathTransform b = oriented_towards(after, a.last, false);
  PathTransform result;
  result.first = a.first;
  result.last = b.last;
  result.oriented = true;
  result.identity = false;
  // last -> (b.first == a.last) -> first.
  result.last_onto_first = a.last_onto_first.after(b.last_onto_first);
  result.first_onto_last = b.first_onto_last.after(a.first_onto_last);
  result.uncertainty_ns = a.uncertainty_ns + b.uncertainty_ns;
  return result;
}

}  // namespace tracesync::network
