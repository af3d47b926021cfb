// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <vector>

#include "network/best_bound_paths.h"
#include "network/piecewise_transform.h"
#include "session/domain_table.h"
#include "session/link_table.h"

namespace tracesync::session {

// Every domain's transform onto its island's reference, over the domain's
// span (DESIGN.md, "Per-trace transform"): the usable links' maps composed
// along the domain's best-bound path, from the reference outwards, the
// bounds adding up at corresponding instants. `growth` is the rate limit
// (ns per ns) where a map is used beyond its span (Session::growth).
// Links on the paths must have been refreshed (Link::Computed::b_onto_a).
std::vector<network::PiecewiseTransform> compose_domain_transforms(const DomainTable& domains, LinkTable& links,
                                                                   const network::BestBoundPaths& paths,
                                                                   model::Quad growth);

}  // namespace tracesync::session
