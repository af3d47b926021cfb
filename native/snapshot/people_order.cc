// SPDX-License-Identifier: EPL-2.0
#include "snapshot/people_order.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "base/natural_order.h"

namespace tracesync::snapshot {

std::vector<int> traces_for_people(const v1::Snapshot& s) {
  std::vector<int> order(static_cast<std::size_t>(s.traces_size()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int x, int y) { return base::natural_less(s.traces(x).name(), s.traces(y).name()); });
  return order;
}

std::vector<int> links_for_people(const v1::Snapshot& s) {
  const auto shown = [](const std::string& hostname, const std::string& id) -> const std::string& {
    return hostname.empty() ? id : hostname;
  };
  std::vector<int> order(static_cast<std::size_t>(s.links_size()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
    const v1::Link& l = s.links(x);
    const v1::Link& m = s.links(y);
    const std::string& la = shown(l.a_hostname(), l.a());
    const std::string& ma = shown(m.a_hostname(), m.a());
    if (base::natural_less(la, ma)) return true;
    if (base::natural_less(ma, la)) return false;
    return base::natural_less(shown(l.b_hostname(), l.b()), shown(m.b_hostname(), m.b()));
  });
  return order;
}

}  // namespace tracesync::snapshot
