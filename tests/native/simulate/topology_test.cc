// SPDX-License-Identifier: EPL-2.0
#include "simulate/topology.h"

#include <gtest/gtest.h>

#include <numeric>
#include <set>

namespace tracesync::simulate {
namespace {

SimulationOptions options_for(Topology topology, uint32_t hosts, uint64_t seed = 1) {
  SimulationOptions o;
  o.topology = topology;
  o.hosts = hosts;
  o.seed = seed;
  return o;
}

// Oracle: components by repeated relaxation, no cleverness.
std::size_t component_count(uint32_t hosts, const std::vector<HostPair>& links) {
  std::vector<uint32_t> label(hosts);
  std::iota(label.begin(), label.end(), 0U);
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& l : links) {
      const uint32_t m = std::min(label[l.a], label[l.b]);
      if (label[l.a] != m || label[l.b] != m) {
        label[l.a] = label[l.b] = m;
        changed = true;
      }
    }
  }
  return std::set<uint32_t>(label.begin(), label.end()).size();
}

void expect_well_formed(uint32_t hosts, const std::vector<HostPair>& links) {
  std::set<std::pair<uint32_t, uint32_t>> seen;
  for (const auto& l : links) {
    EXPECT_LT(l.a, l.b);
    EXPECT_LT(l.b, hosts);
    EXPECT_TRUE(seen.insert({l.a, l.b}).second) << "duplicate link " << l.a << "-" << l.b;
  }
  EXPECT_TRUE(std::is_sorted(links.begin(), links.end(),
                             [](const HostPair& x, const HostPair& y) { return std::pair(x.a, x.b) < std::pair(y.a, y.b); }));
}

TEST(Topology, SimpleShapes) {
  EXPECT_EQ(build_topology(options_for(Topology::kPairs, 4)), (std::vector<HostPair>{{0, 1, 1}, {2, 3, 1}}));
  EXPECT_EQ(build_topology(options_for(Topology::kPairs, 5)),
            (std::vector<HostPair>{{0, 1, 1}, {2, 3, 1}, {3, 4, 1}}));
  EXPECT_EQ(build_topology(options_for(Topology::kChain, 3)), (std::vector<HostPair>{{0, 1, 1}, {1, 2, 1}}));
  EXPECT_EQ(build_topology(options_for(Topology::kStar, 4)),
            (std::vector<HostPair>{{0, 1, 1}, {0, 2, 1}, {0, 3, 1}}));
}

TEST(Topology, EveryShapeButPairsIsConnected) {
  for (uint32_t n = 2; n <= 70; ++n) {
    for (const Topology t : {Topology::kChain, Topology::kStar, Topology::kRandom, Topology::kFatTree}) {
      const auto links = build_topology(options_for(t, n, n));
      expect_well_formed(n, links);
      EXPECT_EQ(component_count(n, links), 1U) << to_string(t) << " with " << n << " hosts";
    }
    const auto pairs = build_topology(options_for(Topology::kPairs, n));
    expect_well_formed(n, pairs);
    EXPECT_EQ(component_count(n, pairs), n / 2) << "pairs with " << n << " hosts";
  }
}

TEST(Topology, RandomGraphHasTheMeanDegreeAndFollowsTheSeed) {
  SimulationOptions o = options_for(Topology::kRandom, 40, 7);
  o.random_degree = 5;
  const auto links = build_topology(o);
  EXPECT_EQ(links.size(), 100U);  // 40 * 5 / 2
  EXPECT_EQ(build_topology(o), links);
  o.seed = 8;
  EXPECT_NE(build_topology(o), links);
  // Asking for more than a complete graph gives the complete graph.
  o.hosts = 5;
  o.random_degree = 4;
  EXPECT_EQ(build_topology(o).size(), 10U);
}

// In a k-ary fat tree hosts fill racks of k/2 and pods of k*k/4; a link
// crosses 1 switch inside a rack, 3 inside a pod and 5 between pods.
TEST(Topology, FatTreeScalesLinksBySwitchesCrossed) {
  SimulationOptions o = options_for(Topology::kFatTree, 16);
  EXPECT_EQ(fat_tree_ports(o), 4U);
  o.hosts = 17;
  EXPECT_EQ(fat_tree_ports(o), 6U);
  o.hosts = 16;
  o.fat_tree_k = 4;
  const auto links = build_topology(o);
  std::set<uint32_t> kinds;
  for (const auto& l : links) {
    const uint32_t expected = l.a / 4 != l.b / 4 ? 5 : (l.a / 2 != l.b / 2 ? 3 : 1);
    EXPECT_EQ(l.switches, expected) << l.a << "-" << l.b;
    kinds.insert(l.switches);
  }
  EXPECT_EQ(kinds, (std::set<uint32_t>{1, 3, 5}));
}

}  // namespace
}  // namespace tracesync::simulate
