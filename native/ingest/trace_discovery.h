// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "ingest/trace_source.h"

namespace tracesync::ingest {

struct Discovery {
  std::vector<TraceSource> traces;  // sorted by path, each once
  std::vector<Problem> problems;    // paths that could not be searched or hold no trace
};

// Finds the traces under each path: every directory holding a regular file
// named `metadata`, the path itself included, searched recursively (an LTTng
// session holds kernel/ and ust/uid/<uid>/<bits>/ traces). Symbolic links to
// directories are not followed. A path that does not exist, cannot be read or
// holds no trace is a problem naming it; the other paths are still searched.
Discovery discover_traces(const std::vector<std::string>& paths);

// The bytes of a trace's stream files (stream_file_paths_as_listed: the
// regular files of its directory but `metadata` and hidden files;
// subdirectories such as index/ excluded).
uint64_t stream_file_bytes(const std::string& trace_directory);

// The paths of a trace's stream files as src.ctf.fs takes them: every
// regular, non-empty file of its directory but `metadata` and hidden ones,
// in the order the directory lists them (readdir's, as src.ctf.fs meets
// them: ingest/stream_instances.h); nullopt, with `error` set, when the
// directory cannot be listed.
std::optional<std::vector<std::string>> stream_file_paths_as_listed(const std::string& trace_directory,
                                                                    std::error_code& error);

}  // namespace tracesync::ingest
