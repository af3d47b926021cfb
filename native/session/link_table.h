#pragma once

#include <map>
#include <optional>
#include <memory>
#include <utility>

#include "hull/estimator_factory.h"
#include "hull/link_estimator.h"
#include "match/match_statistics.h"
#include "session/domain_table.h"
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

  // Bumped by every message and by every change finish() makes: what a
  // snapshot computed for the link stays valid while the version and the
  // span it covers stay the same.
  uint64_t version = 0;
  struct Computed {
    uint64_t version = 0;
    hull::TimeSpan span;
    hull::LinkEstimate estimate;
    std::optional<model::Quad> uncertainty;
    std::optional<v1::Link> report;  // with this in_tree
    bool report_in_tree = false;
  };
  std::optional<Computed> computed;
};

// The links of a session, created on their first message.
class LinkTable {
 public:
  explicit LinkTable(hull::EstimatorOptions options) : options_(std::move(options)) {}

  // The link between two distinct domains, created if new; `a_first` says
  // whether the domain ids sort as (first, second) or the reverse.
  Link& between(const DomainTable& domains, DomainIndex first, DomainIndex second, bool* a_first);

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
