// SPDX-License-Identifier: EPL-2.0
// How a stream's table skips events of fixed runs and strings: by
// align_up, checked against the arithmetic it replaces.
#include <gtest/gtest.h>

#include <cstdint>

#include "ctf/read_plan.h"

namespace tracesync::ctf {
namespace {

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

}  // namespace
}  // namespace tracesync::ctf
