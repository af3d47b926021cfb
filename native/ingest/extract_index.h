// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>
#include <vector>

#include "ingest/trace_source.h"

namespace tracesync::ingest {

// The traces an extract file holds, each as a TraceSource under the path
// and name it was extracted under (TraceSource::extract says where it lies),
// in the file's order. A file that cannot be read, is no extract of this
// version, or is damaged before its first trace is a problem naming it. A
// file damaged later gives the traces whose first record comes before the
// damage (their readers meet it and say so, naming the file); a trace whose
// records all lie after it cannot be known.
void index_extract(const std::string& file, std::vector<TraceSource>& traces, std::vector<Problem>& problems);

}  // namespace tracesync::ingest
