// SPDX-License-Identifier: EPL-2.0
// The end-to-end tests' own harness: a timed signal waits for the program
// to catch it, so a test that means to interrupt a command does not kill it
// before it has set its handlers (a sanitized command under load took more
// than 2 s to get there, and the test saw no output at all).

#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>

#include "support/run_command.h"

namespace tracesync {
namespace {

TEST(RunCommand, ATimedSignalWaitsUntilTheProgramCatchesIt) {
  // The shell catches SIGUSR1 only after a second (SIGINT it catches from
  // its start); sent at 10 ms without the wait, it would end the shell
  // (128 + SIGUSR1) instead of running its trap.
  const auto r = testing::run_command_with_signals(
      "/bin/sh", {"-c", "sleep 1; trap 'exit 7' USR1; while :; do sleep 0.05; done"},
      {{std::chrono::milliseconds(10), SIGUSR1}});
  EXPECT_EQ(r.exit_code, 7) << r.err;
}

}  // namespace
}  // namespace tracesync
