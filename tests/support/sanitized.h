// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

// What runs sanitized: the code of this program when the sanitized build
// (-DTRACESYNC_SANITIZE, which defines TRACESYNC_SANITIZED for tests) built
// it, or the tracesync command these end-to-end tests run when
// scripts/setup.sh --test points them at the sanitized build's command
// (TRACESYNC_TEST_COMMAND, with TRACESYNC_TEST_COMMAND_SANITIZED=1).
//
// Tests that a sanitized program cannot judge skip there, and say why in
// the test output:
//   - a time budget: ASan and UBSan slow code down several times, unevenly,
//     so a budget would measure the sanitizers;
//   - a test that takes from the process what the sanitizers' own runtime
//     needs (file descriptors: UBSan probes memory through a pipe).
namespace tracesync::testing {
inline bool sanitized() {
#ifdef TRACESYNC_SANITIZED
  return true;
#else
  const char* command = std::getenv("TRACESYNC_TEST_COMMAND_SANITIZED");
  return command != nullptr && std::string(command) == "1";
#endif
}
}  // namespace tracesync::testing

#define TRACESYNC_SKIP_UNDER_SANITIZERS(why) \
  if (::tracesync::testing::sanitized()) GTEST_SKIP() << "skipped in the sanitized build: " << why
#define TRACESYNC_SKIP_TIME_BUDGET_UNDER_SANITIZERS() \
  TRACESYNC_SKIP_UNDER_SANITIZERS("it checks a time budget, and the sanitizers make code several times slower")
