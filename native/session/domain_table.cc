// SPDX-License-Identifier: EPL-2.0
#include "session/domain_table.h"

namespace tracesync::session {

DomainIndex DomainTable::intern(const std::string& id, const std::string& hostname, bool* created) {
  const auto [it, inserted] = by_id_.try_emplace(id, static_cast<DomainIndex>(domains_.size()));
  if (inserted) {
    domains_.push_back(Domain{id, hostname.empty() ? id : hostname, std::nullopt, std::nullopt});
  } else if (Domain& d = domains_[it->second]; !hostname.empty() && (d.hostname == id || hostname < d.hostname)) {
    // Traces of one domain with different hostnames (`--domain` joins
    // them): the least names it, whichever trace opened first, so that
    // the report does not depend on the order traces were read in.
    d.hostname = hostname;
  }
  if (created) *created = inserted;
  return it->second;
}

std::optional<DomainIndex> DomainTable::find(const std::string& id) const {
  const auto it = by_id_.find(id);
  if (it == by_id_.end()) return std::nullopt;
  return it->second;
}

}  // namespace tracesync::session
