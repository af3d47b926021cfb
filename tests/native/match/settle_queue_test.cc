// SPDX-License-Identifier: EPL-2.0
// The settle queue gives back every record once, in time order, as soon as
// the limit has passed it and not before, whatever the order of the pushes
// and however far apart the times (negative ones, clocks days apart),
// across sealed, merged and partly emptied runs.

#include "match/settle_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <utility>
#include <vector>

namespace tracesync::match {
namespace {

using Pending = std::multimap<model::Nanoseconds, uint32_t>;  // time -> record

// Pops what is earlier than `limit` and checks it against `pending`, which
// loses those records.
void expect_pop(SettleQueue& queue, model::Nanoseconds limit, Pending& pending) {
  std::vector<SettleQueue::Waiting> popped;
  queue.pop_earlier_than(limit, popped);
  // In time order, equal times by record number.
  std::vector<std::pair<model::Nanoseconds, uint32_t>> got;
  for (const SettleQueue::Waiting& w : popped) {
    EXPECT_EQ(w.generation, w.record * 3);
    got.emplace_back(w.time, w.record);
  }
  std::vector<std::pair<model::Nanoseconds, uint32_t>> want;
  for (auto it = pending.begin(); it != pending.end() && it->first < limit;) {
    want.emplace_back(*it);
    it = pending.erase(it);
  }
  std::sort(want.begin(), want.end());
  ASSERT_EQ(got, want) << "limit " << limit;
}

TEST(SettleQueueTest, GivesBackEveryRecordOnceWhenTheLimitHasPassedIt) {
  for (const uint64_t seed : {1, 2, 3, 4, 5}) {
    std::mt19937_64 rng(seed);
    SettleQueue queue;
    Pending pending;
    const model::Nanoseconds bases[] = {-3'000'000'000, 0, 4'000'000'000, 86'400'000'000'000 * 3};
    uint32_t record = 0;
    model::Nanoseconds limit = INT64_MIN;
    const auto push = [&](model::Nanoseconds time) {
      queue.push({time, record, record * 3});
      pending.emplace(time, record);
      ++record;
    };
    for (int round = 0; round < 400; ++round) {
      // Records pushed are never earlier than the limit (progress only moves on).
      const int pushes = static_cast<int>(rng() % 200);
      for (int i = 0; i < pushes; ++i) {
        const model::Nanoseconds time =
            bases[rng() % 4] + static_cast<model::Nanoseconds>(rng() % 20'000'000'000) - 10'000'000'000;
        push(std::max(time, limit));
      }
      // The limit moves on by little (often nothing is due) or by a lot.
      const model::Nanoseconds step = rng() % 3 == 0 ? static_cast<model::Nanoseconds>(rng() % 100'000'000'000'000)
                                                     : static_cast<model::Nanoseconds>(rng() % 50'000'000);
      if (limit == INT64_MIN) {
        limit = -20'000'000'000;
      } else {
        limit = std::min(limit + step, INT64_MAX / 2);
      }
      if (rng() % 2 == 0) push(limit);  // at the limit: not due yet
      expect_pop(queue, limit, pending);
      if (testing::Test::HasFatalFailure()) return;
      EXPECT_EQ(queue.empty(), pending.empty());
    }
    std::vector<SettleQueue::Waiting> rest;
    queue.pop_all(rest);
    EXPECT_EQ(rest.size(), pending.size()) << "seed " << seed;
    EXPECT_TRUE(queue.empty());
  }
}

TEST(SettleQueueTest, PoppingAppendsSoSeveralPopsGatherInOneBuffer) {
  SettleQueue queue;
  queue.push({50, 5, 1});
  queue.push({30, 3, 1});
  queue.push({31, 4, 1});
  std::vector<SettleQueue::Waiting> gathered{{0, 99, 0}};  // what the buffer held stays
  queue.pop_earlier_than(31, gathered);
  queue.pop_earlier_than(30, gathered);  // nothing new is due
  queue.pop_earlier_than(51, gathered);
  EXPECT_TRUE(queue.empty());
  std::vector<uint32_t> records;
  for (const SettleQueue::Waiting& w : gathered) records.push_back(w.record);
  EXPECT_EQ(records, (std::vector<uint32_t>{99, 3, 4, 5}));
}

TEST(SettleQueueTest, PopAllTakesEvenTheExtremeTimes) {
  SettleQueue queue;
  queue.push({INT64_MAX, 1, 0});
  queue.push({INT64_MIN, 2, 0});
  std::vector<SettleQueue::Waiting> out;
  queue.pop_earlier_than(INT64_MIN, out);
  EXPECT_TRUE(out.empty());
  queue.pop_earlier_than(INT64_MAX, out);
  ASSERT_EQ(out.size(), 1U);
  EXPECT_EQ(out[0].record, 2U);
  queue.pop_all(out);
  ASSERT_EQ(out.size(), 2U);
  EXPECT_EQ(out[1].record, 1U);
  EXPECT_TRUE(queue.empty());
}

}  // namespace
}  // namespace tracesync::match
