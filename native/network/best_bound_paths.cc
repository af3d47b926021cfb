// SPDX-License-Identifier: EPL-2.0
#include "network/best_bound_paths.h"

#include <algorithm>
#include <numeric>
#include <queue>
#include <stdexcept>
#include <tuple>

namespace tracesync::network {
namespace {

using model::Quad;

template <typename Number>
struct Neighbour {
  Vertex vertex;
  Number weight;
};
template <typename Number>
using Adjacency = std::vector<std::vector<Neighbour<Number>>>;

// Choosing a reference tries every domain of an island. The tries run in
// doubles first (quad arithmetic is software, ~50 times slower); only the
// domains whose largest bound comes within kShortlist of the smallest are
// tried again exactly. Double sums of at most 2^20 terms stay within 1e-10
// of the exact ones, relatively, so the exact winner is always shortlisted.
constexpr double kShortlistRelative = 1e-9;
constexpr double kShortlistAbsolute = 1e-9;  // ns: for islands whose bounds are all 0
double shortlist_limit(double smallest) { return smallest * (1 + kShortlistRelative) + kShortlistAbsolute; }

// Shortest paths from one source by (bound, hops), the next vertex towards
// the source tie-broken by rank. Keys grow strictly along a path (a hop
// counts even when its weight is 0), so a vertex's every best predecessor is
// settled before it is: its parent does not depend on the scan order.
template <typename Number>
class Search {
 public:
  Search(const Adjacency<Number>& adjacency, const std::vector<uint32_t>& rank)
      : adjacency_(adjacency), rank_(rank), bound_(adjacency.size()), hops_(adjacency.size()),
        parent_(adjacency.size()), reached_(adjacency.size(), 0), settled_(adjacency.size(), 0) {}

  // Runs from `source`; stops early (returning nullopt) once a settled bound
  // reaches `give_up` (exceeds it, with `strictly`). Otherwise returns the
  // largest bound reached.
  std::optional<Number> run(Vertex source, const std::optional<Number>& give_up, bool strictly = false) {
    ++epoch_;
    using Entry = std::tuple<Number, uint32_t, uint32_t, Vertex>;  // bound, hops, rank, vertex
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    reach(source, 0, 0, std::nullopt);
    queue.push({0, 0, rank_[source], source});
    Number largest = 0;
    while (!queue.empty()) {
      const auto [bound, hops, rank, v] = queue.top();
      queue.pop();
      if (settled_[v] == epoch_) continue;
      if (bound != bound_[v] || hops != hops_[v]) continue;  // stale entry
      settled_[v] = epoch_;
      if (give_up && (strictly ? bound > *give_up : bound >= *give_up)) return std::nullopt;
      largest = bound;
      for (const Neighbour<Number>& n : adjacency_[v]) {
        if (settled_[n.vertex] == epoch_) continue;
        const Number b = bound + n.weight;
        const uint32_t h = hops + 1;
        if (reached_[n.vertex] != epoch_ || std::pair(b, h) < std::pair(bound_[n.vertex], hops_[n.vertex])) {
          reach(n.vertex, b, h, v);
          queue.push({b, h, rank_[n.vertex], n.vertex});
        } else if (b == bound_[n.vertex] && h == hops_[n.vertex] && rank_[v] < rank_[*parent_[n.vertex]]) {
          parent_[n.vertex] = v;
        }
      }
    }
    return largest;
  }

  Number bound(Vertex v) const { return bound_[v]; }
  uint32_t hops(Vertex v) const { return hops_[v]; }
  std::optional<Vertex> parent(Vertex v) const { return parent_[v]; }

 private:
  void reach(Vertex v, Number bound, uint32_t hops, std::optional<Vertex> parent) {
    reached_[v] = epoch_;
    bound_[v] = bound;
    hops_[v] = hops;
    parent_[v] = parent;
  }

  const Adjacency<Number>& adjacency_;
  const std::vector<uint32_t>& rank_;
  std::vector<Number> bound_;
  std::vector<uint32_t> hops_;
  std::vector<std::optional<Vertex>> parent_;
  std::vector<uint64_t> reached_;  // the epoch a vertex was last reached in
  std::vector<uint64_t> settled_;
  uint64_t epoch_ = 0;
};

}  // namespace

BestBoundPaths best_bound_paths(const std::vector<std::string>& ids, const std::vector<BoundEdge>& edges,
                                const std::vector<bool>& forced) {
  const std::size_t n = ids.size();
  if (forced.size() != n) throw std::invalid_argument("best_bound_paths: one forced flag per vertex");
  // Ranks by id: every tie is decided by ids, never by numbering.
  std::vector<Vertex> by_id(n);
  std::iota(by_id.begin(), by_id.end(), Vertex{0});
  std::sort(by_id.begin(), by_id.end(), [&](Vertex x, Vertex y) { return ids[x] < ids[y]; });
  std::vector<uint32_t> rank(n);
  for (uint32_t r = 0; r < n; ++r) rank[by_id[r]] = r;

  Adjacency<Quad> adjacency(n);
  Adjacency<double> rough(n);
  for (const BoundEdge& e : edges) {
    if (e.a >= n || e.b >= n || e.a == e.b || !(e.weight >= 0)) {
      throw std::invalid_argument("best_bound_paths: edge (" + std::to_string(e.a) + ", " + std::to_string(e.b) +
                                  ") is not a link between two known vertices with a weight >= 0");
    }
    adjacency[e.a].push_back({e.b, e.weight});
    adjacency[e.b].push_back({e.a, e.weight});
    rough[e.a].push_back({e.b, model::to_double(e.weight)});
    rough[e.b].push_back({e.a, model::to_double(e.weight)});
  }

  // Islands, each listed in rank order (the order candidates are tried in).
  std::vector<int64_t> island(n, -1);
  std::vector<std::vector<Vertex>> islands;
  for (const Vertex start : by_id) {
    if (island[start] >= 0) continue;
    const auto id = static_cast<int64_t>(islands.size());
    std::vector<Vertex>& members = islands.emplace_back(1, start);
    island[start] = id;
    for (std::size_t i = 0; i < members.size(); ++i) {
      for (const Neighbour<Quad>& next : adjacency[members[i]]) {
        if (island[next.vertex] < 0) {
          island[next.vertex] = id;
          members.push_back(next.vertex);
        }
      }
    }
    std::sort(members.begin(), members.end(), [&](Vertex x, Vertex y) { return rank[x] < rank[y]; });
  }

  BestBoundPaths out;
  out.reference.resize(n);
  out.parent.resize(n);
  out.bound.resize(n);
  out.hops.resize(n);
  Search<Quad> search(adjacency, rank);
  Search<double> rough_search(rough, rank);
  for (const std::vector<Vertex>& members : islands) {
    std::optional<Vertex> reference;
    for (const Vertex v : members) {
      if (forced[v]) {
        reference = v;  // the smallest forced id
        break;
      }
    }
    if (!reference) {
      // The shortlist, in doubles. Three landmarks (the first domain, the
      // farthest from it, the farthest from that) bound every candidate's
      // largest bound from below by the triangle inequality; candidates are
      // tried by increasing lower bound, each try stopping once it exceeds
      // the limit, and none is tried once the lower bounds pass it.
      std::vector<double> lower(n, 0);
      Vertex landmark = members.front();
      for (int l = 0; l < 3; ++l) {
        const double eccentricity = *rough_search.run(landmark, std::nullopt);
        Vertex farthest = landmark;
        for (const Vertex v : members) {
          const double d = rough_search.bound(v);
          lower[v] = std::max(lower[v], std::max(d, eccentricity - d));
          if (d > rough_search.bound(farthest)) farthest = v;
        }
        landmark = farthest;
      }
      std::vector<Vertex> by_lower = members;
      std::stable_sort(by_lower.begin(), by_lower.end(), [&](Vertex x, Vertex y) { return lower[x] < lower[y]; });
      std::vector<std::pair<Vertex, double>> tried;
      std::optional<double> smallest;
      for (const Vertex candidate : by_lower) {
        const std::optional<double> limit = smallest ? std::optional(shortlist_limit(*smallest)) : std::nullopt;
        // Rounded sums could put a lower bound a hair above the truth.
        if (limit && lower[candidate] * (1 - kShortlistRelative) > *limit) break;
        const std::optional<double> largest = rough_search.run(candidate, limit, true);
        if (!largest) continue;
        tried.push_back({candidate, *largest});
        if (!smallest || *largest < *smallest) smallest = largest;
      }
      std::sort(tried.begin(), tried.end(), [&](const auto& x, const auto& y) { return rank[x.first] < rank[y.first]; });
      // Exactly, in id order: a later candidate must do strictly better.
      std::optional<Quad> best;
      for (const auto& [candidate, rough_largest] : tried) {
        if (rough_largest > shortlist_limit(*smallest)) continue;
        const std::optional<Quad> largest = search.run(candidate, best);
        if (largest) {
          best = largest;
          reference = candidate;
        }
      }
    }
    search.run(*reference, std::nullopt);
    for (const Vertex v : members) {
      out.reference[v] = *reference;
      out.parent[v] = search.parent(v);
      out.bound[v] = search.bound(v);
      out.hops[v] = search.hops(v);
    }
  }
  return out;
}

}  // namespace tracesync::network
