// SPDX-License-Identifier: EPL-2.0
#pragma once

namespace tracesync::cli {

// babeltrace2 2.0 aborts the process on some damaged traces (assertions in
// its CTF decoder) rather than reporting an error, and `babeltrace2` itself
// dies the same way on them. Installs a SIGABRT handler that, when the
// aborting thread was reading a trace, names it on stderr and exits with the
// internal-error code; other aborts keep their default action. An abort
// that follows a failed allocation (errno ENOMEM) is named as out of memory,
// not blamed on the trace.
void report_aborts_while_reading();

}  // namespace tracesync::cli
