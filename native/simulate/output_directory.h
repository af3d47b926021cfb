// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>

namespace tracesync::simulate {

// Where a host's user-space trace goes under its directory, as lttng-ust's
// per-UID buffers lay it out (SimulationOptions::user_space); a kernel
// trace goes in `kernel`.
inline constexpr const char* kUserSpaceTracePath = "ust/uid/1000/64-bit";

// Makes `directory` ready for a simulation: creates it (and its parents)
// when missing and checks that it can be written. An existing directory
// must be empty, unless `overwrite`: then a previous simulation's files are
// removed first (each subdirectory holding a kernel/metadata or
// ust/uid/1000/64-bit/metadata trace, and
// truth.json and matches.txt); anything else is left alone.
// Throws SimulationError saying what is wrong.
void prepare_output_directory(const std::string& directory, bool overwrite);

}  // namespace tracesync::simulate
