// SPDX-License-Identifier: EPL-2.0
#pragma once

namespace tracesync::cli {

// babeltrace2 2.0 aborts the process on some damaged traces (assertions in
// its CTF decoder) rather than reporting an error, and `babeltrace2` itself
// dies the same way on them. Installs a SIGABRT handler that, when the
// aborting thread was reading a trace, names it on stderr and exits with the
// internal-error code; other aborts keep their default action. An abort
// that follows a failed allocation (errno ENOMEM) is named as out of memory,
// not blamed on the trace; so are GLib's breakpoint (SIGTRAP, its g_error)
// and the segmentation fault of GLib's error path recursing until the stack
// overflows (ingest::give_reading_threads_a_signal_stack), both right after
// a failed allocation. When several threads stop at once, one reports.
void report_aborts_while_reading();

// In a reading process (`tracesync read-trace`): an abort keeps its default
// action (the parent names the trace and how its process ended), but the
// segmentation fault right after a failed allocation, which says nothing on
// its own, prints one line saying memory ran out, which the parent quotes.
void report_out_of_memory_in_reading_process();

}  // namespace tracesync::cli
