// SPDX-License-Identifier: EPL-2.0
// The link-cut tree against a naive forest (edge list, paths by search),
// over random links, cuts, re-weightings and queries.

#include "network/link_cut_tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "brute_force_network.h"
#include "network/edge_order.h"
#include "numbered_id.h"

namespace tracesync::network {
namespace {

struct NaiveEdge {
  double weight;
  model::LinearTransform high_onto_low;
  double uncertainty_ns;
  LinkCutTree::Node node;
};

// Trees kept as an edge map; every query walks them.
class NaiveForest {
 public:
  explicit NaiveForest(std::size_t n) : n_(n) {}

  std::map<std::pair<Vertex, Vertex>, NaiveEdge>& edges() { return edges_; }

  std::vector<Vertex> neighbours(Vertex v) const {
    std::vector<Vertex> result;
    for (const auto& [e, data] : edges_) {
      if (e.first == v) result.push_back(e.second);
      if (e.second == v) result.push_back(e.first);
    }
    return result;
  }

  // Parent pointers of the tree containing root, rooted there (n_ = not in the tree).
  std::vector<Vertex> parents(Vertex root) const {
    std::vector<Vertex> parent(n_, static_cast<Vertex>(n_));
    parent[root] = root;
    std::vector<Vertex> queue{root};
    for (std::size_t i = 0; i < queue.size(); ++i) {
      for (const Vertex next : neighbours(queue[i])) {
        if (parent[next] == n_) {
          parent[next] = queue[i];
          queue.push_back(next);
        }
      }
    }
    return parent;
  }

  bool connected(Vertex a, Vertex b) const { return parents(a)[b] != n_; }

  std::vector<Vertex> path(Vertex from, Vertex to) const {
    const auto parent = parents(from);
    std::vector<Vertex> p{to};
    while (p.back() != from) p.push_back(parent[p.back()]);
    std::reverse(p.begin(), p.end());
    return p;
  }

  // Number of vertices in each vertex's subtree when rooted at `root`.
  std::vector<uint32_t> subtree_sizes(Vertex root) const {
    const auto parent = parents(root);
    std::vector<uint32_t> size(n_, 0);
    for (Vertex v = 0; v < n_; ++v) {
      if (parent[v] == n_) continue;
      for (Vertex u = v;; u = parent[u]) {
        ++size[u];
        if (u == root) break;
      }
    }
    return size;
  }

  const NaiveEdge& edge(Vertex a, Vertex b) const { return edges_.at({std::min(a, b), std::max(a, b)}); }

 private:
  std::size_t n_;
  std::map<std::pair<Vertex, Vertex>, NaiveEdge> edges_;
};

class LinkCutTreeRandomTest : public ::testing::TestWithParam<int> {};

TEST_P(LinkCutTreeRandomTest, MatchesNaiveForest) {
  std::mt19937_64 rng(static_cast<uint64_t>(GetParam()));
  const auto pick = [&](std::size_t n) { return static_cast<Vertex>(rng() % n); };
  const std::size_t n = 2 + pick(28);
  // Ids in an order unrelated to indices, so tie-breaks exercise the ids.
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < n; ++i) ids.push_back(testutil::numbered_id("v", (i * 7919) % 1009));
  LinkCutTree tree(ids);
  for (std::size_t i = 0; i < n; ++i) tree.add_vertex();
  NaiveForest naive(n);

  const auto random_edge_data = [&] {
    NaiveEdge e;
    e.weight = static_cast<double>(pick(6)) / 4;  // many ties, some zeros
    e.high_onto_low = {1 + static_cast<model::Quad>(static_cast<int>(pick(2001)) - 1000) / 1048576,
                       static_cast<model::Quad>(static_cast<int>(pick(2000001)) - 1000000)};
    e.uncertainty_ns = static_cast<double>(pick(64)) / 8;
    e.node = LinkCutTree::kNone;
    return e;
  };
  const auto leaf = [](Vertex low, Vertex high, const NaiveEdge& e) {
    return PathTransform::edge(low, high, e.high_onto_low, e.uncertainty_ns);
  };

  for (int step = 0; step < 400; ++step) {
    const Vertex a = pick(n);
    const Vertex b = pick(n);
    const int action = static_cast<int>(pick(10));
    auto& edges = naive.edges();
    if (action < 3 && a != b && !naive.connected(a, b)) {
      NaiveEdge e = random_edge_data();
      const Vertex low = std::min(a, b), high = std::max(a, b);
      e.node = tree.link(low, high, e.weight, leaf(low, high, e));
      ASSERT_EQ(tree.edge_low(e.node), low);
      ASSERT_EQ(tree.edge_high(e.node), high);
      edges[{low, high}] = e;
    } else if (action == 3 && !edges.empty()) {
      auto it = std::next(edges.begin(), static_cast<long>(pick(edges.size())));
      tree.cut(it->second.node);
      edges.erase(it);
    } else if (action == 4 && !edges.empty()) {
      auto it = std::next(edges.begin(), static_cast<long>(pick(edges.size())));
      const NaiveEdge fresh = random_edge_data();
      it->second.weight = fresh.weight;
      tree.set_edge_weight(it->second.node, fresh.weight);
      if (pick(2) == 0) {
        it->second.high_onto_low = fresh.high_onto_low;
        it->second.uncertainty_ns = fresh.uncertainty_ns;
        tree.set_edge_transform(it->second.node, leaf(it->first.first, it->first.second, it->second));
      }
    }

    // Queries on a random pair.
    const bool joined = naive.connected(a, b);
    ASSERT_EQ(tree.connected(a, b), joined) << a << " " << b;
    ASSERT_EQ(tree.tree_size(a), naive.subtree_sizes(a)[a]);
    if (!joined || a == b) continue;
    const auto path = naive.path(a, b);

    // Largest key on the path.
    std::optional<std::pair<Vertex, Vertex>> heaviest;
    for (std::size_t i = 1; i < path.size(); ++i) {
      const std::pair<Vertex, Vertex> e{std::min(path[i - 1], path[i]), std::max(path[i - 1], path[i])};
      const auto key = [&](const std::pair<Vertex, Vertex>& x) {
        return edge_key(naive.edge(x.first, x.second).weight, ids[x.first], ids[x.second]);
      };
      if (!heaviest || key(*heaviest) < key(e)) heaviest = e;
    }
    const LinkCutTree::MaxEdge max_edge = tree.max_edge_on_path(a, b);
    ASSERT_EQ(max_edge.node, naive.edge(heaviest->first, heaviest->second).node);
    ASSERT_EQ(max_edge.weight, naive.edge(heaviest->first, heaviest->second).weight);

    // Side sizes across the path's first edge, both ways, and none to
    // the far end of a longer path.
    const auto sizes_from_a = naive.subtree_sizes(a);
    ASSERT_EQ(tree.side_size(a, path[1]), sizes_from_a[path[1]]);
    ASSERT_EQ(tree.side_size(path[1], a), sizes_from_a[a] - sizes_from_a[path[1]]);
    if (path.size() > 2) {
      ASSERT_EQ(tree.side_size(a, path.back()), std::nullopt);
    }

    // Centroid search along the path.
    const uint32_t total = sizes_from_a[a];
    std::optional<Vertex> deepest;
    std::optional<Vertex> next_with_half;
    for (std::size_t i = 0; i < path.size(); ++i) {
      if (2 * sizes_from_a[path[i]] > total) {
        deepest = path[i];
        next_with_half.reset();
        if (i + 1 < path.size() && 2 * sizes_from_a[path[i + 1]] == total) next_with_half = path[i + 1];
      }
    }
    const LinkCutTree::HeavyVertex heavy = tree.deepest_heavy_vertex(a, b, total);
    ASSERT_EQ(heavy.vertex, *deepest);
    ASSERT_EQ(heavy.next_with_half, next_with_half);

    // Composition along the path, both ways.
    model::LinearTransform b_onto_a;
    model::LinearTransform a_onto_b;
    double uncertainty = 0;
    for (std::size_t i = 1; i < path.size(); ++i) {
      const Vertex from = path[i - 1], to = path[i];
      const NaiveEdge& e = naive.edge(from, to);
      const model::LinearTransform to_onto_from = from < to ? e.high_onto_low : e.high_onto_low.inverse();
      b_onto_a = b_onto_a.after(to_onto_from);
      a_onto_b = to_onto_from.inverse().after(a_onto_b);
      uncertainty += e.uncertainty_ns;
    }
    const PathTransform got = tree.path_transform(a, b);
    ASSERT_EQ(got.first, a);
    ASSERT_EQ(got.last, b);
    EXPECT_TRUE(oracle::close(got.last_onto_first, b_onto_a));
    EXPECT_TRUE(oracle::close(got.first_onto_last, a_onto_b));
    EXPECT_EQ(static_cast<double>(got.uncertainty_ns), uncertainty);
    // And read from the other end, which re-roots the tree.
    const PathTransform back = tree.path_transform(b, a);
    EXPECT_TRUE(oracle::close(back.last_onto_first, a_onto_b));
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, LinkCutTreeRandomTest, ::testing::Range(1, 41));

TEST(LinkCutTreeTest, LongPathKeepsSizesAndMaxima) {
  // A 2000-vertex path built in a scrambled order, then queried end to end:
  // deep splay trees, many re-rootings.
  const std::size_t n = 2000;
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < n; ++i) ids.push_back(testutil::numbered_id("h", 100000 + i));
  LinkCutTree tree(ids);
  for (std::size_t i = 0; i < n; ++i) tree.add_vertex();
  std::vector<Vertex> order(n - 1);
  for (Vertex i = 0; i + 1 < n; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937_64(7));
  std::vector<LinkCutTree::Node> nodes(n - 1);
  for (const Vertex i : order) {
    nodes[i] = tree.link(i, i + 1, static_cast<double>((i * 37) % 1000), PathTransform::edge(i, i + 1, {}, 1));
  }
  EXPECT_EQ(tree.tree_size(0), n);
  // The heaviest edge is the one with (i * 37) % 1000 == 999 (i = 27 mod 1000), the last by id on ties.
  const LinkCutTree::MaxEdge heaviest = tree.max_edge_on_path(0, static_cast<Vertex>(n - 1));
  EXPECT_EQ(heaviest.weight, 999);
  EXPECT_EQ(tree.edge_weight(heaviest.node), 999);
  EXPECT_EQ(tree.edge_low(heaviest.node), 1027U);
  // The centroid of a path of 2000 vertices: vertices 999 and 1000.
  const auto heavy = tree.deepest_heavy_vertex(0, static_cast<Vertex>(n - 1), static_cast<uint32_t>(n));
  EXPECT_EQ(heavy.vertex, 999U);
  EXPECT_EQ(heavy.next_with_half, std::optional<Vertex>(1000));
  EXPECT_EQ(static_cast<double>(tree.path_transform(0, static_cast<Vertex>(n - 1)).uncertainty_ns), n - 1.0);
  tree.cut(nodes[999]);
  EXPECT_EQ(tree.tree_size(0), 1000U);
  EXPECT_EQ(tree.tree_size(static_cast<Vertex>(n - 1)), 1000U);
  EXPECT_FALSE(tree.connected(0, static_cast<Vertex>(n - 1)));
}

}  // namespace
}  // namespace tracesync::network
