// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/point.h"

namespace tracesync::session {

using DomainIndex = uint32_t;

// A clock domain (DESIGN.md): the unit that gets a transform, keyed by its
// id, shown by its hostname, and the span of its clock the experiment saw.
struct Domain {
  std::string id;
  std::string hostname;
  std::optional<model::Nanoseconds> first;  // earliest and latest time seen
  std::optional<model::Nanoseconds> last;

  void observe(model::Nanoseconds t) {
    first = first ? std::min(*first, t) : t;
    last = last ? std::max(*last, t) : t;
  }
};

// The domains of a session, numbered densely in order of appearance.
class DomainTable {
 public:
  // The index of domain `id`, creating it (with this hostname) if new; a
  // domain's hostname is the least non-empty one it was given (its id when
  // none). `created` tells which happened.
  DomainIndex intern(const std::string& id, const std::string& hostname, bool* created = nullptr);

  std::optional<DomainIndex> find(const std::string& id) const;
  Domain& operator[](DomainIndex i) { return domains_[i]; }
  const Domain& operator[](DomainIndex i) const { return domains_[i]; }
  std::size_t size() const { return domains_.size(); }

 private:
  std::vector<Domain> domains_;
  std::map<std::string, DomainIndex> by_id_;
};

}  // namespace tracesync::session
