// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "snapshot/tracesync.pb.h"

namespace tracesync::snapshot {

// The text form of a `--history` segment event (the JSON form is
// segment_history_json_line): after the message that changed the number of
// a link's segments, which segments are closed and which one is open.
//   "123  segments  a  b  2 -> 3  closed #1 [first, last]  open #2 [first, last]"
std::string segment_history_text_line(uint64_t message, const v1::Link& link, uint32_t previous_segments,
                                      const std::vector<v1::LinkSegment>& segments);

}  // namespace tracesync::snapshot
