// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>
#include <vector>

#include "ingest/trace_source.h"

namespace tracesync::ingest {

// The traces an extract file holds, each as a TraceSource under the path
// and name it was extracted under (TraceSource::extract says where it lies),
// in the file's order. A file that cannot be read, is no extract of this
// version, or is damaged before a trace's first record is a problem naming
// it; the traces found before the damage are still given (their readers say
// what is wrong with them).
void index_extract(const std::string& file, std::vector<TraceSource>& traces, std::vector<Problem>& problems);

}  // namespace tracesync::ingest
