// SPDX-License-Identifier: EPL-2.0
#include "network/baseline_network.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/kruskal_min_spanning_tree.hpp>

#include <algorithm>
#include <numeric>
#include <optional>
#include <queue>

#include "model/quad.h"
#include "network/edge_order.h"

namespace tracesync::network {
namespace {

using WeightProperty = boost::property<boost::edge_weight_t, double>;
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property, WeightProperty>;

}  // namespace

Vertex BaselineNetwork::add_vertex(std::string id) {
  const auto v = static_cast<Vertex>(ids_.size());
  ids_.push_back(std::move(id));
  forced_.push_back(false);
  reference_.push_back(v);
  transform_.push_back(model::LinearTransform::identity());
  uncertainty_.push_back(0);
  return v;
}

void BaselineNetwork::set_edge(Vertex a, Vertex b, const EdgeEstimate& estimate) {
  if (a < b) {
    edges_[{a, b}] = estimate;
  } else {
    edges_[{b, a}] = EdgeEstimate{estimate.weight, estimate.b_onto_a.inverse(), estimate.uncertainty_ns};
  }
  recompute();
}

void BaselineNetwork::remove_edge(Vertex a, Vertex b) {
  if (edges_.erase({std::min(a, b), std::max(a, b)}) > 0) recompute();
}

void BaselineNetwork::force_reference(Vertex v) {
  // v is its island's reference from now on, even over a vertex forced
  // earlier: that one stops being forced.
  std::vector<Vertex> island{v};
  std::vector<bool> seen(ids_.size(), false);
  seen[v] = true;
  for (std::size_t i = 0; i < island.size(); ++i) {
    for (const auto& [u, w] : tree_) {
      const Vertex next = u == island[i] ? w : w == island[i] ? u : island[i];
      if (!seen[next]) {
        seen[next] = true;
        island.push_back(next);
      }
    }
  }
  for (const Vertex u : island) forced_[u] = false;
  forced_[v] = true;
  recompute();
}

bool BaselineNetwork::in_tree(Vertex a, Vertex b) const { return tree_.contains({std::min(a, b), std::max(a, b)}); }

std::vector<BaselineNetwork::EdgeId> BaselineNetwork::kruskal_forest() const {
  // Kruskal breaks equal weights arbitrarily; give it each edge's rank in
  // the shared total order instead, so the forest is the one every
  // implementation keeps.
  std::vector<EdgeId> order;
  order.reserve(edges_.size());
  for (const auto& [edge, estimate] : edges_) order.push_back(edge);
  std::sort(order.begin(), order.end(), [&](const EdgeId& x, const EdgeId& y) {
    return edge_key(edges_.at(x).weight, ids_[x.first], ids_[x.second]) <
           edge_key(edges_.at(y).weight, ids_[y.first], ids_[y.second]);
  });
  Graph graph(ids_.size());
  for (std::size_t rank = 0; rank < order.size(); ++rank) {
    boost::add_edge(order[rank].first, order[rank].second, static_cast<double>(rank), graph);
  }
  std::vector<boost::graph_traits<Graph>::edge_descriptor> spanning;
  boost::kruskal_minimum_spanning_tree(graph, std::back_inserter(spanning));
  std::vector<EdgeId> forest;
  for (const auto& e : spanning) {
    const auto u = static_cast<Vertex>(boost::source(e, graph));
    const auto w = static_cast<Vertex>(boost::target(e, graph));
    forest.push_back({std::min(u, w), std::max(u, w)});
  }
  return forest;
}

void BaselineNetwork::recompute() {
  const std::size_t n = ids_.size();
  const auto forest = kruskal_forest();
  tree_ = std::set<EdgeId>(forest.begin(), forest.end());

  std::vector<std::vector<std::pair<Vertex, double>>> adjacency(n);
  for (const EdgeId& e : forest) {
    const double w = edges_.at(e).weight;
    adjacency[e.first].push_back({e.second, w});
    adjacency[e.second].push_back({e.first, w});
  }
  // Islands: connected components of the forest, each listed in BFS order.
  std::vector<std::vector<Vertex>> islands;
  std::vector<bool> seen(n, false);
  for (Vertex start = 0; start < n; ++start) {
    if (seen[start]) continue;
    std::vector<Vertex> island{start};
    seen[start] = true;
    for (std::size_t i = 0; i < island.size(); ++i) {
      for (const auto& [next, weight] : adjacency[island[i]]) {
        if (!seen[next]) {
          seen[next] = true;
          island.push_back(next);
        }
      }
    }
    islands.push_back(std::move(island));
  }
  choose_references(islands, adjacency);
  propagate_transforms(islands, adjacency);
}

void BaselineNetwork::choose_references(const std::vector<std::vector<Vertex>>& islands,
                                        const std::vector<std::vector<std::pair<Vertex, double>>>& tree_adjacency) {
  // Dijkstra over the forest as a Boost graph, from every vertex.
  Graph tree(ids_.size());
  for (Vertex u = 0; u < tree_adjacency.size(); ++u) {
    for (const auto& [w, weight] : tree_adjacency[u]) {
      if (u < w) boost::add_edge(u, w, weight, tree);
    }
  }
  std::vector<double> distance(ids_.size());
  for (const auto& island : islands) {
    std::optional<Vertex> best;
    model::Quad best_cost = 0;
    const auto forced = std::find_if(island.begin(), island.end(), [&](Vertex v) { return forced_[v]; });
    for (const Vertex candidate : island) {
      if (forced != island.end()) {
        if (!forced_[candidate]) continue;
        if (!best || ids_[candidate] < ids_[*best]) best = candidate;
        continue;
      }
      boost::dijkstra_shortest_paths(tree, candidate, boost::distance_map(distance.data()));
      model::Quad cost = 0;
      for (const Vertex v : island) cost += static_cast<model::Quad>(distance[v]);
      if (!best || cost < best_cost || (cost == best_cost && ids_[candidate] < ids_[*best])) {
        best = candidate;
        best_cost = cost;
      }
    }
    for (const Vertex v : island) reference_[v] = *best;
  }
}

void BaselineNetwork::propagate_transforms(
    const std::vector<std::vector<Vertex>>& islands,
    const std::vector<std::vector<std::pair<Vertex, double>>>& tree_adjacency) {
  for (const auto& island : islands) {
    const Vertex root = reference_[island.front()];
    std::queue<Vertex> pending;
    std::vector<bool> done(ids_.size(), false);
    transform_[root] = model::LinearTransform::identity();
    uncertainty_[root] = 0;
    done[root] = true;
    pending.push(root);
    while (!pending.empty()) {
      const Vertex u = pending.front();
      pending.pop();
      for (const auto& [child, weight] : tree_adjacency[u]) {
        if (done[child]) continue;
        const EdgeId e{std::min(u, child), std::max(u, child)};
        const EdgeEstimate& estimate = edges_.at(e);
        // estimate.b_onto_a maps e.second onto e.first.
        const model::LinearTransform child_onto_parent =
            child == e.second ? estimate.b_onto_a : estimate.b_onto_a.inverse();
        transform_[child] = transform_[u].after(child_onto_parent);
        uncertainty_[child] = uncertainty_[u] + estimate.uncertainty_ns;
        done[child] = true;
        pending.push(child);
      }
    }
  }
}

}  // namespace tracesync::network
