// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tracesync::ingest {

// Where a trace read from an extract lies (ExtractTraceReader).
struct ExtractEntry {
  std::string file;     // the extract file
  uint32_t trace = 0;   // its number in the file (its frames are trace + 1)
  uint64_t bytes = 0;   // of its frames
};

// One trace of the experiment: a directory holding a `metadata` file, or a
// trace written down in an extract (then path and name are the ones it was
// extracted under).
struct TraceSource {
  std::string path;  // the trace directory
  // For people: the last component of the path it was found under, then the
  // path below it ("session/kernel", "session/ust/uid/1000/64-bit", "scp_src").
  std::string name;
  std::optional<std::string> domain_override;  // `--domain`
  std::optional<ExtractEntry> extract = std::nullopt;  // set when read from an extract
};

// Something wrong with an input, in words for the user.
struct Problem {
  std::string source;  // the trace or path it is about
  std::string message;
};

}  // namespace tracesync::ingest
