// SPDX-License-Identifier: EPL-2.0
#pragma once

#include "snapshot/tracesync.pb.h"

namespace tracesync::session {

// Fills in what a person reads first, from the exact transforms of a
// finished snapshot: each trace's drift in ppm (slope - 1) and its shift at
// its first event (t_ref - t), and each link's hostnames beside its ids.
void add_human_figures(v1::Snapshot& snapshot);

}  // namespace tracesync::session
