// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>

namespace tracesync::jni {

// The tracesync executable that came with this library, to read traces in
// processes of their own: `tracesync` in the library's own folder (as the
// Trace Compass bundle carries both) or in `../bin` from it (a build tree,
// or an install prefix), or where `cmake --install` puts it relative to the
// library's folder. nullopt when none is an executable file.
std::optional<std::string> reading_program_beside_library();

}  // namespace tracesync::jni
