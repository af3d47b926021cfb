// SPDX-License-Identifier: EPL-2.0
// Out of memory inside the matcher: every allocation of a run is made to
// fail in turn, and the matcher must stay consistent (finish() works, every
// event is accounted for once, no message is emitted twice). This binary
// replaces the global operator new to inject the failures
// (support/failing_operator_new.h).

#include <gtest/gtest.h>

#include <atomic>
#include <new>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "match/packet_matcher.h"
#include "support/failing_operator_new.h"
#include "support/sanitized.h"

namespace {

// Allocations left before one fails; negative: none fails.
std::atomic<long> allocations_left{-1};
std::atomic<long> allocations_made{0};

bool matcher_veto() {
  ++allocations_made;
  return allocations_left.load() >= 0 && allocations_left.fetch_sub(1) == 0;
}
const bool veto_installed = (tracesync::testing::set_allocation_veto(&matcher_veto), true);

}  // namespace

namespace tracesync::match {
namespace {

// Two hosts exchanging messages, with retransmissions, lone ends and keys
// that recur far apart; enough keys for the index and the pool to grow.
std::vector<PacketEvent> workload(bool strict) {
  std::mt19937_64 rng(20);
  std::vector<PacketEvent> events;
  for (uint32_t i = 0; i < 60'000; ++i) {
    PacketEvent e;
    e.tcp = {i % 50'000, 7, 0x10};  // keys recur 50,000 messages later
    if (strict) {
      e.endpoints.family = 4;
      e.endpoints.source_port = static_cast<uint16_t>(i % 3);
    }
    const auto from = static_cast<TraceIndex>(rng() % 2);
    e.time = 1'000 * static_cast<model::Nanoseconds>(i);
    e.trace = from;
    e.direction = Direction::kSend;
    if (rng() % 10 != 0) events.push_back(e);
    if (rng() % 20 == 0) events.push_back(e);  // a retransmission
    e.trace = 1 - from;
    e.direction = Direction::kReceive;
    e.time += 500;
    if (rng() % 10 != 0) events.push_back(e);
  }
  return events;
}

struct Run {
  bool failed = false;
  MatchStatistics total;
  std::vector<MatchStatistics> per_trace;
  std::vector<MatchedMessage> emitted;
};

// Feeds the events in batches, advancing both traces after each, with one
// allocation made to fail after `fail_after` (negative: none).
Run run(const std::vector<PacketEvent>& events, MatchOptions options, long fail_after) {
  Run out;
  out.emitted.reserve(events.size());  // the test's own callback must not allocate
  PacketMatcher matcher(options, 2, [&](const MatchedMessage& m) { out.emitted.push_back(m); });
  matcher.set_domain(0, "A");
  matcher.set_domain(1, "B");
  allocations_left = fail_after;
  try {
    constexpr std::size_t kBatch = 4096;
    for (std::size_t at = 0; at < events.size(); at += kBatch) {
      const std::size_t n = std::min(kBatch, events.size() - at);
      matcher.add(std::span<const PacketEvent>(events).subspan(at, n));
      const model::Nanoseconds progress = at + n < events.size() ? events[at + n].time - 1'000 : INT64_MAX - 1;
      matcher.advance(0, progress);
      matcher.advance(1, progress);
    }
  } catch (const std::bad_alloc&) {
    out.failed = true;
  }
  allocations_left = -1;
  matcher.finish();
  out.total = matcher.total();
  out.per_trace = {matcher.trace_statistics(0), matcher.trace_statistics(1)};
  return out;
}

void expect_consistent(const Run& r, const std::string& where) {
  // Every event counted is in exactly one bucket.
  const MatchStatistics& s = r.total;
  EXPECT_EQ(s.sends + s.receives, 2 * (s.matches + s.same_domain) + s.retransmissions + s.duplicates +
                                      s.unmatched_sends + s.unmatched_receives + s.expired)
      << where;
  EXPECT_EQ(s.sends, r.per_trace[0].sends + r.per_trace[1].sends) << where;
  EXPECT_EQ(s.expired, r.per_trace[0].expired + r.per_trace[1].expired) << where;
  EXPECT_EQ(s.unmatched_sends, r.per_trace[0].unmatched_sends + r.per_trace[1].unmatched_sends) << where;
  EXPECT_EQ(r.total.matches, r.emitted.size()) << where;
  const std::set<MatchedMessage> distinct(r.emitted.begin(), r.emitted.end());
  EXPECT_EQ(distinct.size(), r.emitted.size()) << where << ": a message emitted twice";
}

void fail_each_allocation(MatchOptions options, bool strict) {
  const std::vector<PacketEvent> events = workload(strict);
  allocations_made = 0;
  const Run whole = run(events, options, -1);
  const long allocations = allocations_made.load();
  ASSERT_FALSE(whole.failed);
  expect_consistent(whole, "without failure");
  ASSERT_GT(whole.total.matches, 40'000u);
  ASSERT_GT(allocations, 20);  // the index, the pool, the queues grow many times
  long failures = 0;
  for (long fail_after = 0; fail_after < allocations; ++fail_after) {
    const Run broken = run(events, options, fail_after);
    failures += broken.failed ? 1 : 0;
    expect_consistent(broken, "allocation " + std::to_string(fail_after) + " failed");
    // What was matched before the failure is a part of the whole result.
    EXPECT_LE(broken.total.matches, whole.total.matches);
  }
  EXPECT_GT(failures, allocations / 2) << "the failures were injected inside the matcher";
}

TEST(MatcherOutOfMemory, AFailedAllocationLeavesTheMatcherConsistent) {
  TRACESYNC_SKIP_UNDER_SANITIZERS("it replaces the global operator new, which AddressSanitizer owns (alloc-dealloc mismatch)");
  fail_each_allocation({.horizon = MatchOptions::kUnbounded}, false);
}

TEST(MatcherOutOfMemory, WithAHorizonAndTheStrictKeyToo) {
  TRACESYNC_SKIP_UNDER_SANITIZERS("it replaces the global operator new, which AddressSanitizer owns (alloc-dealloc mismatch)");
  fail_each_allocation({.key = KeyKind::kStrict, .horizon = 20'000'000}, true);
}

}  // namespace
}  // namespace tracesync::match
