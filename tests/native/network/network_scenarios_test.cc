// SPDX-License-Identifier: EPL-2.0
// Network-level scenarios on synthetic links, for both implementations:
// an indirect path through better links beats a worse direct link, stars,
// chains, improvements that reshape the tree, islands and forced references.
// Hosts have true clocks; a link's transform is the exact composition of
// its two clocks, except where a test skews it to tell which link was used.

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "brute_force_network.h"
#include "network/network.h"

namespace tracesync::network {
namespace {

class Cluster {
 public:
  explicit Cluster(NetworkKind kind) : network_(make_network(kind)) {}

  Vertex host(const std::string& id) {
    // Drifts of a few ppm and offsets of seconds, distinct per host.
    const auto k = static_cast<int>(clocks_.size()) + 1;
    clocks_.push_back({1 + static_cast<model::Quad>(k * 3 - 7) * 1e-6Q, static_cast<model::Quad>(k) * 1.5e9Q});
    return network_->add_vertex(id);
  }

  // The exact transform mapping b's time onto a's.
  model::LinearTransform truth(Vertex a, Vertex b) const { return clocks_[a].after(clocks_[b].inverse()); }

  void link(Vertex a, Vertex b, double accuracy, double uncertainty_ns, model::Quad skew_ns = 0) {
    model::LinearTransform t = truth(a, b);
    t.offset += skew_ns;
    network_->set_edge(a, b, {accuracy, t, uncertainty_ns});
  }

  // b's time onto a's as the network composes it: through the reference.
  model::LinearTransform composed(Vertex a, Vertex b) const {
    return network_->transform(a).inverse().after(network_->transform(b));
  }

  Network& net() { return *network_; }

 private:
  std::unique_ptr<Network> network_;
  std::vector<model::LinearTransform> clocks_;
};

class NetworkScenarioTest : public ::testing::TestWithParam<NetworkKind> {};

TEST_P(NetworkScenarioTest, IndirectPathThroughBetterLinksBeatsWorseDirectLink) {
  Cluster c(GetParam());
  const Vertex a = c.host("alpha");
  const Vertex b = c.host("bravo");
  const Vertex x = c.host("xray");
  // The direct link is poor and, to tell it apart, skewed by 5 us.
  c.link(a, x, 1e-6, 800, 5000);
  EXPECT_TRUE(c.net().in_tree(a, x));
  c.link(a, b, 1e-9, 30);
  c.link(b, x, 2e-9, 40);
  EXPECT_FALSE(c.net().in_tree(a, x));
  EXPECT_TRUE(c.net().in_tree(a, b));
  EXPECT_TRUE(c.net().in_tree(b, x));
  // A path of three: the middle is the reference, whatever the weights.
  EXPECT_EQ(c.net().reference_of(a), b);
  EXPECT_EQ(c.net().reference_of(x), b);
  // xray onto alpha goes through bravo: the true transform, not the skewed one.
  constexpr model::Nanoseconds t = 1'700'000'000'000'000'000;
  EXPECT_LT(model::abs(c.composed(a, x).apply(t) - c.truth(a, x).apply(t)), 1e-6Q);
  EXPECT_EQ(c.net().uncertainty_ns(x), 40);
  EXPECT_EQ(c.net().uncertainty_ns(a), 30);
  EXPECT_EQ(c.net().uncertainty_ns(b), 0);
}

TEST_P(NetworkScenarioTest, ImprovedDirectLinkReplacesTheWorstLinkOfTheCycle) {
  Cluster c(GetParam());
  const Vertex a = c.host("alpha");
  const Vertex b = c.host("bravo");
  const Vertex x = c.host("xray");
  c.link(a, b, 1e-9, 30);
  c.link(b, x, 2e-9, 40);
  c.link(a, x, 1e-6, 800);
  ASSERT_FALSE(c.net().in_tree(a, x));
  // More messages make the direct link the best: it replaces bravo-xray,
  // the largest weight on the cycle, and xray becomes the middle.
  c.link(a, x, 0.5e-9, 10);
  EXPECT_TRUE(c.net().in_tree(a, x));
  EXPECT_TRUE(c.net().in_tree(a, b));
  EXPECT_FALSE(c.net().in_tree(b, x));
  EXPECT_EQ(c.net().reference_of(b), a);
  EXPECT_EQ(c.net().uncertainty_ns(b), 30);
  EXPECT_EQ(c.net().uncertainty_ns(x), 10);
}

TEST_P(NetworkScenarioTest, StarKeepsItsCentreAgainstWorseLeafLinks) {
  Cluster c(GetParam());
  const Vertex centre = c.host("server");
  std::vector<Vertex> leaves;
  for (int i = 0; i < 8; ++i) {
    leaves.push_back(c.host("client" + std::to_string(i)));
    c.link(centre, leaves.back(), (1 + i) * 1e-9, 10.0 * (1 + i));
  }
  for (int i = 0; i + 1 < 8; ++i) c.link(leaves[i], leaves[i + 1], 1e-7, 1000);
  for (const Vertex leaf : leaves) {
    EXPECT_TRUE(c.net().in_tree(centre, leaf));
    EXPECT_EQ(c.net().reference_of(leaf), centre);
  }
  // A leaf-to-leaf link better than client7's star link replaces it (the
  // largest on the cycle client6 - server - client7); the centre stays.
  c.link(leaves[6], leaves[7], 0.5e-9, 5);
  EXPECT_FALSE(c.net().in_tree(centre, leaves[7]));
  EXPECT_TRUE(c.net().in_tree(leaves[6], leaves[7]));
  EXPECT_EQ(c.net().reference_of(leaves[7]), centre);
  EXPECT_EQ(c.net().uncertainty_ns(leaves[7]), 70 + 5);
}

TEST_P(NetworkScenarioTest, ChainReferenceIsTheCentreWhateverTheWeights) {
  Cluster c(GetParam());
  std::vector<Vertex> hosts;
  for (int i = 0; i < 9; ++i) hosts.push_back(c.host("node" + std::to_string(i)));
  // Very uneven weights: the reference still splits the chain by size
  // (Lemma 1). Powers of two, so that the baseline's sums tie exactly.
  for (int i = 0; i + 1 < 9; ++i) c.link(hosts[i], hosts[i + 1], i < 4 ? 0x1p-20 : 0x1p-30, 1);
  EXPECT_EQ(c.net().reference_of(hosts[0]), hosts[4]);
  EXPECT_EQ(c.net().uncertainty_ns(hosts[0]), 4);
  EXPECT_EQ(c.net().uncertainty_ns(hosts[8]), 4);
  // A tenth host: two centres, node4 and node5; the smaller id wins.
  hosts.push_back(c.host("node9"));
  c.link(hosts[8], hosts[9], 0x1p-30, 1);
  EXPECT_EQ(c.net().reference_of(hosts[9]), hosts[4]);
  // The sum of transforms along the chain equals the truth end to end.
  constexpr model::Nanoseconds t = 1'700'000'000'000'000'000;
  EXPECT_LT(model::abs(c.composed(hosts[0], hosts[9]).apply(t) - c.truth(hosts[0], hosts[9]).apply(t)), 1e-6Q);
}

TEST_P(NetworkScenarioTest, IslandsAndForcedReferences) {
  Cluster c(GetParam());
  const Vertex a = c.host("a");
  const Vertex b = c.host("b");
  const Vertex x = c.host("x");
  const Vertex y = c.host("y");
  const Vertex z = c.host("z");
  c.link(a, b, 1e-9, 1);
  c.link(x, y, 1e-9, 1);
  c.link(y, z, 1e-9, 1);
  EXPECT_EQ(c.net().reference_of(b), a);  // two centres: the smaller id
  EXPECT_EQ(c.net().reference_of(x), y);
  c.net().force_reference(b);
  c.net().force_reference(z);
  EXPECT_EQ(c.net().reference_of(a), b);
  EXPECT_EQ(c.net().reference_of(y), z);
  EXPECT_EQ(c.net().uncertainty_ns(x), 2);
  // Joining two forced islands: the forced vertex with the smaller id wins.
  c.link(a, x, 1e-9, 1);
  for (const Vertex v : {a, b, x, y, z}) EXPECT_EQ(c.net().reference_of(v), b);
  EXPECT_EQ(c.net().uncertainty_ns(z), 4);  // b-a-x-y-z
  // Forcing again moves it, even to a larger id.
  c.net().force_reference(z);
  EXPECT_EQ(c.net().reference_of(a), z);
  EXPECT_EQ(c.net().transform(z).slope, 1);
}

INSTANTIATE_TEST_SUITE_P(Kinds, NetworkScenarioTest,
                         ::testing::Values(NetworkKind::kIncremental, NetworkKind::kBaseline),
                         [](const auto& kind) { return std::string(to_string(kind.param)); });

}  // namespace
}  // namespace tracesync::network
