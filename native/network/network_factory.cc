// SPDX-License-Identifier: EPL-2.0
#include "network/baseline_network.h"
#include "network/incremental_network.h"
#include "network/network.h"

namespace tracesync::network {

std::string_view to_string(NetworkKind kind) {
  return kind == NetworkKind::kBaseline ? "baseline" : "incremental";
}

std::unique_ptr<Network> make_network(NetworkKind kind) {
  if (kind == NetworkKind::kBaseline) return std::make_unique<BaselineNetwork>();
  return std::make_unique<IncrementalNetwork>();
}

}  // namespace tracesync::network
