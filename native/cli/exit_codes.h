// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace tracesync::cli {

// The exit codes of the `tracesync` command: stable, and listed here only.
// `tracesync --help` prints kExitCodeMeanings; docs/exit-codes.md repeats
// them word for word (a test checks it).
enum ExitCode : int {
  kSuccess = 0,
  kInternalError = 1,   // a bug or an environment failure (out of memory, write error)
  kBadInput = 2,        // bad usage, unreadable or malformed input; partial results still printed
  kTraceSkipped = 3,    // at least one trace could not be read; the rest was synchronized
  kNotSynchronized = 4, // a trace is not synchronized with the rest (its transform means nothing)
  kTruthViolated = 5,   // check-truth: the truth lies outside a reported bound
  kVerifyDisagrees = 6, // verify: the report disagrees with its certificate
  kInterrupted = 130,   // SIGINT (128 + 2; SIGTERM and SIGHUP give 128 + theirs): what was read is reported
};

struct ExitCodeMeaning {
  ExitCode code;
  std::string_view meaning;
};

inline constexpr std::array<ExitCodeMeaning, 8> kExitCodeMeanings = {{
    {kSuccess, "success: every trace is synchronized with the rest"},
    {kInternalError,
     "internal error (a bug, out of memory, babeltrace2 aborting with --in-process, or the report could not be "
     "written)"},
    {kBadInput, "bad usage or bad input, or no trace could be read (what was read is still reported)"},
    {kTraceSkipped, "a trace could not be read, or only in part; the rest was synchronized"},
    {kNotSynchronized, "a trace is not synchronized with the rest (see the report and stderr)"},
    {kTruthViolated, "check-truth only: the truth lies outside a reported bound somewhere the report does not flag"},
    {kVerifyDisagrees, "verify only: the report disagrees with its certificate (the first disagreement is named)"},
    {kInterrupted, "interrupted by Ctrl-C; 128+N for signal N (SIGTERM 143, SIGHUP 129); the report covers what was read"},
}};

// When several apply, the worst wins: 1, then 130, then 2, 3 and 4.
inline ExitCode worse(ExitCode a, ExitCode b) {
  const auto rank = [](ExitCode c) {
    switch (c) {
      case kInternalError: return 5;
      case kInterrupted: return 4;
      case kBadInput: return 3;
      case kTraceSkipped: return 2;
      case kNotSynchronized: return 1;
      case kTruthViolated: return 1;
      case kVerifyDisagrees: return 1;
      case kSuccess: return 0;
    }
    return 5;
  };
  return rank(a) >= rank(b) ? a : b;
}

// The list for --help: "exit codes:\n  0  success: ...\n".
inline std::string exit_codes_help() {
  std::string text = "exit codes (when several apply, the first of 1, 130, 2, 3, 4):\n";
  for (const ExitCodeMeaning& e : kExitCodeMeanings) {
    const std::string code = std::to_string(static_cast<int>(e.code));
    text += "  " + code + std::string(5 - code.size(), ' ') + std::string(e.meaning) + "\n";
  }
  return text;
}

}  // namespace tracesync::cli
