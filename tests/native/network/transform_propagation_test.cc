// Transforms read in every pattern (a few alone, whole islands, after
// changes of one edge, of the tree, of the reference) equal the brute-force
// compositions: path queries and whole-island traversals give the same answers.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "brute_force_network.h"
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

}  // namespace
}  // namespace tracesync::network
