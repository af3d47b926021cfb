// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>
#include <system_error>
#include <vector>

namespace tracesync::ingest {

// The names in `directory` but `.` and `..`, unsorted; nullopt, with
// `error` set, when it cannot be listed. Throws std::bad_alloc when memory
// runs out, as nothing in std::filesystem's directory_iterator may: libstdc++
// 12 builds it in a noexcept function, so a failed allocation there ends the
// process (found injecting allocation failures while a trace is read).
std::optional<std::vector<std::string>> list_directory(const std::string& directory, std::error_code& error);

}  // namespace tracesync::ingest
