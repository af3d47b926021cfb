// SPDX-License-Identifier: EPL-2.0
#include "base/huge_page_vector.h"

#include <cstdint>
#include <numeric>

#include <gtest/gtest.h>

namespace tracesync::base {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

TEST(HugePageAllocatorTest, LargeBlocksStartOnAHugePageAndSmallOnesNeedNot) {
  HugePageAllocator<uint64_t> allocator;
  // From half a huge page up, a block is rounded to whole huge pages and
  // aligned to one, so that Linux can back it with them.
  for (const std::size_t bytes : {kHugePage / 2, kHugePage - 64, kHugePage, 3 * kHugePage + 8}) {
    const std::size_t n = bytes / sizeof(uint64_t);
    uint64_t* block = allocator.allocate(n);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % kHugePage, 0U) << bytes << " bytes";
    std::iota(block, block + n, uint64_t{7});
    EXPECT_EQ(block[n - 1], 7 + n - 1);
    allocator.deallocate(block, n);
  }
  // Below that, plain memory, aligned for the type.
  uint64_t* small = allocator.allocate(16);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(small) % alignof(uint64_t), 0U);
  small[15] = 1;
  allocator.deallocate(small, 16);
}

TEST(HugePageAllocatorTest, AVectorGrowingAcrossTheThresholdKeepsItsElements) {
  HugePageVector<uint32_t> values;
  const auto count = static_cast<uint32_t>(3 * kHugePage / sizeof(uint32_t));
  for (uint32_t i = 0; i < count; ++i) values.push_back(i * 3);
  ASSERT_EQ(values.size(), count);
  for (uint32_t i = 0; i < count; i += 4099) ASSERT_EQ(values[i], i * 3) << i;
  EXPECT_EQ(values.back(), (count - 1) * 3);
  HugePageVector<uint32_t> moved = std::move(values);
  EXPECT_EQ(moved[count / 2], count / 2 * 3);
}

}  // namespace
}  // namespace tracesync::base
