// SPDX-License-Identifier: EPL-2.0
// The order messages leave the matchers in (emitted_before) is the same
// whatever order the traces' events arrive in and however many shards
// share the keys: link estimates that depend on the order of their
// messages come out the same on every run.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

#include "match/concurrent_matcher.h"
#include "match/packet_matcher.h"
#include "tcp_events.h"

namespace tracesync::match {
namespace {

using testing::receive;
using testing::send;
using testing::tcp;

constexpr model::Nanoseconds kMs = 1'000'000;  // about a settle slice

// Three traces in three domains. Several pairs become final at the same
// instant (equal later ends, within a trace and across traces), and one key
// is sent from two traces: its earlier send, on trace 2, decides its pair
// and makes it settle before the message of key 5.
std::vector<PacketEvent> experiment() {
  return {
      send(0, 1 * kMs, 1),  receive(1, 5 * kMs, 1),      // settles at 5 ms ...
      send(2, 2 * kMs, 2),  receive(1, 5 * kMs, 2),      // ... as this one, in the same trace,
      send(0, 3 * kMs, 3),  receive(2, 5 * kMs, 3),      // ... and this one, in another
      send(0, 8 * kMs, 4),  receive(1, 6 * kMs, 4),      // key 4 from trace 0, late ...
      send(2, 1 * kMs, 4),                                // ... and earlier from trace 2: settles at 6 ms
      send(0, 6 * kMs + 500, 5), receive(2, 7 * kMs, 5),  // settles at 7 ms
      send(1, 9 * kMs, 6),  receive(0, 9 * kMs + 1, 6),
  };
}

std::vector<PacketEvent> of_trace(const std::vector<PacketEvent>& events, TraceIndex trace) {
  std::vector<PacketEvent> mine;
  for (const PacketEvent& e : events) {
    if (e.trace == trace) mine.push_back(e);
  }
  std::sort(mine.begin(), mine.end(), [](const PacketEvent& a, const PacketEvent& b) { return a.time < b.time; });
  return mine;
}

// Reads the traces one after the other in `order`, one event at a time,
// each keeping its promise, into `add(trace, event, promise)`.
template <typename Add, typename Close>
void read_in_order(const std::array<TraceIndex, 3>& order, Add add, Close close) {
  const std::vector<PacketEvent> events = experiment();
  for (TraceIndex trace : order) {
    const std::vector<PacketEvent> mine = of_trace(events, trace);
    for (std::size_t i = 0; i < mine.size(); ++i) add(trace, mine[i], mine[i].time);
    close(trace);
  }
}

std::vector<MatchedMessage> expected() {
  // Key 4's pair is its trace-2 send with its receive; every message in
  // emitted_before order.
  return {{0, 1 * kMs, 1, 5 * kMs},         {0, 3 * kMs, 2, 5 * kMs}, {2, 2 * kMs, 1, 5 * kMs},
          {2, 1 * kMs, 1, 6 * kMs},         {0, 6 * kMs + 500, 2, 7 * kMs},
          {1, 9 * kMs, 0, 9 * kMs + 1}};
}

TEST(EmissionOrder, OneMatcherEmitsInTheSameOrderWhateverTheTraceOrder) {
  std::array<TraceIndex, 3> order{0, 1, 2};
  do {
    std::vector<MatchedMessage> emitted;
    PacketMatcher matcher({}, 3, [&](const MatchedMessage& m) { emitted.push_back(m); });
    for (TraceIndex t = 0; t < 3; ++t) matcher.set_domain(t, std::string(1, static_cast<char>('A' + t)));
    read_in_order(
        order,
        [&](TraceIndex trace, const PacketEvent& e, model::Nanoseconds promise) {
          matcher.add(e);
          matcher.advance(trace, promise);
        },
        [&](TraceIndex trace) { matcher.close(trace); });
    matcher.finish();
    EXPECT_EQ(emitted, expected()) << "traces read in the order " << order[0] << order[1] << order[2];
    EXPECT_EQ(matcher.total().retransmissions, 1u);
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST(EmissionOrder, MessagesLeaveWhileReadingInOrderToo) {
  // Reading the traces side by side, slice after slice, messages leave
  // before the end, each once its slice has passed, still in order.
  std::vector<MatchedMessage> emitted;
  PacketMatcher matcher({}, 3, [&](const MatchedMessage& m) { emitted.push_back(m); });
  for (TraceIndex t = 0; t < 3; ++t) matcher.set_domain(t, std::string(1, static_cast<char>('A' + t)));
  const std::vector<PacketEvent> events = experiment();
  std::size_t before_the_end = 0;
  for (model::Nanoseconds until = 2 * kMs; until <= 12 * kMs; until += 2 * kMs) {
    for (TraceIndex trace : {2u, 1u, 0u}) {
      for (const PacketEvent& e : of_trace(events, trace)) {
        if (e.time >= until - 2 * kMs && e.time < until) matcher.add(e);
      }
      matcher.advance(trace, until);
    }
    if (until == 10 * kMs) before_the_end = emitted.size();
  }
  matcher.finish();
  EXPECT_EQ(emitted, expected());
  EXPECT_GE(before_the_end, 5u);
}

TEST(EmissionOrder, ShardsTogetherEmitInTheOrderOfOneMatcher) {
  for (std::size_t shards : {2u, 3u, 5u}) {
    std::array<TraceIndex, 3> order{0, 1, 2};
    do {
      std::vector<MatchedMessage> emitted;
      ConcurrentMatcher matcher({}, 3, shards, [&](const MatchedMessage& m) { emitted.push_back(m); });
      for (TraceIndex t = 0; t < 3; ++t) matcher.set_domain(t, std::string(1, static_cast<char>('A' + t)));
      read_in_order(
          order,
          [&](TraceIndex trace, const PacketEvent& e, model::Nanoseconds promise) {
            matcher.add(trace, std::span<const PacketEvent>(&e, 1), promise);
          },
          [&](TraceIndex trace) { matcher.close(trace); });
      matcher.finish();
      EXPECT_EQ(emitted, expected()) << shards << " shards, traces read in the order " << order[0] << order[1]
                                     << order[2];
    } while (std::next_permutation(order.begin(), order.end()));
  }
}

}  // namespace
}  // namespace tracesync::match
