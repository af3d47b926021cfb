// SPDX-License-Identifier: EPL-2.0
// Random operation sequences of every kind. After each operation, the
// incremental network agrees with the Boost.Graph baseline and with the
// brute-force oracle: the same tree edges (the order is total), the same
// total weight as Kruskal, references at the brute-force optimum,
// transforms equal to the compositions along the tree and uncertainties
// equal to the path sums. Weights are multiples of 1/64 so that every sum
// is exact and ties are common; zero weights are frequent on purpose.

#include "network/incremental_network.h"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <set>
#include <string>

#include "brute_force_network.h"
#include "network/baseline_network.h"
#include "numbered_id.h"

namespace tracesync::network {
namespace {

enum Outcome {
  kNewVertex,
  kJoin,
  kCycleEntering,
  kCycleIgnored,
  kDecreaseTreeEdge,
  kDecreaseEntering,  // a non-tree edge got better and entered
  kIncreaseTreeEdgeReplaced,
  kIncreaseTreeEdgeKept,
  kIncreaseNonTreeEdge,
  kTransformRefresh,
  kForce,
  kRemoveTreeEdge,     // a link stopped being usable (window-independent)
  kRemoveNonTreeEdge,
  kOutcomes
};

// The same forest as Kruskal's (hence the same total weight), references at
// the brute-force optimum, transforms equal to the compositions along the
// tree, uncertainties equal to the path sums.
void expect_agrees(const Network& network, const oracle::BruteForceNetwork& oracle) {
  const std::size_t n = oracle.vertex_count();
  ASSERT_EQ(network.vertex_count(), n);
  const auto want = oracle.solve();
  const std::set<std::pair<Vertex, Vertex>> kruskal(want.forest.begin(), want.forest.end());
  double tree_weight = 0;
  for (const auto& [e, estimate] : oracle.edges()) {
    const bool in = network.in_tree(e.first, e.second);
    ASSERT_EQ(in, kruskal.contains(e)) << "edge " << e.first << "-" << e.second;
    if (in) tree_weight += estimate.weight;
  }
  ASSERT_EQ(tree_weight, want.forest_weight);
  for (Vertex v = 0; v < n; ++v) {
    ASSERT_EQ(network.reference_of(v), want.reference[v]) << "vertex " << v << " (" << oracle.id(v) << ")";
    ASSERT_TRUE(oracle::close(network.transform(v), want.transform[v]))
        << "vertex " << v << ": slope " << model::to_decimal(network.transform(v).slope) << " vs "
        << model::to_decimal(want.transform[v].slope);
    ASSERT_EQ(network.uncertainty_ns(v), want.uncertainty_ns[v]);
  }
}

class Sequence {
 public:
  Sequence(uint64_t seed, int max_weight_units) : rng_(seed), max_weight_units_(max_weight_units) {}

  void add_vertex() {
    // Ids unrelated to indices (and reused prefixes), so byte-wise id order matters.
    std::string id = testutil::numbered_id("d", rng_() % 1000);
    while (used_.contains(id)) id += "x";
    used_.insert(id);
    incremental_.add_vertex(id);
    baseline_.add_vertex(id);
    oracle_.add_vertex(id);
  }

  EdgeEstimate random_estimate(double weight) {
    const auto slope_units = static_cast<int>(rng_() % 2001) - 1000;
    const auto offset = static_cast<int64_t>(rng_() % 2'000'001) - 1'000'000;
    return EdgeEstimate{weight,
                        {1 + static_cast<model::Quad>(slope_units) / 1048576, static_cast<model::Quad>(offset)},
                        static_cast<double>(rng_() % 64) / 8};
  }
  double random_weight() { return static_cast<double>(rng_() % static_cast<uint64_t>(max_weight_units_ + 1)) / 64; }

  void set_edge(Vertex a, Vertex b, const EdgeEstimate& estimate) {
    incremental_.set_edge(a, b, estimate);
    baseline_.set_edge(a, b, estimate);
    oracle_.set_edge(a, b, estimate);
  }

  // One random operation; returns what it turned out to be.
  Outcome step() {
    const std::size_t n = oracle_.vertex_count();
    const int action = static_cast<int>(rng_() % 100);
    if (n < 2 || action < 8) {
      add_vertex();
      return kNewVertex;
    }
    const auto a = static_cast<Vertex>(rng_() % n);
    auto b = static_cast<Vertex>(rng_() % (n - 1));
    if (b >= a) ++b;
    if (action < 12) {
      incremental_.force_reference(a);
      baseline_.force_reference(a);
      oracle_.force_reference(a);
      return kForce;
    }
    const auto existing = oracle_.edge(a, b);
    const bool was_tree = incremental_.in_tree(a, b);
    if (existing && action < 16) {
      incremental_.remove_edge(a, b);
      baseline_.remove_edge(a, b);
      oracle_.remove_edge(a, b);
      return was_tree ? kRemoveTreeEdge : kRemoveNonTreeEdge;
    }
    const auto before = oracle_.solve();
    const bool same_island = before.island[a] == before.island[b];
    if (!existing || action < 45) {
      const double weight = random_weight();
      const bool decrease = existing && weight < existing->weight;
      const bool increase = existing && weight > existing->weight;
      // The transform as given for (a, b); set_edge(b, a) must mean the same edge.
      EdgeEstimate estimate = random_estimate(weight);
      if (rng_() % 2 == 0) {
        set_edge(a, b, estimate);
      } else {
        set_edge(b, a, EdgeEstimate{weight, estimate.b_onto_a.inverse(), estimate.uncertainty_ns});
      }
      const bool now_tree = incremental_.in_tree(a, b);
      if (!existing) return !same_island ? kJoin : now_tree ? kCycleEntering : kCycleIgnored;
      if (was_tree && increase) return now_tree ? kIncreaseTreeEdgeKept : kIncreaseTreeEdgeReplaced;
      if (!was_tree && increase) return kIncreaseNonTreeEdge;
      if (decrease) return was_tree ? kDecreaseTreeEdge : kDecreaseEntering;
      return kTransformRefresh;
    }
    // Same weight, new transform and uncertainty: the snapshot-time refresh.
    set_edge(a, b, random_estimate(existing->weight));
    return kTransformRefresh;
  }

  void check() const {
    ASSERT_NO_FATAL_FAILURE(expect_agrees(incremental_, oracle_));
    ASSERT_NO_FATAL_FAILURE(expect_agrees(baseline_, oracle_));
  }

 private:
  std::mt19937_64 rng_;
  int max_weight_units_;
  std::set<std::string> used_;
  IncrementalNetwork incremental_;
  BaselineNetwork baseline_;
  oracle::BruteForceNetwork oracle_;
};

TEST(IncrementalNetworkRandomTest, AgreesWithBaselineAndBruteForce) {
  std::array<int, kOutcomes> seen{};
  for (int seed = 1; seed <= 60; ++seed) {
    // Few weight values (many ties and zeros) on even seeds, many on odd ones.
    Sequence sequence(static_cast<uint64_t>(seed), seed % 2 == 0 ? 4 : 256);
    for (int i = 0; i < 220; ++i) {
      const Outcome outcome = sequence.step();
      ++seen[outcome];
      ASSERT_NO_FATAL_FAILURE(sequence.check()) << "seed " << seed << ", operation " << i << ", outcome " << outcome;
    }
  }
  // Every kind of operation occurred, or the sequences prove little.
  for (int k = 0; k < kOutcomes; ++k) EXPECT_GT(seen[k], 0) << "outcome " << k;
}

// Non-tree edges are only logged, and the log is compacted as it grows
// (NonTreeEdges): after hundreds of thousands of updates of few edges, the
// rare rebuilds (a tree edge got worse, an edge was removed) still see
// every edge's latest estimate, and only that.
TEST(IncrementalNetworkTest, LongRunsOfNonTreeUpdatesKeepTheLatestEstimates) {
  std::mt19937_64 rng(11);
  IncrementalNetwork network;
  oracle::BruteForceNetwork oracle;
  constexpr Vertex kVertices = 14;
  for (Vertex v = 0; v < kVertices; ++v) {
    network.add_vertex(testutil::numbered_id("v", v));
    oracle.add_vertex(testutil::numbered_id("v", v));
  }
  const auto estimate = [&](double weight) {
    const auto offset = static_cast<int64_t>(rng() % 2'000'001) - 1'000'000;
    return EdgeEstimate{weight, {1 + static_cast<model::Quad>(rng() % 1000) / 1048576, static_cast<model::Quad>(offset)},
                        static_cast<double>(rng() % 64) / 8};
  };
  int increases = 0;
  int removals = 0;
  for (int i = 0; i < 200'000; ++i) {
    const auto a = static_cast<Vertex>(rng() % kVertices);
    const auto b = static_cast<Vertex>((a + 1 + rng() % (kVertices - 1)) % kVertices);
    bool rebuilt = false;
    if (rng() % 20'000 == 0 && oracle.edge(a, b)) {
      network.remove_edge(a, b);
      oracle.remove_edge(a, b);
      ++removals;
      rebuilt = true;
    } else if (network.in_tree(a, b)) {
      // Tree edges rarely get worse (each time, the log is read whole).
      if (rng() % 500 != 0) continue;
      const EdgeEstimate worse = estimate(oracle.edge(a, b)->weight + static_cast<double>(1 + rng() % 64) / 64);
      network.set_edge(a, b, worse);
      oracle.set_edge(a, b, worse);
      ++increases;
      rebuilt = true;
    } else {
      const EdgeEstimate update = estimate(static_cast<double>(rng() % 256) / 64);
      network.set_edge(a, b, update);
      oracle.set_edge(a, b, update);
    }
    if (rebuilt || i % 2'000 == 0) {
      ASSERT_NO_FATAL_FAILURE(expect_agrees(network, oracle)) << "operation " << i;
    }
  }
  ASSERT_NO_FATAL_FAILURE(expect_agrees(network, oracle));
  EXPECT_GT(increases, 20);
  EXPECT_GT(removals, 2);
}

TEST(IncrementalNetworkTest, RejectsInvalidCalls) {
  IncrementalNetwork network;
  const Vertex a = network.add_vertex("alpha");
  const Vertex b = network.add_vertex("beta");
  const EdgeEstimate good{1, {}, 2};
  const auto message_of = [&](auto&& call) {
    try {
      call();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  EXPECT_EQ(message_of([&] { network.add_vertex("alpha"); }), "add_vertex: id \"alpha\" already names vertex 0");
  EXPECT_EQ(message_of([&] { network.set_edge(a, 7, good); }),
            "set_edge: unknown vertex 7 (the network has 2)");
  EXPECT_EQ(message_of([&] { network.set_edge(a, a, good); }),
            "set_edge(\"alpha\", \"alpha\"): an edge needs two different vertices");
  EXPECT_NE(message_of([&] { network.set_edge(a, b, {-1, {}, 0}); }).find("weight -1"), std::string::npos);
  EXPECT_NE(message_of([&] { network.set_edge(a, b, {std::nan(""), {}, 0}); }).find("weight nan"),
            std::string::npos);
  EXPECT_NE(message_of([&] { network.set_edge(a, b, {1, {0, 5}, 0}); }).find("not an invertible"), std::string::npos);
  EXPECT_NE(message_of([&] { network.set_edge(a, b, {1, {}, -3}); }).find("uncertainty"), std::string::npos);
  EXPECT_EQ(message_of([&] { network.force_reference(9); }), "force_reference: unknown vertex 9 (the network has 2)");
  // Nothing was changed by the rejected calls.
  EXPECT_EQ(network.vertex_count(), 2U);
  EXPECT_FALSE(network.in_tree(a, b));
  EXPECT_EQ(network.reference_of(b), b);
}

TEST(IncrementalNetworkTest, FactoryReturnsTheIncrementalNetwork) {
  EXPECT_NE(dynamic_cast<IncrementalNetwork*>(make_network(NetworkKind::kIncremental).get()), nullptr);
  EXPECT_NE(dynamic_cast<BaselineNetwork*>(make_network(NetworkKind::kBaseline).get()), nullptr);
}

}  // namespace
}  // namespace tracesync::network
