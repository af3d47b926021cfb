// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tracesync::cli {

// `tracesync read-trace`: not for people. `tracesync sync` starts one per
// trace (per --jobs lane), `tracesync live` one per followed source, and
// talks to it on a socket (ingest::kReadingChannelFd, see
// ingest::serve_trace_reading), so that babeltrace2 aborting or looping on
// a damaged trace costs that trace only.
inline constexpr std::string_view kReadTraceCommand = "read-trace";
int run_read_trace();

// The command line that starts a reading process: this very executable
// with `read-trace`, or nullopt when /proc/self/exe cannot be read.
std::optional<std::vector<std::string>> reading_process_command();

}  // namespace tracesync::cli
