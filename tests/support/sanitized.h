// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <gtest/gtest.h>

// Tests that the sanitized build (-DTRACESYNC_SANITIZE, which defines
// TRACESYNC_SANITIZED for tests) cannot judge skip there, and say why in the
// test output:
//   - a time budget: ASan and UBSan slow code down several times, unevenly,
//     so a budget would measure the sanitizers;
//   - a test that takes from the process what the sanitizers' own runtime
//     needs (file descriptors: UBSan probes memory through a pipe).
#ifdef TRACESYNC_SANITIZED
#define TRACESYNC_SKIP_UNDER_SANITIZERS(why) GTEST_SKIP() << "skipped in the sanitized build: " << why
#else
#define TRACESYNC_SKIP_UNDER_SANITIZERS(why) static_cast<void>(0)
#endif
#define TRACESYNC_SKIP_TIME_BUDGET_UNDER_SANITIZERS() \
  TRACESYNC_SKIP_UNDER_SANITIZERS("it checks a time budget, and the sanitizers make code several times slower")
