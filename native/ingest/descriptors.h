// SPDX-License-Identifier: EPL-2.0
#pragma once

namespace tracesync::ingest {

// `fd` moved to a number above the standard streams, close-on-exec (itself
// when it is already above, or negative). A process that runs with some of
// them closed gets such numbers for new descriptors, and a reading process's
// standard streams must not be overwritten while they are set up.
int above_standard_streams(int fd);

}  // namespace tracesync::ingest
