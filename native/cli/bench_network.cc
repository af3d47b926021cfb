// SPDX-License-Identifier: EPL-2.0
#include "cli/bench_network.h"

#include <cstdio>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/exit_codes.h"

namespace tracesync::cli {
namespace {

using network::WorkloadKind;

// The baseline's cost per operation only grows with the graph, so the
// average over what it did within its budget times all operations is a
// lower bound for the whole run.
double baseline_lower_bound(const network::NetworkBenchmarkRow& row) {
  return row.baseline_seconds / static_cast<double>(row.baseline_operations) * static_cast<double>(row.counts.all());
}

}  // namespace

int run_bench_network(const network::NetworkBenchmarkOptions& options, bool json) {
  std::cerr << "replaying the thesis workload (" << options.operations << " operations per size)...\n";
  const auto report = network::run_network_benchmark(options);
  if (json) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& row : report.rows) {
      nlohmann::ordered_json j = {{"vertices", row.vertices},
                                  {"new_trees", row.counts[WorkloadKind::kNewTree]},
                                  {"insertions", row.counts[WorkloadKind::kInsertion]},
                                  {"joins", row.counts[WorkloadKind::kJoin]},
                                  {"cycle_entered", row.cycle_edges_entered},
                                  {"cycle_ignored", row.cycle_edges_ignored},
                                  {"weight_decreases", row.counts[WorkloadKind::kWeightDecrease]},
                                  {"forest_s", row.forest_seconds},
                                  {"reference_s", row.reference_seconds},
                                  {"incremental_s", row.incremental_seconds},
                                  {"propagation_s", row.propagation_seconds},
                                  {"transforms_read", row.transforms_read},
                                  {"max_transform_error_ns", row.max_transform_error_ns}};
      if (options.run_baseline) {
        j["baseline_operations"] = row.baseline_operations;
        j["baseline_s"] = row.baseline_seconds;
        j["baseline_finished"] = row.baseline_finished;
        if (!row.baseline_finished && row.baseline_operations > 0) j["baseline_lower_bound_s"] = baseline_lower_bound(row);
      }
      rows.push_back(std::move(j));
    }
    std::cout << nlohmann::ordered_json{{"format", "tracesync-bench-network/1"},
                                        {"operations", options.operations},
                                        {"seed", options.seed},
                                        {"repetitions", options.repetitions},
                                        {"rows", rows}}
                     .dump(2)
              << "\n";
    return kSuccess;
  }
  std::printf("network benchmark: the thesis workload (Tables 4.1/5.1), %zu counted operations per size,\n"
              "seed %llu, median of %d runs, CPU seconds of the replaying thread\n"
              "  forest: the spanning forest alone; ref: what references add; total: the full incremental network;\n"
              "  propag: %d reads of every transform, each after a change; max-err: transforms vs the true clocks\n",
              options.operations, static_cast<unsigned long long>(options.seed), options.repetitions, options.snapshots);
  std::printf("%8s %7s %6s %8s %8s %6s | %8s %8s %8s %8s | %9s | %s\n", "vertices", "insert", "join", "cyc-in",
              "cyc-out", "decr", "forest", "ref", "total", "propag", "max-err", "baseline (stopped at its budget)");
  for (const auto& row : report.rows) {
    std::string baseline = "not run";
    if (options.run_baseline) {
      char text[200];
      if (row.baseline_finished) {
        std::snprintf(text, sizeof text, "%.3f s (x%.0f the incremental total)", row.baseline_seconds,
                      row.baseline_seconds / row.incremental_seconds);
      } else {
        std::snprintf(text, sizeof text, "%zu of %zu ops in %.1f s; all > %.0f s", row.baseline_operations,
                      row.counts.all(), row.baseline_seconds, baseline_lower_bound(row));
      }
      baseline = text;
    }
    std::printf("%8zu %7zu %6zu %8zu %8zu %6zu | %7.3fs %7.3fs %7.3fs %7.3fs | %7.1e ns | %s\n", row.vertices,
                row.counts[WorkloadKind::kInsertion] + row.counts[WorkloadKind::kNewTree],
                row.counts[WorkloadKind::kJoin], row.cycle_edges_entered, row.cycle_edges_ignored,
                row.counts[WorkloadKind::kWeightDecrease], row.forest_seconds, row.reference_seconds,
                row.incremental_seconds, row.propagation_seconds, row.max_transform_error_ns, baseline.c_str());
  }
  return kSuccess;
}

}  // namespace tracesync::cli
