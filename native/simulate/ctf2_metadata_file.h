// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>

namespace tracesync::simulate {

// `simulate --ctf2`: replaces the CTF 1.8 metadata babeltrace2 wrote in
// `trace_directory` by its CTF 2 translation (ctf/ctf2_writer), as LTTng
// 2.15 records by default; the stream files stay as they are. Throws
// SimulationError naming the file when the metadata cannot be read or
// written.
void rewrite_metadata_as_ctf2(const std::string& trace_directory);

}  // namespace tracesync::simulate
