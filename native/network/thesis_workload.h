// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/linear_transform.h"
#include "network/network.h"

namespace tracesync::network {

// The simulated workload of the thesis (Tables 4.1 and 5.1): a forest grows
// from new 2-vertex trees, insertions of new vertices and joins of trees
// into one tree of n vertices, while new edges close cycles (entering the
// MST or ignored by it) and existing edges get better weights.
enum class WorkloadKind : uint8_t {
  kNewTree,         // two new vertices and the edge between them
  kInsertion,       // a new vertex linked to an existing one
  kJoin,            // an edge between two trees
  kCycleEntering,   // an edge inside a tree that enters the MST ("Stay", "Examined-Link")
  kCycleIgnored,    // an edge inside a tree that the MST ignores ("Remove", "Ignored-Link")
  kWeightDecrease,  // a better weight for an existing edge ("updateEdge")
};
inline constexpr int kWorkloadKinds = 6;
const char* to_string(WorkloadKind kind);

// Operation counts by kind, indexed by WorkloadKind.
struct WorkloadCounts {
  std::size_t by_kind[kWorkloadKinds] = {};

  std::size_t& operator[](WorkloadKind kind) { return by_kind[static_cast<int>(kind)]; }
  std::size_t operator[](WorkloadKind kind) const { return by_kind[static_cast<int>(kind)]; }
  // The thesis counts a million operations without the new trees.
  std::size_t counted() const;
  std::size_t all() const { return counted() + (*this)[WorkloadKind::kNewTree]; }
};

// The mix of the thesis' tables for n vertices and `operations` counted
// operations. The six datasets (n = 10,000 ... 60,000, a million
// operations) give the table's row, up to two insertions (and as many
// ignored cycle edges) where the table's counts do not add up to n. Between and beyond them, fractions are
// interpolated (clamped). New trees and insertions add up to n vertices,
// and joins leave a single tree.
WorkloadCounts thesis_operation_mix(std::size_t vertices, std::size_t operations = 1'000'000);

struct WorkloadOperation {
  WorkloadKind kind;
  uint8_t new_vertices;  // 2: a and b are new; 1: b is new; 0: none
  Vertex a;
  Vertex b;
  EdgeEstimate estimate;  // b_onto_a consistent with per-vertex clocks
};

struct ThesisWorkload {
  std::vector<std::string> ids;  // vertex i is the i-th one created
  std::vector<model::LinearTransform> clocks;  // vertex i's local time from a common true time
  std::vector<WorkloadOperation> operations;
  WorkloadCounts counts;  // as generated (equal to the mix unless the graph ran out of room)
};

// Deterministic for a seed. Growth (new trees, insertions, joins) is spread
// over the first `growth_share` of the sequence, since a cluster's network
// forms first and then keeps improving (thesis 4.7.1); the rest are cycle
// edges and weight decreases. Weights are chosen so that each kind has its
// announced outcome, without running an MST: growth edges weigh in [1, 2),
// ignored cycle edges in [2, 3) (above every tree edge), entering cycle
// edges below every weight so far, and decreases stay above that floor.
// Edge transforms come from random per-vertex clocks, so every path
// between two vertices composes to the same transform.
ThesisWorkload generate_thesis_workload(std::size_t vertices, std::size_t operations, uint64_t seed,
                                        double growth_share = 0.1);

// Adds operation i's new vertices to the network and sets its edge.
void apply_operation(const ThesisWorkload& workload, std::size_t i, Network& network);

struct NetworkBenchmarkOptions {
  std::vector<std::size_t> vertex_counts{10'000, 20'000, 30'000, 40'000, 50'000, 60'000};
  std::size_t operations = 1'000'000;
  uint64_t seed = 1;
  int repetitions = 3;  // the report keeps the median of each figure
  bool run_baseline = true;
  double baseline_budget_seconds = 10;  // per size, wall time
  // Propagation: transforms read after the replay, of every vertex, this many times
  // (each after a batch of weight refreshes that invalidates every cached transform).
  int snapshots = 10;
};

struct NetworkBenchmarkRow {
  std::size_t vertices = 0;
  WorkloadCounts counts;
  // Outcomes observed on replay, which must match the generated kinds.
  std::size_t cycle_edges_entered = 0;
  std::size_t cycle_edges_ignored = 0;
  // Incremental network, CPU seconds of the replaying thread (medians).
  // forest: the spanning forest alone. reference: what the full network
  // adds to it (reference maintenance, plus its own bookkeeping: argument
  // checks, ids, island versions), the difference of separate runs.
  // propagation: the snapshot reads of every transform and uncertainty.
  double forest_seconds = 0;
  double reference_seconds = 0;
  double incremental_seconds = 0;  // forest and references: one full replay
  double propagation_seconds = 0;
  std::size_t transforms_read = 0;
  // Largest deviation of a read transform from the generating clocks, in ns at t = 1.7e18.
  double max_transform_error_ns = 0;
  // Baseline: replayed until done or out of budget (CPU seconds).
  std::size_t baseline_operations = 0;
  double baseline_seconds = 0;
  bool baseline_finished = false;
};

struct NetworkBenchmarkReport {
  NetworkBenchmarkOptions options;
  std::vector<NetworkBenchmarkRow> rows;
};

NetworkBenchmarkReport run_network_benchmark(const NetworkBenchmarkOptions& options);

}  // namespace tracesync::network
