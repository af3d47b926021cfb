// SPDX-License-Identifier: EPL-2.0
#pragma once

#include "match/match_statistics.h"
#include "snapshot/tracesync.pb.h"

namespace tracesync::session {

// The proto form of the matcher's counters.
v1::MatchingStatistics matching_report(const match::MatchStatistics& m);

}  // namespace tracesync::session
