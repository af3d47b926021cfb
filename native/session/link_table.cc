// SPDX-License-Identifier: EPL-2.0
#include "session/link_table.h"

namespace tracesync::session {

Link& LinkTable::between(const DomainTable& domains, DomainIndex first, DomainIndex second, bool* a_first) {
  *a_first = domains[first].id < domains[second].id;
  const DomainIndex a = *a_first ? first : second;
  const DomainIndex b = *a_first ? second : first;
  if (const auto it = links_.find({a, b}); it != links_.end()) return it->second;
  // The estimator before the entry: out of memory in either, no link is left
  // without an estimator (every pass over the links calls it).
  std::unique_ptr<hull::LinkEstimator> estimator = make_estimator_ ? make_estimator_() : hull::make_estimator(options_);
  Link& link = links_[{a, b}];
  link.a = a;
  link.b = b;
  link.estimator = std::move(estimator);
  return link;
}

Link* LinkTable::find(DomainIndex one, DomainIndex other) {
  for (const auto& key : {std::pair(one, other), std::pair(other, one)}) {
    if (const auto it = links_.find(key); it != links_.end()) return &it->second;
  }
  return nullptr;
}

}  // namespace tracesync::session
