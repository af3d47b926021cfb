// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>
#include <tuple>

namespace tracesync::network {

// The total order of edges every implementation uses to pick between equal
// weights: (weight, smaller id, larger id), ids compared byte-wise.
struct EdgeKey {
  double weight;
  const std::string* low_id;
  const std::string* high_id;

  friend bool operator<(const EdgeKey& x, const EdgeKey& y) {
    return std::tie(x.weight, *x.low_id, *x.high_id) < std::tie(y.weight, *y.low_id, *y.high_id);
  }
};

inline EdgeKey edge_key(double weight, const std::string& id1, const std::string& id2) {
  return id1 < id2 ? EdgeKey{weight, &id1, &id2} : EdgeKey{weight, &id2, &id1};
}

}  // namespace tracesync::network
