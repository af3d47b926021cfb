// SPDX-License-Identifier: EPL-2.0
// A stream's table skips events of fixed runs and strings in bytes from a
// whole byte (ScanPlan::StreamPlan::skip_strings) and in bits from any
// other position (skip_strings_by_bits, as every event was skipped
// before): both must give the same verdict and the same position. Both
// align by align_up, checked against the arithmetic it replaces.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "ctf/scan_plan.h"

namespace tracesync::ctf {
namespace {

using StringStep = ScanPlan::StreamPlan::StringStep;

// align_up is a branch taken only off the alignment; it rounds up as the
// arithmetic it replaces did.
TEST(StringSkips, AlignUpRoundsUpAsTheArithmeticDid) {
  for (const uint64_t mask : {0u, 7u, 15u, 31u, 63u, 4095u}) {
    for (uint64_t position = 0; position < 10000; ++position) {
      ASSERT_EQ(align_up(position, mask), (position + mask) & ~mask) << position << ", mask " << mask;
    }
    const uint64_t far = uint64_t{1} << 60;
    EXPECT_EQ(align_up(far + 1, mask), (far + 1 + mask) & ~mask);
  }
}

TEST(StringSkips, InBytesTheyEndWhereTheyEndInBits) {
  std::mt19937 random(30);
  const uint32_t alignments[] = {1, 8, 16, 32, 64};
  const uint32_t runs[] = {0, 8, 16, 24, 32, 64, 3, 13};  // the last two not whole bytes
  int in_bytes = 0, fitted = 0;
  for (int round = 0; round < 3000; ++round) {
    std::vector<StringStep> steps(1 + random() % 4);
    for (StringStep& step : steps) {
      step.alignment_mask = alignments[random() % 5] - 1;
      step.bits = runs[random() % (round % 4 == 0 ? 8 : 6)];
      step.string = random() % 2 == 0;
    }
    steps.back().last = true;
    std::vector<uint8_t> data(96, 'a');
    for (int nul = 0; nul < 6; ++nul) data[random() % data.size()] = 0;
    for (uint64_t start = 0; start < 48; ++start) {
      const uint64_t limits[] = {data.size() * 8, data.size() * 8 - 1 - random() % 400, start + random() % 200};
      for (const uint64_t limit : limits) {
        uint64_t by_bytes = start, by_bits = start;
        const bool skipped = ScanPlan::StreamPlan::skip_strings(steps.data(), data.data(), by_bytes, limit);
        const bool skipped_by_bits = ScanPlan::StreamPlan::skip_strings_by_bits(steps.data(), data.data(), by_bits, limit);
        ASSERT_EQ(skipped, skipped_by_bits) << "round " << round << ", from bit " << start << " to " << limit;
        ASSERT_EQ(by_bytes, by_bits) << "round " << round << ", from bit " << start << " to " << limit;
        if (start % 8 == 0) ++in_bytes;
        if (skipped) ++fitted;
      }
    }
  }
  // Both ways, and both verdicts, were taken many times.
  EXPECT_GT(in_bytes, 10000);
  EXPECT_GT(fitted, 50000);
}

}  // namespace
}  // namespace tracesync::ctf
