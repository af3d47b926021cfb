// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>

namespace tracesync::apply::testing {

// The TSDL apply's writer makes (tsdl_metadata.h) of the IR src.ctf.fs
// reads from `trace_directory`; `unsupported` as tsdl_metadata says. Empty
// when it refuses.
std::string tsdl_of(const std::string& trace_directory, std::string* unsupported);

}  // namespace tracesync::apply::testing
