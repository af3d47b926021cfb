#include "network/baseline_network.h"
#include "network/network.h"

namespace tracesync::network {

std::string_view to_string(NetworkKind kind) {
  return kind == NetworkKind::kBaseline ? "baseline" : "incremental";
}

std::unique_ptr<Network> make_network(NetworkKind kind) {
  // Until the incremental forest lands, both kinds are the baseline.
  (void)kind;
  return std::make_unique<BaselineNetwork>();
}

}  // namespace tracesync::network
