// SPDX-License-Identifier: EPL-2.0
#pragma once

namespace tracesync::ingest {

// The descriptor on which a reading process talks to its parent (a socket).
// Not standard input or output: whatever a library prints must not land in
// the channel. The process's standard output and error go to a file the
// parent quotes when the process dies.
inline constexpr int kReadingChannelFd = 3;

// The child's side of a ReadingLane: reads the frames of reader_protocol
// from `read_fd`, runs a CtfTraceReader over each trace they open (or, for a
// source followed while it is recorded, a LiveTraceReader or
// GrowingTraceReader: reader_protocol::FollowedSource), steps the one each
// step names, and writes what it reads to `write_fd`. A trace read
// to its end (or failed) is closed at once. Returns an exit code when the
// parent closes its end (0) or the channel breaks or a request is malformed
// (1).
//
// Meant for a process of its own (`tracesync read-trace`, serving on
// kReadingChannelFd): if babeltrace2
// aborts or loops on a damaged trace, it is this process that dies or is
// killed, and the parent reports the trace and goes on with the others.
int serve_trace_reading(int read_fd, int write_fd);

}  // namespace tracesync::ingest
