// Replays the thesis' simulated workload (Tables 4.1 / 5.1) on the
// incremental network and the baseline, and prints the figures; a stand-in
// for `tracesync bench network` until the CLI wires run_network_benchmark.
//
// Usage: network_bench [--sizes 10000,20000,...] [--operations N] [--seed S]
//                      [--repetitions R] [--snapshots K] [--baseline-budget SECONDS] [--no-baseline]

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "network/thesis_workload.h"

namespace {

using tracesync::network::NetworkBenchmarkOptions;
using tracesync::network::WorkloadKind;

bool parse(int argc, char** argv, NetworkBenchmarkOptions& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    if (arg == "--no-baseline") {
      options.run_baseline = false;
      continue;
    }
    if (value == nullptr) {
      std::fprintf(stderr, "network_bench: %s needs a value\n", arg.c_str());
      return false;
    }
    ++i;
    if (arg == "--sizes") {
      options.vertex_counts.clear();
      for (const char* p = value; *p != '\0';) {
        char* end = nullptr;
        options.vertex_counts.push_back(std::strtoull(p, &end, 10));
        p = *end == ',' ? end + 1 : end;
        if (end == p && *p != '\0') return false;
      }
    } else if (arg == "--operations") {
      options.operations = std::strtoull(value, nullptr, 10);
    } else if (arg == "--seed") {
      options.seed = std::strtoull(value, nullptr, 10);
    } else if (arg == "--repetitions") {
      options.repetitions = std::atoi(value);
    } else if (arg == "--snapshots") {
      options.snapshots = std::atoi(value);
    } else if (arg == "--baseline-budget") {
      options.baseline_budget_seconds = std::atof(value);
    } else {
      std::fprintf(stderr, "network_bench: unknown option %s\n", arg.c_str());
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  NetworkBenchmarkOptions options;
  if (!parse(argc, argv, options)) return 2;
  const auto report = tracesync::network::run_network_benchmark(options);
  std::printf("thesis workload: %zu counted operations per size, seed %llu, median of %d runs, CPU seconds\n",
              options.operations, static_cast<unsigned long long>(options.seed), options.repetitions);
  std::printf("forest: MST alone; ref: what references and the network's bookkeeping add; total: both;\n"
              "propag: %d reads of every transform, each after a change; max-err: transforms vs true clocks\n",
              options.snapshots);
  std::printf("%8s %8s %7s %6s %8s %8s %6s | %8s %8s %8s %8s | %8s %9s %8s | %s\n", "vertices", "new-tree",
              "insert", "join", "cyc-in", "cyc-out", "decr", "forest", "ref", "total", "propag", "reads",
              "max-err", "", "baseline (cut at the budget)");
  for (const auto& row : report.rows) {
    std::string baseline = "not run";
    if (options.run_baseline) {
      char text[160];
      if (row.baseline_finished) {
        std::snprintf(text, sizeof text, "finished: %.3f s", row.baseline_seconds);
      } else {
        // Its cost per operation only grows with the graph: the average so
        // far gives a lower bound for the whole run.
        const double average = row.baseline_seconds / static_cast<double>(row.baseline_operations);
        std::snprintf(text, sizeof text, "%zu of %zu ops in %.1f s; all would take > %.0f s",
                      row.baseline_operations, row.counts.all(), row.baseline_seconds,
                      average * static_cast<double>(row.counts.all()));
      }
      baseline = text;
    }
    std::printf("%8zu %8zu %7zu %6zu %8zu %8zu %6zu | %7.3fs %7.3fs %7.3fs %7.3fs | %8zu %7.2gns %8s | %s\n",
                row.vertices, row.counts[WorkloadKind::kNewTree], row.counts[WorkloadKind::kInsertion],
                row.counts[WorkloadKind::kJoin], row.cycle_edges_entered, row.cycle_edges_ignored,
                row.counts[WorkloadKind::kWeightDecrease], row.forest_seconds, row.reference_seconds,
                row.incremental_seconds, row.propagation_seconds, row.transforms_read, row.max_transform_error_ns,
                "", baseline.c_str());
  }
  return 0;
}
