// SPDX-License-Identifier: EPL-2.0
#pragma once

#include "model/linear_transform.h"
#include "network/network.h"

namespace tracesync::network {

// An edge's latest estimate, as the spanning forest keeps it (for a rebuild
// or a replacement search, which replay edges as they were given).
struct EdgeRecord {
  // As given to set_edge, in the caller's direction (inverting it costs a
  // quad division, so it waits until the edge enters the tree).
  model::LinearTransform transform;
  double weight = 0;
  double uncertainty_ns = 0;
  Vertex low = 0;  // the endpoint with the smaller index
  Vertex high = 0;
  bool maps_high_onto_low = true;  // else `transform` maps low onto high

  EdgeEstimate estimate() const { return {weight, transform, uncertainty_ns}; }
  // The ends in the order that makes `transform` map the second onto the first.
  Vertex first() const { return maps_high_onto_low ? low : high; }
  Vertex second() const { return maps_high_onto_low ? high : low; }
};

}  // namespace tracesync::network
