// SPDX-License-Identifier: EPL-2.0
#pragma once

#include "snapshot/tracesync.pb.h"

namespace tracesync::session {

// Marks which traces of a finished snapshot are synchronized (DESIGN.md,
// "Network"). The main island is the one with the most traces, ties to the
// one holding the smallest domain id (islands are numbered that way). A
// trace outside it is not synchronized with the rest: its transform and
// bound mean nothing next to the others, and Trace.unsynchronized_reason
// says why in words (another island, only one-way or failed links, no
// link, or no network events at all).
void mark_main_island(v1::Snapshot& snapshot);

}  // namespace tracesync::session
