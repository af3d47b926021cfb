#pragma once

#include "hull/link_estimate.h"
#include "session/domain_table.h"
#include "session/link_table.h"
#include "snapshot/tracesync.pb.h"

namespace tracesync::session {

// The span of a's clock a link's uncertainty is reported for: everything
// the experiment saw of domain a.
hull::TimeSpan report_span(const Domain& a);

// The proto form of a link's state, given its estimate and its uncertainty
// over report_span(); with `detail`, also its LinkDetail (lines, hull
// points, regression, matching statistics).
v1::Link link_report(const DomainTable& domains, const Link& link, const hull::LinkEstimate& estimate,
                     const std::optional<model::Quad>& uncertainty, bool in_tree, bool detail);

}  // namespace tracesync::session
