// SPDX-License-Identifier: EPL-2.0
// The thesis workload: its mix is the thesis' table, generation is
// deterministic, every operation has its announced outcome when replayed,
// the incremental network and the baseline agree on it step by step, and
// the benchmark function reports consistent figures (no timing asserted).

#include "network/thesis_workload.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "brute_force_network.h"
#include "network/baseline_network.h"
#include "network/incremental_network.h"
#include "support/sanitized.h"

namespace tracesync::network {
namespace {

// Table 4.1 of the thesis: vertices, insertions, joins, stay, remove, updates.
constexpr std::array<std::array<std::size_t, 6>, 6> kTable{{
    {10000, 4991, 2503, 45449, 946879, 178},
    {20000, 9892, 5052, 76404, 908556, 96},
    {30000, 15005, 7496, 102672, 874761, 66},
    {40000, 19955, 10021, 125650, 844322, 52},
    {50000, 24959, 12519, 145733, 816753, 36},
    {60000, 29953, 15022, 164104, 790885, 36},
}};

TEST(ThesisWorkloadTest, MixIsTheThesisTable) {
  for (const auto& row : kTable) {
    const WorkloadCounts mix = thesis_operation_mix(row[0]);
    EXPECT_EQ(mix.counted(), 1'000'000U);
    EXPECT_EQ(2 * mix[WorkloadKind::kNewTree] + mix[WorkloadKind::kInsertion], row[0]);
    // The table's rows do not all add up to n: up to two insertions more or less.
    EXPECT_NEAR(static_cast<double>(mix[WorkloadKind::kInsertion]), static_cast<double>(row[1]), 2);
    EXPECT_EQ(mix[WorkloadKind::kJoin], row[2]);
    EXPECT_EQ(mix[WorkloadKind::kJoin], mix[WorkloadKind::kNewTree] - 1);
    EXPECT_EQ(mix[WorkloadKind::kCycleEntering], row[3]);
    EXPECT_NEAR(static_cast<double>(mix[WorkloadKind::kCycleIgnored]), static_cast<double>(row[4]), 2);
    EXPECT_EQ(mix[WorkloadKind::kWeightDecrease], row[5]);
  }
}

TEST(ThesisWorkloadTest, MixInterpolatesBetweenRowsAndScales) {
  const WorkloadCounts mid = thesis_operation_mix(35000);
  EXPECT_GT(mid[WorkloadKind::kCycleEntering], kTable[2][3]);
  EXPECT_LT(mid[WorkloadKind::kCycleEntering], kTable[3][3]);
  const WorkloadCounts small = thesis_operation_mix(1000, 50000);
  EXPECT_EQ(small.counted(), 50000U);
  EXPECT_EQ(2 * small[WorkloadKind::kNewTree] + small[WorkloadKind::kInsertion], 1000U);
  EXPECT_EQ(small[WorkloadKind::kCycleEntering], static_cast<std::size_t>(std::llround(45449 * 0.05)));  // clamped to the first row
  EXPECT_EQ(thesis_operation_mix(1).all(), 0U);
}

TEST(ThesisWorkloadTest, GenerationIsDeterministicAndMeetsTheMix) {
  const ThesisWorkload w1 = generate_thesis_workload(2000, 40000, 7);
  const ThesisWorkload w2 = generate_thesis_workload(2000, 40000, 7);
  const ThesisWorkload w3 = generate_thesis_workload(2000, 40000, 8);
  const WorkloadCounts mix = thesis_operation_mix(2000, 40000);
  for (int k = 0; k < kWorkloadKinds; ++k) EXPECT_EQ(w1.counts.by_kind[k], mix.by_kind[k]) << k;
  ASSERT_EQ(w1.operations.size(), mix.all());
  EXPECT_EQ(w1.ids.size(), 2000U);
  ASSERT_EQ(w2.operations.size(), w1.operations.size());
  bool all_same = true;
  bool any_different = false;
  for (std::size_t i = 0; i < w1.operations.size(); ++i) {
    const auto& x = w1.operations[i];
    const auto& y = w2.operations[i];
    all_same &= x.kind == y.kind && x.a == y.a && x.b == y.b && x.estimate.weight == y.estimate.weight &&
                x.estimate.b_onto_a.offset == y.estimate.b_onto_a.offset;
    const auto& z = w3.operations[i];
    any_different |= x.a != z.a || x.b != z.b;
  }
  EXPECT_TRUE(all_same);
  EXPECT_TRUE(any_different);
}

TEST(ThesisWorkloadTest, EveryOperationHasItsAnnouncedOutcome) {
  const ThesisWorkload w = generate_thesis_workload(3000, 60000, 3);
  IncrementalNetwork network;
  std::size_t growth_seen = 0;
  for (std::size_t i = 0; i < w.operations.size(); ++i) {
    const WorkloadOperation& op = w.operations[i];
    const bool separate = op.new_vertices > 0 || network.reference_of(op.a) != network.reference_of(op.b);
    apply_operation(w, i, network);
    switch (op.kind) {
      case WorkloadKind::kNewTree:
      case WorkloadKind::kInsertion:
      case WorkloadKind::kJoin:
        ASSERT_TRUE(separate) << i;  // growth links two trees
        ASSERT_TRUE(network.in_tree(op.a, op.b)) << i;
        growth_seen += i < w.operations.size() / 10 ? 1 : 0;
        break;
      case WorkloadKind::kCycleEntering:
        ASSERT_FALSE(separate) << i;
        ASSERT_TRUE(network.in_tree(op.a, op.b)) << i;
        break;
      case WorkloadKind::kCycleIgnored:
        ASSERT_FALSE(separate) << i;
        ASSERT_FALSE(network.in_tree(op.a, op.b)) << i;
        break;
      case WorkloadKind::kWeightDecrease:
        break;
    }
  }
  // Growth happens in the first tenth; the end is one tree.
  EXPECT_EQ(growth_seen, w.counts[WorkloadKind::kNewTree] + w.counts[WorkloadKind::kInsertion] +
                             w.counts[WorkloadKind::kJoin]);
  const Vertex reference = network.reference_of(0);
  for (Vertex v = 0; v < w.ids.size(); ++v) {
    ASSERT_EQ(network.reference_of(v), reference);
    // Edge transforms come from common clocks: any path gives the truth.
    const model::LinearTransform truth = w.clocks[reference].after(w.clocks[v].inverse());
    constexpr model::Nanoseconds t = 1'700'000'000'000'000'000;
    ASSERT_LT(model::abs(network.transform(v).apply(t) - truth.apply(t)), 1e-3Q) << v;
  }
}

TEST(ThesisWorkloadTest, IncrementalAndBaselineAgreeAfterEveryOperation) {
  ThesisWorkload w = generate_thesis_workload(40, 800, 11);
  // Multiples of 2^-20, so that path sums are exact: the baseline sums
  // rounded distances and would break exact ties (two centroids) by noise.
  for (WorkloadOperation& op : w.operations) op.estimate.weight = std::ldexp(std::round(std::ldexp(op.estimate.weight, 20)), -20);
  IncrementalNetwork incremental;
  BaselineNetwork baseline;
  for (std::size_t i = 0; i < w.operations.size(); ++i) {
    apply_operation(w, i, incremental);
    apply_operation(w, i, baseline);
    const WorkloadOperation& op = w.operations[i];
    ASSERT_EQ(incremental.in_tree(op.a, op.b), baseline.in_tree(op.a, op.b)) << i;
    for (Vertex v = 0; v < incremental.vertex_count(); ++v) {
      ASSERT_EQ(incremental.reference_of(v), baseline.reference_of(v)) << "operation " << i << ", vertex " << v;
      ASSERT_TRUE(oracle::close(incremental.transform(v), baseline.transform(v))) << i;
      ASSERT_NEAR(incremental.uncertainty_ns(v), baseline.uncertainty_ns(v), 1e-9 * baseline.uncertainty_ns(v));
    }
  }
}

TEST(ThesisWorkloadTest, BenchmarkReportIsConsistent) {
  // The baseline must finish within its budget of 120 s.
  TRACESYNC_SKIP_TIME_BUDGET_UNDER_SANITIZERS();
  NetworkBenchmarkOptions options;
  options.vertex_counts = {100};
  options.operations = 1500;
  options.repetitions = 1;
  options.snapshots = 2;
  options.baseline_budget_seconds = 120;
  const NetworkBenchmarkReport report = run_network_benchmark(options);
  ASSERT_EQ(report.rows.size(), 1U);
  const NetworkBenchmarkRow& row = report.rows[0];
  EXPECT_EQ(row.vertices, 100U);
  EXPECT_EQ(row.cycle_edges_entered, row.counts[WorkloadKind::kCycleEntering]);
  EXPECT_EQ(row.cycle_edges_ignored, row.counts[WorkloadKind::kCycleIgnored]);
  EXPECT_EQ(row.transforms_read, 200U);
  EXPECT_LT(row.max_transform_error_ns, 1e-3);
  EXPECT_TRUE(row.baseline_finished);
  EXPECT_EQ(row.baseline_operations, row.counts.all());
}

}  // namespace
}  // namespace tracesync::network
