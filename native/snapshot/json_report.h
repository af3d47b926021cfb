// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "snapshot/tracesync.pb.h"

namespace tracesync::snapshot {

// The JSON report ("format": "tracesync-sync/1"). Exact values are strings
// of 34 significant digits; unbounded values (an INCOMPLETE link's
// accuracy or uncertainty) are null. Names that are not UTF-8 are readable
// text with their exact bytes beside them (snapshot/json_names.h): writing
// never fails on them. `indent` < 0 writes one line.
std::string to_json(const v1::Snapshot& snapshot, int indent = 2);
// The same report written to `out` as it goes, element by element: a
// day's clock map is never held as one document or one string
// (docs/performance.md, "The result at the end of a day").
void write_json(const v1::Snapshot& snapshot, int indent, std::ostream& out);

// One line of `--history` ("format": "tracesync-history/1"): the state of
// `link` right after the message numbered `message` (1-based) arrived.
std::string history_json_line(uint64_t message, const v1::Link& link);

// A `--history` event line ("format": "tracesync-history-segments/1"),
// written after the history line of a message that changed the number of
// the link's segments: the segments closed so far and the open one.
std::string segment_history_json_line(uint64_t message, const v1::Link& link, uint32_t previous_segments,
                                      const std::vector<v1::LinkSegment>& segments);

}  // namespace tracesync::snapshot
