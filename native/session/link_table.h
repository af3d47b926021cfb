// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <memory>
#include <utility>

#include "hull/estimator_factory.h"
#include "hull/link_estimator.h"
#include "match/match_statistics.h"
#include "match/packet_event.h"
#include "network/piecewise_transform.h"
#include "session/domain_table.h"
#include "session/link_evidence.h"
#include "snapshot/tracesync.pb.h"

namespace tracesync::session {

// A link between two domains, `a` being the one whose id sorts first.
struct Link {
  DomainIndex a;
  DomainIndex b;
  std::unique_ptr<hull::LinkEstimator> estimator;
  bool in_network = false;          // currently an edge of the network
  match::MatchStatistics matching;  // filled by trace ingest
  bool has_matching = false;
  std::map<match::MessageKind, uint64_t> matches_by_kind;  // with application kinds: where its messages came from
  LinkEvidence evidence;  // empty unless SessionOptions::keep_latency_evidence
  std::vector<v1::LinkSignal> signals;  // what simultaneous signals gave it (docs/signals.md)

  // Bumped by every message and by every change finish() makes: what a
  // snapshot computed for the link stays valid while the version and the
  // span it covers stay the same.
  uint64_t version = 0;
  struct Computed {
    uint64_t version = 0;
    hull::TimeSpan span;
    hull::LinkEstimate estimate;
    std::optional<model::Quad> uncertainty;
    std::vector<hull::LinkSegment> segments;  // over span
    // When the link is usable: its clock map turned around (b onto a), and
    // the weight of a path through it (session/link_transform.h).
    std::optional<network::PiecewiseTransform> b_onto_a;
    std::optional<hull::ClockMap> clock_map;  // when b_onto_a follows its knots
    model::Quad weight = 0;
    std::optional<v1::Link> report;  // with this in_tree
    bool report_in_tree = false;
  };
  std::optional<Computed> computed;
  uint32_t history_segments = 1;  // the segment count --history last showed
  // The newest message's abscissa (a's clock): less the match horizon, the
  // frontier the estimator may settle (hull/link_estimator.h).
  std::optional<model::Nanoseconds> newest_x;
};

// The links of a session, created on their first message.
class LinkTable {
 public:
  using EstimatorFactory = std::function<std::unique_ptr<hull::LinkEstimator>()>;
  // `make_estimator`, when set, replaces hull::make_estimator(options).
  explicit LinkTable(hull::EstimatorOptions options, EstimatorFactory make_estimator = {})
      : options_(std::move(options)), make_estimator_(std::move(make_estimator)) {}

  // The link between two distinct domains, created if new; `a_first` says
  // whether the domain ids sort as (first, second) or the reverse.
  Link& between(const DomainTable& domains, DomainIndex first, DomainIndex second, bool* a_first);
  // The link between two domains, in either order; nullptr when none.
  Link* find(DomainIndex one, DomainIndex other);

  // In (a id, b id) order: the order of reports.
  template <typename F>
  void for_each_in_order(const DomainTable& domains, F&& f);
  // In no particular order.
  template <typename F>
  void for_each_mutable(F&& f) {
    for (auto& [key, link] : links_) f(link);
  }
  std::size_t size() const { return links_.size(); }

 private:
  hull::EstimatorOptions options_;
  EstimatorFactory make_estimator_;
  std::map<std::pair<DomainIndex, DomainIndex>, Link> links_;  // keyed by (a, b)
};

template <typename F>
void LinkTable::for_each_in_order(const DomainTable& domains, F&& f) {
  std::vector<Link*> ordered;
  for (auto& [key, link] : links_) ordered.push_back(&link);
  std::sort(ordered.begin(), ordered.end(), [&](const Link* x, const Link* y) {
    return std::pair(domains[x->a].id, domains[x->b].id) < std::pair(domains[y->a].id, domains[y->b].id);
  });
  for (Link* link : ordered) f(*link);
}

}  // namespace tracesync::session
