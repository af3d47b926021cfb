// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>
#include <vector>

#include "ingest/trace_source.h"

namespace tracesync::ingest {

// The entries of a trace directory that babeltrace2's src.ctf.fs leaves out
// without a word. It reads as a stream file every entry but `metadata` and
// hidden ones, and skips (checking with stat, never opening) what is not a
// regular file once links are followed, and then the empty files: a FIFO, a
// device such as /dev/zero, a link to nothing, a directory, an empty file.
// Each is a problem naming the entry (its path) and what it is; the rest of
// the trace is still read. LTTng's `index/` directory and directories that
// are traces themselves (holding `metadata`) are not problems.
//
// Found with lstat and stat alone: nothing is opened (opening a FIFO could
// block). A directory that cannot be listed gives no problem here: reading
// the trace says so.
std::vector<Problem> left_out_stream_files(const std::string& trace_directory);

}  // namespace tracesync::ingest
