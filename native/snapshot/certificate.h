// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>

#include "snapshot/tracesync.pb.h"

namespace tracesync::snapshot {

// The certificate of a snapshot (`tracesync sync --certificate FILE`,
// docs/verify.md), as JSON text ("tracesync-certificate/1"): the
// assumptions the bounds rest on; for every link and segment the messages
// that pin its lines (the hull vertices of each direction, with the pair
// pinning Lmin and Lmax); and for every trace the path its transform was
// composed along, with the span of every domain on it. `tracesync verify`
// re-derives the report's numbers from it.
std::string certificate_json(const v1::Snapshot& snapshot, int indent = 2);

}  // namespace tracesync::snapshot
