// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>

#include "snapshot/certificate.h"
#include "snapshot/tracesync.pb.h"

namespace tracesync::snapshot::reference {

// The certificate as the pre-s39 writer built it: one nlohmann document, dumped.
std::string certificate_json(const v1::Snapshot& snapshot, int indent, const EventCitation& cite);

}  // namespace tracesync::snapshot::reference
