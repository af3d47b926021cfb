// SPDX-License-Identifier: EPL-2.0
#include "session/domain_transforms.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "session/link_report.h"

namespace tracesync::session {

std::vector<network::PiecewiseTransform> compose_domain_transforms(const DomainTable& domains, LinkTable& links,
                                                                   const network::BestBoundPaths& paths,
                                                                   model::Quad growth) {
  const std::size_t n = domains.size();
  // Parents before children: by the number of links to the reference.
  std::vector<DomainIndex> order(n);
  std::iota(order.begin(), order.end(), DomainIndex{0});
  std::stable_sort(order.begin(), order.end(), [&](DomainIndex x, DomainIndex y) { return paths.hops[x] < paths.hops[y]; });

  std::vector<network::PiecewiseTransform> out(n, network::PiecewiseTransform::identity(0, 0));
  for (const DomainIndex d : order) {
    const hull::TimeSpan span = report_span(domains[d]);
    const auto first = static_cast<model::Quad>(span.first);
    const auto last = static_cast<model::Quad>(span.last);
    const std::optional<network::Vertex> parent = paths.parent[d];
    if (!parent) {
      out[d] = network::PiecewiseTransform::identity(first, last);
      continue;
    }
    const Link* link = links.find(d, *parent);
    if (link == nullptr || !link->computed || !link->computed->b_onto_a) {
      throw std::logic_error("compose_domain_transforms: the path of domain '" + domains[d].id +
                             "' uses a link that is not usable");
    }
    const network::PiecewiseTransform& b_onto_a = *link->computed->b_onto_a;
    const network::PiecewiseTransform onto_parent = link->b == d ? b_onto_a : b_onto_a.inverse();
    out[d] = network::composed_onto_parent(out[*parent], onto_parent, first, last, growth);
  }
  return out;
}

}  // namespace tracesync::session
