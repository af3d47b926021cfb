// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "model/linear_transform.h"
#include "model/quad.h"
#include "network/network.h"
#include "network/reference_tracker.h"
#include "network/spanning_forest.h"

namespace tracesync::network {

// Every vertex's transform onto its island's reference and the sum of
// uncertainties on the way (thesis Algorithm 9), computed when read and
// cached until its island changes.
//
// An island has a version, bumped by any change of its tree, its tree
// edges' estimates or its reference; a cached value is good while its
// version is current. A stale read takes one of two routes:
//  - alone, the path query of the link-cut tree: O(log n) amortized, so a
//    stream of changes, each followed by a few reads, costs O(log n) each;
//  - once the island has had more than 1/16 of its size in path reads
//    within one version (someone is reading it whole: a snapshot), one
//    traversal from the reference recomputes all of it, one composition
//    per vertex: Algorithm 9's "convert all", paid only when it pays off.
class TransformPropagation {
 public:
  TransformPropagation(SpanningForest& forest, ReferenceTracker& references)
      : forest_(&forest), references_(&references) {}

  void reserve(std::size_t vertices);
  void add_vertex();
  // Something v's island's transforms depend on changed.
  void island_changed(Vertex v);

  struct PathToReference {
    model::LinearTransform transform;  // v onto the reference
    model::Quad uncertainty_ns = 0;
  };
  const PathToReference& read(Vertex v);
  // Until the next change of each island, its first stale read recomputes
  // all of it by the traversal: the values then depend on the tree alone.
  void expect_reading_every_vertex();

 private:
  struct Cached {
    uint64_t version = 0;  // the island version it was computed for
    PathToReference value;
  };
  struct IslandState {
    uint64_t version = 0;
    uint32_t path_reads = 0;  // stale reads answered by path queries in this version
    bool traverse = false;    // the next stale read traverses (expect_reading_every_vertex)
  };
  static constexpr uint32_t kTraversalShare = 16;

  void propagate_island(Vertex reference, uint64_t version);

  SpanningForest* forest_;
  ReferenceTracker* references_;
  std::vector<IslandState> islands_;  // by island representative
  std::vector<Cached> cache_;
  std::vector<std::pair<Vertex, Vertex>> queue_;  // (vertex, its parent)
  uint64_t next_version_ = 1;
};

}  // namespace tracesync::network
