// SPDX-License-Identifier: EPL-2.0
// What the progress bar says after the bar: the rate, and the time left at
// that rate once a second has passed.

#include <gtest/gtest.h>

#include "cli/progress_bar.h"

namespace tracesync::cli {
namespace {

using Unit = ProgressBar::Unit;
using Seconds = std::chrono::duration<double>;

TEST(ProgressBar, RateAndTimeLeft) {
  // 50 MB of 200 MB in 2 s: 25 MB/s, 150 MB left, 6 s.
  EXPECT_EQ(ProgressBar::rate_and_time_left(50'000'000, 200'000'000, Seconds(2), Unit::kBytes), "25.0 MB/s, 6s left");
  // Minutes and hours as a clock.
  EXPECT_EQ(ProgressBar::rate_and_time_left(1'000'000, 200'000'000, Seconds(1), Unit::kBytes), "1.0 MB/s, 3:19 left");
  EXPECT_EQ(ProgressBar::rate_and_time_left(1'000'000, 4'000'000'000, Seconds(1), Unit::kBytes),
            "1.0 MB/s, 1:06:39 left");
  EXPECT_EQ(ProgressBar::rate_and_time_left(3'000'000, 9'000'000, Seconds(1.5), Unit::kEvents),
            "2.00 M events/s, 3s left");
}

TEST(ProgressBar, NoTimeLeftBeforeASecondOrWhenDone) {
  EXPECT_EQ(ProgressBar::rate_and_time_left(1'000'000, 9'000'000, Seconds(0.5), Unit::kBytes), "2.0 MB/s");
  EXPECT_EQ(ProgressBar::rate_and_time_left(9'000'000, 9'000'000, Seconds(3), Unit::kBytes), "3.0 MB/s");
  EXPECT_EQ(ProgressBar::rate_and_time_left(0, 9'000'000, Seconds(2), Unit::kBytes), "0.0 MB/s");
  EXPECT_EQ(ProgressBar::rate_and_time_left(0, 9'000'000, Seconds(0), Unit::kBytes), "");
}

}  // namespace
}  // namespace tracesync::cli
