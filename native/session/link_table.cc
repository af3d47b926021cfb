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
    it->second.estimator = hull::make_estimator(options_);
  }
  return it->second;
}

}  // namespace tracesync::session
