// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>

namespace tracesync::ingest {

// One CTF trace of the experiment: a directory holding a `metadata` file.
struct TraceSource {
  std::string path;  // the trace directory
  // For people: the last component of the path it was found under, then the
  // path below it ("session/kernel", "session/ust/uid/1000/64-bit", "scp_src").
  std::string name;
  std::optional<std::string> domain_override;  // `--domain`
};

// Something wrong with an input, in words for the user.
struct Problem {
  std::string source;  // the trace or path it is about
  std::string message;
};

}  // namespace tracesync::ingest
