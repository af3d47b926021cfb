// SPDX-License-Identifier: EPL-2.0
#pragma once

#include "network/thesis_workload.h"

namespace tracesync::cli {

// `tracesync bench network`: the thesis' workload on the incremental
// network and the Boost.Graph baseline. Prints figures; returns an exit code.
int run_bench_network(const network::NetworkBenchmarkOptions& options, bool json);

}  // namespace tracesync::cli
