// SPDX-License-Identifier: EPL-2.0
#include "base/scratch_pool.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

namespace tracesync::base {
namespace {

TEST(ScratchPool, ObjectsInUseAtOnceAreDistinctAndAReturnedOneIsLentAgainWithItsCapacity) {
  ScratchPool<std::vector<int>> pool;
  const std::vector<int>* first_address = nullptr;
  {
    const auto first = pool.borrow();
    const auto second = pool.borrow();
    EXPECT_NE(&*first, &*second);
    first->assign(1000, 7);
    first_address = &*first;
  }
  // `first`, given back last (after `second`), is lent first, with what it held.
  const auto first_again = pool.borrow();
  const auto second_again = pool.borrow();
  EXPECT_EQ(&*first_again, first_address);
  EXPECT_EQ(first_again->size(), 1000u);
  EXPECT_GE(first_again->capacity(), 1000u);
  EXPECT_NE(&*second_again, &*first_again);
}

// Threads borrowing at once never share an object, and the pool makes no
// more objects than were in use at once.
TEST(ScratchPool, ThreadsNeverShareAnObject) {
  ScratchPool<std::vector<int>> pool;
  constexpr int kThreads = 4;
  constexpr int kRounds = 2000;
  std::vector<std::set<const void*>> seen(kThreads);
  std::vector<int> shared_seen(kThreads, 0);
  {
    std::vector<std::jthread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (int round = 0; round < kRounds; ++round) {
          const auto lent = pool.borrow();
          // Whoever held it last left one element: an object in use by two
          // threads at once would show the other's mark.
          if (!lent->empty() && lent->back() != -1) ++shared_seen[t];
          lent->assign(1, t);
          std::this_thread::yield();
          if (lent->back() != t) ++shared_seen[t];
          lent->back() = -1;
          seen[t].insert(&*lent);
        }
      });
    }
  }
  std::set<const void*> all;
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(shared_seen[t], 0) << "thread " << t;
    all.insert(seen[t].begin(), seen[t].end());
  }
  EXPECT_GE(all.size(), 1u);
  EXPECT_LE(all.size(), static_cast<std::size_t>(kThreads));
}

}  // namespace
}  // namespace tracesync::base
