// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <vector>

#include "snapshot/tracesync.pb.h"

namespace tracesync::snapshot {

// The order in which the text and HTML reports list traces and links for
// people: names in natural order, digit runs by value (host2 before
// host10). The snapshot, and the JSON and protobuf made from it, keep the
// order their contract states (tracesync.proto: traces sorted by name byte
// by byte, links by their ends' ids).

// Indices into s.traces(), by name.
std::vector<int> traces_for_people(const v1::Snapshot& s);

// Indices into s.links(), by their ends as shown: hostname, else id.
std::vector<int> links_for_people(const v1::Snapshot& s);

}  // namespace tracesync::snapshot
