// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>

#include "snapshot/tracesync.pb.h"

namespace tracesync::snapshot {

// The human-readable report: traces, links, and each island's spanning
// tree drawn from its reference. Numbers are rounded for reading; the JSON
// and protobuf formats carry the exact values.
std::string to_text(const v1::Snapshot& snapshot);

// One row of `--history` in text form, with a header row for message 1.
std::string history_text_line(uint64_t message, const v1::Link& link);

}  // namespace tracesync::snapshot
