// SPDX-License-Identifier: EPL-2.0
// Google Benchmark of the link-cut tree's operations on random recursive
// trees of n vertices: the MST cycle test (largest key on a path), an edge
// replacement (cut + link), a path transform, a centroid search.

#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "network/link_cut_tree.h"

namespace tracesync::network {
namespace {

struct RandomTree {
  explicit RandomTree(uint32_t n) : tree(ids), rng(42) {
    for (uint32_t i = 0; i < n; ++i) {
      ids.push_back("host" + std::to_string(i));
      tree.add_vertex();
    }
    for (uint32_t v = 1; v < n; ++v) {
      const auto parent = static_cast<Vertex>(rng() % v);
      edges.push_back(tree.link(parent, v, static_cast<double>(rng() % 1000000),
                                PathTransform::edge(parent, v, {1 + 1e-9Q * v, 1e3Q * v}, 1)));
    }
  }
  Vertex pick() { return static_cast<Vertex>(rng() % ids.size()); }

  std::vector<std::string> ids;
  LinkCutTree tree;
  std::mt19937_64 rng;
  std::vector<LinkCutTree::Node> edges;
};

void BM_MaxEdgeOnPath(benchmark::State& state) {
  RandomTree t(static_cast<uint32_t>(state.range(0)));
  for (auto _ : state) {
    const Vertex a = t.pick();
    const Vertex b = t.pick();
    if (a != b) benchmark::DoNotOptimize(t.tree.max_edge_on_path(a, b));
  }
}
BENCHMARK(BM_MaxEdgeOnPath)->Arg(1000)->Arg(10000)->Arg(60000);

void BM_ReplaceEdge(benchmark::State& state) {
  // Cut a random tree edge and link its two sides again elsewhere.
  RandomTree t(static_cast<uint32_t>(state.range(0)));
  for (auto _ : state) {
    const std::size_t i = t.rng() % t.edges.size();
    const Vertex low = t.tree.edge_low(t.edges[i]);
    const Vertex high = t.tree.edge_high(t.edges[i]);
    t.tree.cut(t.edges[i]);
    t.edges[i] = t.tree.link(low, high, static_cast<double>(t.rng() % 1000000),
                             PathTransform::edge(low, high, {}, 1));
  }
}
BENCHMARK(BM_ReplaceEdge)->Arg(1000)->Arg(10000)->Arg(60000);

void BM_PathTransform(benchmark::State& state) {
  RandomTree t(static_cast<uint32_t>(state.range(0)));
  const Vertex root = 0;
  for (auto _ : state) benchmark::DoNotOptimize(t.tree.path_transform(root, t.pick()));
}
BENCHMARK(BM_PathTransform)->Arg(1000)->Arg(10000)->Arg(60000);

void BM_CentroidSearch(benchmark::State& state) {
  const auto n = static_cast<uint32_t>(state.range(0));
  RandomTree t(n);
  for (auto _ : state) benchmark::DoNotOptimize(t.tree.deepest_heavy_vertex(t.pick(), t.pick(), n));
}
BENCHMARK(BM_CentroidSearch)->Arg(1000)->Arg(10000)->Arg(60000);

}  // namespace
}  // namespace tracesync::network

BENCHMARK_MAIN();
