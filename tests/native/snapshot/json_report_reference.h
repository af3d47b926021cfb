// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>

#include "snapshot/tracesync.pb.h"

namespace tracesync::snapshot::reference {

// The report as the pre-s38 writer built it: one nlohmann document, dumped.
std::string to_json(const v1::Snapshot& snapshot, int indent);

}  // namespace tracesync::snapshot::reference
