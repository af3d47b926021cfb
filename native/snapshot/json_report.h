#pragma once

#include <string>

#include "snapshot/tracesync.pb.h"

namespace tracesync::snapshot {

// The JSON report ("format": "tracesync-sync/1"). Exact values are strings
// of 34 significant digits; unbounded values (an INCOMPLETE link's
// accuracy or uncertainty) are null. `indent` < 0 writes one line.
std::string to_json(const v1::Snapshot& snapshot, int indent = 2);

// One line of `--history` ("format": "tracesync-history/1"): the state of
// `link` right after the message numbered `message` (1-based) arrived.
std::string history_json_line(uint64_t message, const v1::Link& link);

}  // namespace tracesync::snapshot
