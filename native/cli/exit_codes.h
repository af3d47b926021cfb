#pragma once

namespace tracesync::cli {

// Stable exit codes of the `tracesync` command (documented in README.md).
enum ExitCode : int {
  kSuccess = 0,
  kInternalError = 1,   // a bug or an environment failure (out of memory, write error)
  kBadInput = 2,        // bad usage, unreadable or malformed input; partial results still printed
  kTraceSkipped = 3,    // at least one trace could not be read; the rest was synchronized
  kTruthViolated = 5,   // check-truth: the truth lies outside a reported bound
  kInterrupted = 130,   // SIGINT (128 + 2; SIGTERM and SIGHUP give 128 + theirs): what was read is reported
};

}  // namespace tracesync::cli
