// SPDX-License-Identifier: EPL-2.0
#include "simulate/topology.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <utility>

#include "simulate/random.h"

namespace tracesync::simulate {
namespace {

// Where a host sits among the leaves of a k-ary fat tree: k pods of k/2
// edge switches (racks) of k/2 hosts each, filled in host order.
struct FatTreePlace {
  uint32_t pod, rack, slot;
};

class FatTree {
 public:
  explicit FatTree(uint32_t k) : half_(k / 2), pods_(k) {}

  FatTreePlace place(uint32_t host) const {
    const uint32_t per_pod = half_ * half_;
    return {host / per_pod, (host % per_pod) / half_, host % half_};
  }
  uint32_t host(const FatTreePlace& p) const { return p.pod * half_ * half_ + p.rack * half_ + p.slot; }

  // Edge switch only; edge-aggregation-edge; edge-aggregation-core-aggregation-edge.
  uint32_t switches_between(uint32_t h1, uint32_t h2) const {
    const FatTreePlace p1 = place(h1), p2 = place(h2);
    if (p1.pod != p2.pod) return 5;
    return p1.rack == p2.rack ? 1 : 3;
  }

  uint32_t half() const { return half_; }
  uint32_t pods() const { return pods_; }

 private:
  uint32_t half_;
  uint32_t pods_;
};

class DisjointSets {
 public:
  explicit DisjointSets(uint32_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0U); }
  uint32_t find(uint32_t v) {
    while (parent_[v] != v) v = parent_[v] = parent_[parent_[v]];
    return v;
  }
  bool unite(uint32_t a, uint32_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return false;
    parent_[std::max(a, b)] = std::min(a, b);
    return true;
  }

 private:
  std::vector<uint32_t> parent_;
};

std::set<std::pair<uint32_t, uint32_t>> pairs_links(uint32_t n) {
  std::set<std::pair<uint32_t, uint32_t>> links;
  for (uint32_t h = 0; h + 1 < n; h += 2) links.insert({h, h + 1});
  if (n % 2 == 1) links.insert({n - 2, n - 1});
  return links;
}

std::set<std::pair<uint32_t, uint32_t>> random_links(const SimulationOptions& options) {
  const uint32_t n = options.hosts;
  Random random = Random::stream(options.seed, "topology");
  std::set<std::pair<uint32_t, uint32_t>> links;
  for (uint32_t h = 1; h < n; ++h) {
    links.insert({static_cast<uint32_t>(random.below(h)), h});
  }
  const uint64_t most = uint64_t{n} * (n - 1) / 2;
  const auto wanted = static_cast<uint64_t>(std::llround(options.random_degree * n / 2));
  const uint64_t target = std::min(most, std::max<uint64_t>(wanted, links.size()));
  while (links.size() < target) {
    const auto a = static_cast<uint32_t>(random.below(n));
    const auto b = static_cast<uint32_t>(random.below(n));
    if (a != b) links.insert({std::min(a, b), std::max(a, b)});
  }
  return links;
}

// Each host talks with the next host of its rack, the host in the same slot
// of the next rack of its pod, and the host in the same place of the next
// pod. Partly filled trees are joined up afterwards if needed.
std::set<std::pair<uint32_t, uint32_t>> fat_tree_links(uint32_t n, const FatTree& tree) {
  std::set<std::pair<uint32_t, uint32_t>> links;
  auto add = [&](uint32_t h, FatTreePlace other) {
    const uint32_t g = tree.host(other);
    if (g < n && g != h) links.insert({std::min(g, h), std::max(g, h)});
  };
  for (uint32_t h = 0; h < n; ++h) {
    const FatTreePlace p = tree.place(h);
    add(h, {p.pod, p.rack, (p.slot + 1) % tree.half()});
    add(h, {p.pod, (p.rack + 1) % tree.half(), p.slot});
    add(h, {(p.pod + 1) % tree.pods(), p.rack, p.slot});
  }
  DisjointSets components(n);
  for (const auto& [a, b] : links) components.unite(a, b);
  for (uint32_t h = 1; h < n; ++h) {
    if (components.unite(0, h)) links.insert({0, h});
  }
  return links;
}

}  // namespace

uint32_t fat_tree_ports(const SimulationOptions& options) {
  if (options.fat_tree_k != 0) return options.fat_tree_k;
  uint32_t k = 2;
  while (uint64_t{k} * k * k / 4 < options.hosts) k += 2;
  return k;
}

std::vector<HostPair> build_topology(const SimulationOptions& options) {
  const uint32_t n = options.hosts;
  std::set<std::pair<uint32_t, uint32_t>> links;
  std::vector<HostPair> out;
  switch (options.topology) {
    case Topology::kPairs:
      links = pairs_links(n);
      break;
    case Topology::kChain:
      for (uint32_t h = 0; h + 1 < n; ++h) links.insert({h, h + 1});
      break;
    case Topology::kStar:
      for (uint32_t h = 1; h < n; ++h) links.insert({0, h});
      break;
    case Topology::kRandom:
      links = random_links(options);
      break;
    case Topology::kFatTree: {
      const FatTree tree(fat_tree_ports(options));
      for (const auto& [a, b] : fat_tree_links(n, tree)) out.push_back({a, b, tree.switches_between(a, b)});
      return out;
    }
  }
  for (const auto& [a, b] : links) out.push_back({a, b, 1});
  return out;
}

}  // namespace tracesync::simulate
