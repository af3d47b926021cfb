// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <vector>

#include "hull/link_estimate.h"
#include "hull/link_segment.h"
#include "session/domain_table.h"
#include "session/link_table.h"
#include "snapshot/tracesync.pb.h"

namespace tracesync::session {

// The span of a's clock a link's uncertainty is reported for: everything
// the experiment saw of domain a.
hull::TimeSpan report_span(const Domain& a);

// The proto form of a link's state, given its estimate and its uncertainty
// over report_span(); with `detail`, also its LinkDetail (lines, hull
// points, regression, matching statistics, segments). `segments`, when
// given, are counted in Link.segments (and detailed); `clock_map`, when
// given, is the map the trace transforms follow (LinkDetail.clock_map).
v1::Link link_report(const DomainTable& domains, const Link& link, const hull::LinkEstimate& estimate,
                     const std::optional<model::Quad>& uncertainty, bool in_tree, bool detail,
                     const std::vector<hull::LinkSegment>* segments = nullptr,
                     const hull::ClockMap* clock_map = nullptr);

// One link segment in proto form, hull points included.
v1::LinkSegment link_segment_report(const hull::LinkSegment& segment);

}  // namespace tracesync::session
