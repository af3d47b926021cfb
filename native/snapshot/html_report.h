// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>

#include "snapshot/tracesync.pb.h"

namespace tracesync::snapshot {

// The HTML report (docs/html-report.md): one self-contained page, with
// inline CSS, SVG and a little JavaScript, that requests nothing from the
// network. In order: a summary, the network as a picture, each trace's
// pieces and bound over time, each link's hull vertices and lines, the
// matching statistics and the options. Qualities are always also in words.
std::string to_html(const v1::Snapshot& snapshot);

}  // namespace tracesync::snapshot
