// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ingest/trace_source.h"

namespace tracesync::ingest {

// Splits `--domain TRACE=ID` at its last '=' (paths may hold one, ids do
// not). nullopt when either side is empty.
std::optional<std::pair<std::string, std::string>> parse_domain_override(std::string_view text);

// Sets TraceSource::domain_override from `--domain TRACE=ID` options. TRACE
// selects every trace that it
//   - names: equal to the trace's path, its name ("session/kernel") or its
//     directory's name ("kernel"), or
//   - contains: a directory above the trace (all traces of one host's
//     session at once).
// Paths are compared after making them absolute and canonical. An option that
// selects no trace, and a trace selected by two options with different ids,
// are problems; such traces keep no override.
std::vector<Problem> apply_domain_overrides(std::vector<TraceSource>& traces,
                                            const std::map<std::string, std::string>& overrides);

}  // namespace tracesync::ingest
