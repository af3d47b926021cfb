// SPDX-License-Identifier: EPL-2.0
#pragma once

// A network recomputed from scratch with the plainest loops, independent of
// both implementations under test: Kruskal over the shared EdgeKey order,
// every vertex's sum of tree-path weights by walking the tree, transforms
// composed edge by edge outwards from the reference.

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/linear_transform.h"
#include "network/edge_order.h"
#include "network/network.h"

namespace tracesync::network::oracle {

class BruteForceNetwork {
 public:
  Vertex add_vertex(std::string id) {
    ids_.push_back(std::move(id));
    forced_.push_back(false);
    return static_cast<Vertex>(ids_.size() - 1);
  }
  std::size_t vertex_count() const { return ids_.size(); }
  const std::string& id(Vertex v) const { return ids_[v]; }

  void set_edge(Vertex a, Vertex b, const EdgeEstimate& estimate) {
    if (a < b) {
      edges_[{a, b}] = estimate;
    } else {
      edges_[{b, a}] = EdgeEstimate{estimate.weight, estimate.b_onto_a.inverse(), estimate.uncertainty_ns};
    }
  }

  void remove_edge(Vertex a, Vertex b) { edges_.erase({std::min(a, b), std::max(a, b)}); }

  // v becomes its island's reference: other forced vertices of the island stop being forced.
  void force_reference(Vertex v) {
    const Solution now = solve();
    for (Vertex u = 0; u < ids_.size(); ++u) {
      if (now.island[u] == now.island[v]) forced_[u] = false;
    }
    forced_[v] = true;
  }

  const std::map<std::pair<Vertex, Vertex>, EdgeEstimate>& edges() const { return edges_; }
  std::optional<EdgeEstimate> edge(Vertex a, Vertex b) const {
    const auto it = edges_.find({std::min(a, b), std::max(a, b)});
    if (it == edges_.end()) return std::nullopt;
    return it->second;
  }

  // Everything a network must answer, computed from scratch.
  struct Solution {
    std::vector<std::pair<Vertex, Vertex>> forest;  // Kruskal's edges, (low, high)
    double forest_weight = 0;
    std::vector<Vertex> island;                     // a component label per vertex
    std::vector<Vertex> reference;
    std::vector<model::LinearTransform> transform;  // onto the reference
    std::vector<double> uncertainty_ns;
  };

  Solution solve() const {
    const std::size_t n = ids_.size();
    Solution s;
    s.forest = kruskal();
    std::vector<std::vector<Vertex>> adjacent(n);
    for (const auto& [a, b] : s.forest) {
      adjacent[a].push_back(b);
      adjacent[b].push_back(a);
      s.forest_weight += edges_.at({a, b}).weight;
    }
    // Walks the tree from `root`: the order reached, parents and path weights.
    std::vector<std::optional<Vertex>> parent;
    std::vector<double> distance;
    const auto walk = [&](Vertex root) {
      parent.assign(n, std::nullopt);
      distance.assign(n, 0);
      std::vector<Vertex> order{root};
      std::vector<bool> seen(n, false);
      seen[root] = true;
      for (std::size_t i = 0; i < order.size(); ++i) {
        const Vertex u = order[i];
        for (const Vertex w : adjacent[u]) {
          if (seen[w]) continue;
          seen[w] = true;
          parent[w] = u;
          distance[w] = distance[u] + edge(u, w)->weight;
          order.push_back(w);
        }
      }
      return order;
    };
    s.island.assign(n, static_cast<Vertex>(n));
    s.reference.assign(n, 0);
    s.transform.assign(n, model::LinearTransform::identity());
    s.uncertainty_ns.assign(n, 0);
    for (Vertex start = 0; start < n; ++start) {
      if (s.island[start] != n) continue;
      const std::vector<Vertex> members = walk(start);
      for (const Vertex u : members) s.island[u] = start;
      // The forced vertex with the smallest id, else the smallest sum of
      // path weights (exact for dyadic weights), ties to the smaller id.
      std::optional<Vertex> best;
      for (const Vertex u : members) {
        if (forced_[u] && (!best || ids_[u] < ids_[*best])) best = u;
      }
      if (!best) {
        double best_cost = 0;
        for (const Vertex candidate : members) {
          walk(candidate);
          double cost = 0;
          for (const Vertex u : members) cost += distance[u];
          if (!best || cost < best_cost || (cost == best_cost && ids_[candidate] < ids_[*best])) {
            best = candidate;
            best_cost = cost;
          }
        }
      }
      for (const Vertex u : walk(*best)) {
        s.reference[u] = *best;
        if (!parent[u]) continue;
        const Vertex p = *parent[u];
        s.transform[u] = s.transform[p].after(onto(p, u));
        s.uncertainty_ns[u] = s.uncertainty_ns[p] + edge(p, u)->uncertainty_ns;
      }
    }
    return s;
  }

 private:
  // Kruskal: edges by increasing EdgeKey, kept when they join two components.
  std::vector<std::pair<Vertex, Vertex>> kruskal() const {
    std::vector<std::pair<Vertex, Vertex>> order;
    for (const auto& [e, estimate] : edges_) order.push_back(e);
    std::sort(order.begin(), order.end(), [&](const auto& x, const auto& y) {
      return edge_key(edges_.at(x).weight, ids_[x.first], ids_[x.second]) <
             edge_key(edges_.at(y).weight, ids_[y.first], ids_[y.second]);
    });
    std::vector<Vertex> component(ids_.size());
    std::iota(component.begin(), component.end(), 0);
    std::vector<std::pair<Vertex, Vertex>> kept;
    for (const auto& [a, b] : order) {
      const Vertex ca = component[a];
      const Vertex cb = component[b];
      if (ca == cb) continue;
      for (Vertex& c : component) {
        if (c == cb) c = ca;
      }
      kept.push_back({a, b});
    }
    return kept;
  }

  // The transform mapping `from`'s neighbour `to` onto `from`.
  model::LinearTransform onto(Vertex from, Vertex to) const {
    const EdgeEstimate& e = edges_.at({std::min(from, to), std::max(from, to)});
    return from < to ? e.b_onto_a : e.b_onto_a.inverse();
  }

  std::vector<std::string> ids_;
  std::vector<bool> forced_;
  std::map<std::pair<Vertex, Vertex>, EdgeEstimate> edges_;
};

// Relative closeness of two quad values, for compositions along paths.
inline bool close(model::Quad x, model::Quad y, double relative = 1e-25) {
  const model::Quad scale = std::max<model::Quad>(1, std::max(model::abs(x), model::abs(y)));
  return model::abs(x - y) <= relative * scale;
}

inline bool close(const model::LinearTransform& x, const model::LinearTransform& y) {
  return close(x.slope, y.slope) && close(x.offset, y.offset);
}

}  // namespace tracesync::network::oracle
