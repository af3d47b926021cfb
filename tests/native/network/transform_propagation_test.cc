// SPDX-License-Identifier: EPL-2.0
// Transforms read in every pattern (a few alone, whole islands, after
// changes of one edge, of the tree, of the reference) equal the brute-force
// compositions: path queries and whole-island traversals give the same answers.

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "brute_force_network.h"
#include "numbered_id.h"
#include "network/incremental_network.h"

namespace tracesync::network {
namespace {

class PropagationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int i = 0; i < kVertices; ++i) add(std::to_string(1000 + i * 37 % 500));
    // A random tree plus worse extra edges, so the tree can be reshaped.
    for (Vertex v = 1; v < kVertices; ++v) set(v, static_cast<Vertex>(rng_() % v), 32 + rng_() % 32);
    for (int i = 0; i < 100; ++i) set(pick(), pick(), 64 + rng_() % 64);
  }

  void add(const std::string& id) {
    network_.add_vertex(id + "h");
    oracle_.add_vertex(id + "h");
  }
  Vertex pick() { return static_cast<Vertex>(rng_() % kVertices); }
  void set(Vertex a, Vertex b, uint64_t weight_units) {
    if (a == b) return;
    const EdgeEstimate e{static_cast<double>(weight_units) / 64,
                         {1 + static_cast<model::Quad>(static_cast<int>(rng_() % 201) - 100) / 1048576,
                          static_cast<model::Quad>(static_cast<int64_t>(rng_() % 2'000'001) - 1'000'000)},
                         static_cast<double>(rng_() % 64) / 8};
    network_.set_edge(a, b, e);
    oracle_.set_edge(a, b, e);
  }

  // Reads `vertices` in that order and checks each.
  void read_and_check(const std::vector<Vertex>& vertices) {
    const auto want = oracle_.solve();
    for (const Vertex v : vertices) {
      ASSERT_EQ(network_.reference_of(v), want.reference[v]);
      ASSERT_TRUE(oracle::close(network_.transform(v), want.transform[v])) << "vertex " << v;
      ASSERT_EQ(network_.uncertainty_ns(v), want.uncertainty_ns[v]) << "vertex " << v;
    }
  }
  std::vector<Vertex> all() const {
    std::vector<Vertex> v(kVertices);
    for (Vertex i = 0; i < kVertices; ++i) v[i] = i;
    return v;
  }

  static constexpr int kVertices = 400;
  std::mt19937_64 rng_{5};
  IncrementalNetwork network_;
  oracle::BruteForceNetwork oracle_;
};

TEST_F(PropagationTest, FewReadsThenWholeIslandsInEveryOrder) {
  // 400 vertices: 25 path reads per version before a traversal takes over.
  read_and_check({3, 17, 250});
  read_and_check(all());
  for (int round = 0; round < 6; ++round) {
    switch (round % 3) {
      case 0: {  // a new estimate for some tree edge, same weight
        for (;;) {
          const Vertex a = pick(), b = pick();
          if (a == b || !network_.in_tree(a, b)) continue;
          set(a, b, static_cast<uint64_t>(oracle_.edge(a, b)->weight * 64));
          break;
        }
        break;
      }
      case 1:  // a better edge somewhere: likely reshapes the tree
        set(pick(), pick(), rng_() % 16);
        break;
      case 2: {  // a forced reference
        const Vertex v = pick();
        network_.force_reference(v);
        oracle_.force_reference(v);
        break;
      }
    }
    std::vector<Vertex> order = all();
    std::shuffle(order.begin(), order.end(), rng_);
    // Some reads alone (path queries), then everything (the traversal), in a random order.
    read_and_check(std::vector<Vertex>(order.begin(), order.begin() + 10));
    read_and_check(order);
  }
}

TEST(PropagationSnapshotTest, ReadingEveryTransformGivesTheSameBitsHoweverTheNetworkWasBuilt) {
  // One graph built twice: the edges in two orders, the second network read
  // (path queries) between insertions, so that their splay trees differ.
  // After expect_reading_every_transform, every bit of every transform agrees.
  constexpr int kVertices = 300;
  std::mt19937_64 rng(23);
  struct Edge {
    Vertex a, b;
    EdgeEstimate estimate;
  };
  std::vector<Edge> edges;
  const auto estimate = [&](double weight) {
    // Drifts of up to 3e-4 and offsets of hours, in thirds and sevenths:
    // compositions round in the last digits, differently when grouped differently.
    return EdgeEstimate{weight,
                        {1 + static_cast<model::Quad>(static_cast<int>(rng() % 2001) - 1000) / 3'000'017,
                         static_cast<model::Quad>(static_cast<int64_t>(rng() % 20'000'001) - 10'000'000) * 1'000'000 / 7},
                        static_cast<double>(rng() % 64) / 8};
  };
  // A long, thin tree (each vertex hangs near the previous): paths of
  // a hundred edges and more, many compositions each.
  for (Vertex v = 1; v < kVertices; ++v) {
    edges.push_back({v, v - 1 - static_cast<Vertex>(rng() % std::min<Vertex>(v, 3)), estimate(static_cast<double>(1 + rng() % 1000))});
  }
  std::set<std::pair<Vertex, Vertex>> pairs;
  for (const Edge& e : edges) pairs.insert(std::minmax(e.a, e.b));
  for (int i = 0; i < 600; ++i) {
    const auto a = static_cast<Vertex>(rng() % kVertices), b = static_cast<Vertex>(rng() % kVertices);
    // Each pair once, so that the order leaves every edge with one estimate.
    if (a != b && pairs.insert(std::minmax(a, b)).second) edges.push_back({a, b, estimate(static_cast<double>(rng() % 2000))});
  }
  IncrementalNetwork first, second;
  for (int i = 0; i < kVertices; ++i) {
    first.add_vertex(testutil::numbered_id("d", i));
    second.add_vertex(testutil::numbered_id("d", i));
  }
  for (const Edge& e : edges) first.set_edge(e.a, e.b, e.estimate);
  std::vector<Edge> shuffled = edges;
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  for (std::size_t i = 0; i < shuffled.size(); ++i) {
    second.set_edge(shuffled[i].a, shuffled[i].b, shuffled[i].estimate);
    if (i % 7 == 0) second.transform(static_cast<Vertex>(rng() % kVertices));
  }

  first.expect_reading_every_transform();
  second.expect_reading_every_transform();
  for (Vertex v = 0; v < kVertices; ++v) {
    ASSERT_EQ(first.reference_of(v), second.reference_of(v));
    const model::LinearTransform x = first.transform(v), y = second.transform(v);
    EXPECT_TRUE(x.slope == y.slope && x.offset == y.offset) << "vertex " << v;
    EXPECT_EQ(first.uncertainty_ns(v), second.uncertainty_ns(v)) << "vertex " << v;
  }
}

}  // namespace
}  // namespace tracesync::network
