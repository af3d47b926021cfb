// SPDX-License-Identifier: EPL-2.0
// The log of non-tree edges: a compaction keeps exactly the latest record of
// each edge not in the tree, in the order the records were written, and
// `contains` sees every edge ever added until a compaction drops it.

#include "network/non_tree_edges.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <utility>
#include <vector>

namespace tracesync::network {
namespace {

EdgeRecord record(Vertex low, Vertex high, double weight) {
  EdgeRecord r;
  r.low = low;
  r.high = high;
  r.weight = weight;
  r.uncertainty_ns = weight * 2;
  r.maps_high_onto_low = static_cast<int>(weight) % 2 == 0;
  return r;
}

std::vector<EdgeRecord> contents(const NonTreeEdges& edges) {
  std::vector<EdgeRecord> out;
  edges.for_each([&](const EdgeRecord& r) { out.push_back(r); });
  return out;
}

TEST(NonTreeEdgesTest, CompactionKeepsTheLatestRecordOfEachNonTreeEdgeInWriteOrder) {
  NonTreeEdges edges;
  edges.add(record(1, 2, 10));
  edges.add(record(0, 5, 11));
  edges.add(record(1, 2, 12));  // supersedes the first
  edges.add(record(3, 4, 13));  // in the tree by now
  edges.add(record(0, 7, 14));
  edges.add(record(0, 5, 15));  // supersedes the second
  EXPECT_TRUE(edges.contains(3, 4));
  EXPECT_FALSE(edges.contains(4, 3));  // keys are (low, high)
  EXPECT_FALSE(edges.contains(2, 9));

  edges.compact({NonTreeEdges::key(2, 3), NonTreeEdges::key(3, 4), NonTreeEdges::key(6, 7)});
  const std::vector<EdgeRecord> kept = contents(edges);
  ASSERT_EQ(kept.size(), 3U);
  EXPECT_EQ(std::pair(kept[0].low, kept[0].high), std::pair(1U, 2U));
  EXPECT_EQ(kept[0].weight, 12);
  EXPECT_EQ(kept[0].uncertainty_ns, 24);
  EXPECT_TRUE(kept[0].maps_high_onto_low);
  EXPECT_EQ(std::pair(kept[1].low, kept[1].high), std::pair(0U, 7U));
  EXPECT_EQ(kept[1].weight, 14);
  EXPECT_EQ(std::pair(kept[2].low, kept[2].high), std::pair(0U, 5U));
  EXPECT_EQ(kept[2].weight, 15);
  EXPECT_FALSE(kept[2].maps_high_onto_low);
  EXPECT_FALSE(edges.contains(3, 4));
}

TEST(NonTreeEdgesTest, ManyUpdatesOfFewEdgesStayCompact) {
  NonTreeEdges edges;
  // Many updates of few edges: compacting whenever asked keeps the log near
  // their number, never above the threshold.
  std::mt19937_64 rng(7);
  std::map<std::pair<Vertex, Vertex>, double> latest;
  std::size_t compactions = 0;
  for (int i = 0; i < 300'000; ++i) {
    const auto low = static_cast<Vertex>(rng() % 40);
    const auto high = low + 1 + static_cast<Vertex>(rng() % 40);
    const auto weight = static_cast<double>(i);
    edges.add(record(low, high, weight));
    latest[{low, high}] = weight;
    if (edges.wants_compaction()) {
      edges.compact({});
      ++compactions;
      EXPECT_EQ(contents(edges).size(), latest.size());
    }
  }
  // The log reaches 65,536 records, is compacted to the ~1,600 edges (four
  // times that is below the floor of 65,536), and grows back: 4 times in 300,000.
  EXPECT_EQ(compactions, 4U);
  edges.compact({});
  std::map<std::pair<Vertex, Vertex>, double> kept;
  for (const EdgeRecord& r : contents(edges)) {
    EXPECT_TRUE(kept.emplace(std::pair(r.low, r.high), r.weight).second) << "edge " << r.low << "-" << r.high << " twice";
  }
  EXPECT_EQ(kept, latest);
}

TEST(NonTreeEdgesTest, CompactionMatchesAnOracleForVertexNumbersOfEveryWidth) {
  // Vertex numbers from a few bits up to 30, so that every digit of the
  // edge keys varies somewhere; edges repeat, some are in the tree.
  std::mt19937_64 rng(11);
  for (const int bits : {4, 12, 17, 30}) {
    NonTreeEdges edges;
    std::vector<std::pair<Vertex, Vertex>> pool;
    for (int i = 0; i < 500; ++i) {
      const auto low = static_cast<Vertex>(rng() % (uint64_t{1} << bits));
      const auto high = low + 1 + static_cast<Vertex>(rng() % 1000);
      pool.emplace_back(low, high);
    }
    std::map<std::pair<Vertex, Vertex>, std::pair<double, std::size_t>> latest;  // weight, write order
    for (std::size_t i = 0; i < 5'000; ++i) {
      const auto [low, high] = pool[rng() % pool.size()];
      edges.add(record(low, high, static_cast<double>(i)));
      latest[{low, high}] = {static_cast<double>(i), i};
    }
    std::vector<uint64_t> tree_keys;
    for (std::size_t i = 0; i < pool.size(); i += 7) tree_keys.push_back(NonTreeEdges::key(pool[i].first, pool[i].second));
    std::sort(tree_keys.begin(), tree_keys.end());
    tree_keys.erase(std::unique(tree_keys.begin(), tree_keys.end()), tree_keys.end());
    edges.compact(tree_keys);

    std::vector<std::pair<std::size_t, std::pair<Vertex, Vertex>>> expected;  // in write order
    for (const auto& [edge, value] : latest) {
      if (!std::binary_search(tree_keys.begin(), tree_keys.end(), NonTreeEdges::key(edge.first, edge.second))) {
        expected.emplace_back(value.second, edge);
      }
    }
    std::sort(expected.begin(), expected.end());
    const std::vector<EdgeRecord> kept = contents(edges);
    ASSERT_EQ(kept.size(), expected.size()) << bits << " bits";
    for (std::size_t i = 0; i < kept.size(); ++i) {
      EXPECT_EQ(std::pair(kept[i].low, kept[i].high), expected[i].second) << bits << " bits, record " << i;
      EXPECT_EQ(kept[i].weight, static_cast<double>(expected[i].first)) << bits << " bits, record " << i;
    }
  }
}

TEST(NonTreeEdgesTest, ThresholdFollowsTheEdgesKept) {
  NonTreeEdges edges;
  // 70,000 distinct edges: the first compaction keeps them all, the next
  // one waits until the log holds four times as many records.
  Vertex n = 0;
  while (!edges.wants_compaction()) {
    edges.add(record(n, n + 1, 1));
    ++n;
  }
  EXPECT_EQ(n, 65'536U);
  for (; n < 70'000; ++n) edges.add(record(n, n + 1, 1));
  edges.compact({});
  EXPECT_EQ(contents(edges).size(), 70'000U);
  std::size_t added = 0;
  while (!edges.wants_compaction()) {
    edges.add(record(0, 1, 2));
    ++added;
  }
  EXPECT_EQ(added, 3U * 70'000U);
}

}  // namespace
}  // namespace tracesync::network
