#pragma once

#include <gtest/gtest.h>

// Tests that hold code to a time budget skip in the sanitized build
// (-DTRACESYNC_SANITIZE, which defines TRACESYNC_SANITIZED for tests):
// ASan and UBSan slow code down several times, and unevenly, so a budget
// there would measure the sanitizers. The skip says so in the test output.
#ifdef TRACESYNC_SANITIZED
#define TRACESYNC_SKIP_TIME_BUDGET_UNDER_SANITIZERS() \
  GTEST_SKIP() << "checks a time budget: skipped in the sanitized build (-DTRACESYNC_SANITIZE), which is several times slower"
#else
#define TRACESYNC_SKIP_TIME_BUDGET_UNDER_SANITIZERS() static_cast<void>(0)
#endif
