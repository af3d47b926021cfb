#pragma once

namespace tracesync::ingest {

// The child's side of a ProcessTraceReader: reads the frames of
// reader_protocol from `read_fd`, runs a CtfTraceReader over the trace they
// name and writes what it reads to `write_fd`. Returns an exit code when the
// parent closes its end (0) or the channel breaks (1).
//
// Meant for a process of its own (`tracesync read-trace`): if babeltrace2
// aborts or loops on a damaged trace, it is this process that dies or is
// killed, and the parent reports the trace and goes on with the others.
int serve_trace_reading(int read_fd, int write_fd);

}  // namespace tracesync::ingest
