// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <atomic>
#include <csignal>

namespace tracesync::cli {

// While alive, SIGINT (Ctrl-C), SIGTERM (kill, a service manager stopping
// us) and SIGHUP (the terminal closed) set a flag that cancels trace
// reading instead of killing the process, so the report of what was read is
// printed; the exit code is then 128 + the signal's number, as a shell
// reports a process killed by it. Reading stops between steps; a step that
// never ends (babeltrace2 loops on some damaged traces when read
// in-process) would make the signal useless, so a second one quits at once,
// without a report.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  const std::atomic<bool>* flag() const;
  // The first signal received, 0 if none.
  int signal() const;
  // 128 + signal(): how the run ends when a signal cut it short.
  int exit_code() const { return 128 + signal(); }

 private:
  struct sigaction previous_[3] = {};
};

}  // namespace tracesync::cli
