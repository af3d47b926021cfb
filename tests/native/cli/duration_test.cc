// SPDX-License-Identifier: EPL-2.0
// Duration options: every value needs its unit, in lists too.

#include <gtest/gtest.h>

#include "cli/duration.h"

namespace tracesync::cli {
namespace {

TEST(DurationList, TakesCommaSeparatedDurationsWithUnits) {
  std::vector<model::Nanoseconds> out;
  EXPECT_EQ(read_duration_list_option("durations", "1min,10min,1h,500ms,2s", out), "");
  EXPECT_EQ(out, (std::vector<model::Nanoseconds>{60'000'000'000, 600'000'000'000, 3'600'000'000'000, 500'000'000,
                                                  2'000'000'000}));
  EXPECT_EQ(read_duration_list_option("durations", "90s", out), "");
  EXPECT_EQ(out, std::vector<model::Nanoseconds>{90'000'000'000});
}

TEST(DurationList, RefusesABareNumberNamingTheUnitsAndKeepsTheOldValue) {
  std::vector<model::Nanoseconds> out = {7};
  EXPECT_EQ(read_duration_list_option("durations", "1min,600", out),
            "--durations '600' has no unit: write it with one of ns, us, ms, s, min or h (e.g. 600s)");
  EXPECT_EQ(out, std::vector<model::Nanoseconds>{7});
  EXPECT_NE(read_duration_list_option("durations", "60", out).find("has no unit"), std::string::npos);
  EXPECT_NE(read_duration_list_option("durations", "1min,,1h", out).find("'' is not a positive duration"),
            std::string::npos);
  EXPECT_NE(read_duration_list_option("durations", "0s", out).find("is not a positive duration"), std::string::npos);
  EXPECT_EQ(read_duration_list_option("durations", "0s,1s", out, true), "");
  EXPECT_EQ(out, (std::vector<model::Nanoseconds>{0, 1'000'000'000}));
}

}  // namespace
}  // namespace tracesync::cli
