// SPDX-License-Identifier: EPL-2.0
#include "session/link_table.h"

namespace tracesync::session {

Link& LinkTable::between(const DomainTable& domains, DomainIndex first, DomainIndex second, bool* a_first) {
  *a_first = domains[first].id < domains[second].id;
  const DomainIndex a = *a_first ? first : second;
  const DomainIndex b = *a_first ? second : first;
  auto [it, inserted] = links_.try_emplace({a, b});
  if (inserted) {
    it->second.a = a;
    it->second.b = b;
    it->second.estimator = make_estimator_ ? make_estimator_() : hull::make_estimator(options_);
  }
  return it->second;
}

Link* LinkTable::find(DomainIndex one, DomainIndex other) {
  for (const auto& key : {std::pair(one, other), std::pair(other, one)}) {
    if (const auto it = links_.find(key); it != links_.end()) return &it->second;
  }
  return nullptr;
}

}  // namespace tracesync::session
