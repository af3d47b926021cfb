// SPDX-License-Identifier: EPL-2.0
#include "match/chunked_pool.h"

#include <cstdint>
#include <set>

#include <gtest/gtest.h>

namespace tracesync::match {
namespace {

struct Slot {
  uint64_t value = 0;
  uint32_t generation = 0;
  uint32_t pad = 0;
};

TEST(ChunkedPoolTest, NumbersStayValidAcrossChunksAndReleasedOnesComeBackFirst) {
  ChunkedPool<Slot> pool;
  const auto count = static_cast<uint32_t>(3 * ChunkedPool<Slot>::kChunk + 5);  // four chunks
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t number = pool.allocate();
    ASSERT_EQ(number, i);
    EXPECT_EQ(pool[number].value, 0U) << "a new chunk's slots start value-initialized";
    pool[number].value = 1000 + i;
  }
  // Growing never moved what was there.
  for (uint32_t i = 0; i < count; i += 997) ASSERT_EQ(pool[i].value, 1000 + i);

  pool[42].generation = 9;
  pool.release(42);
  pool.release(count - 1);
  // Most recently released first; a slot keeps what its last user left.
  EXPECT_EQ(pool.allocate(), count - 1);
  const uint32_t again = pool.allocate();
  EXPECT_EQ(again, 42U);
  EXPECT_EQ(pool[again].generation, 9U);
  EXPECT_EQ(pool.allocate(), count) << "then fresh numbers";

  pool.release(7);
  std::set<uint32_t> live;
  pool.for_each_live([&](uint32_t number, const Slot&) { live.insert(number); });
  EXPECT_EQ(live.size(), count);  // count + 1 allocated, 7 released
  EXPECT_EQ(live.count(7), 0U);
  EXPECT_EQ(live.count(count), 1U);

  pool.clear();
  EXPECT_EQ(pool.allocate(), 0U);
  EXPECT_EQ(pool[0].value, 0U);
}

}  // namespace
}  // namespace tracesync::match
