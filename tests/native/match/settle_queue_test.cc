// The settle queue gives back every record once, slice by slice in time
// order, whatever the order of the pushes and however far apart the times
// (negative ones, clocks days apart, pages emptied and refilled).

#include "match/settle_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

namespace tracesync::match {
namespace {

TEST(SettleQueueTest, GivesBackEverySliceInTimeOrder) {
  std::mt19937_64 rng(5);
  SettleQueue queue;
  std::map<int64_t, std::vector<uint32_t>> want;  // slice -> records
  const model::Nanoseconds bases[] = {-3'000'000'000, 0, 4'000'000'000, 86'400'000'000'000 * 3};
  uint32_t record = 0;
  const auto push_some = [&](int count) {
    for (int i = 0; i < count; ++i) {
      const model::Nanoseconds time =
          bases[rng() % 4] + static_cast<model::Nanoseconds>(rng() % 20'000'000'000) - 10'000'000'000;
      queue.push({time, record, 7});
      want[time >> SettleQueue::kSliceBits].push_back(record);
      ++record;
    }
  };
  push_some(20'000);
  std::size_t popped = 0;
  int pops = 0;
  int64_t last = INT64_MIN;
  while (!queue.empty()) {
    // Interleave pushes with pops, as reading does (later ones only, as progress promises).
    if (pops % 50 == 49) {
      const model::Nanoseconds time = (last + 1) * (int64_t{1} << SettleQueue::kSliceBits) + 12'345;
      queue.push({time, record, 7});
      want[time >> SettleQueue::kSliceBits].push_back(record);
      ++record;
    }
    const int64_t slice = queue.first_slice();
    ASSERT_GT(slice, last);
    ASSERT_EQ(slice, want.begin()->first);
    std::vector<uint32_t> got;
    std::vector<SettleQueue::Waiting> popped_slice;
    queue.pop_first_slice(popped_slice);
    for (const SettleQueue::Waiting& w : popped_slice) {
      EXPECT_EQ(w.time >> SettleQueue::kSliceBits, slice);
      EXPECT_EQ(w.generation, 7U);
      got.push_back(w.record);
    }
    std::vector<uint32_t> expected = want.begin()->second;
    std::sort(got.begin(), got.end());
    std::sort(expected.begin(), expected.end());
    ASSERT_EQ(got, expected) << "slice " << slice;
    want.erase(want.begin());
    popped += got.size();
    ++pops;
    last = slice;
  }
  EXPECT_TRUE(want.empty());
  EXPECT_EQ(popped, record);
}

TEST(SettleQueueTest, PoppingAppendsSoSeveralSlicesGatherInOneBuffer) {
  SettleQueue queue;
  constexpr model::Nanoseconds kSlice = model::Nanoseconds{1} << SettleQueue::kSliceBits;
  queue.push({5 * kSlice + 1, 50, 1});
  queue.push({3 * kSlice + 2, 30, 1});
  queue.push({3 * kSlice + 9, 31, 1});
  std::vector<SettleQueue::Waiting> gathered{{0, 99, 0}};  // what the buffer held stays
  queue.pop_first_slice(gathered);
  ASSERT_EQ(queue.first_slice(), 5);
  queue.pop_first_slice(gathered);
  EXPECT_TRUE(queue.empty());
  std::vector<uint32_t> records;
  for (const SettleQueue::Waiting& w : gathered) records.push_back(w.record);
  ASSERT_EQ(records.size(), 4U);
  EXPECT_EQ(records[0], 99U);
  std::sort(records.begin() + 1, records.begin() + 3);
  EXPECT_EQ(records, (std::vector<uint32_t>{99, 30, 31, 50}));
}

}  // namespace
}  // namespace tracesync::match
