// SPDX-License-Identifier: EPL-2.0
// Application messages in the matcher: keys are exact (never a hash alone),
// kinds are kept apart from each other and from TCP, statistics per kind.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "match/concurrent_matcher.h"
#include "match/packet_key.h"
#include "match/packet_matcher.h"
#include "tcp_events.h"

namespace tracesync::match {
namespace {

PacketEvent app(MessageKind kind, TraceIndex trace, model::Nanoseconds time, Direction direction, uint64_t id) {
  PacketEvent e;
  e.trace = trace;
  e.time = time;
  e.direction = direction;
  e.kind = kind;
  AppKeyBuilder(e.app).add_integer(id);
  return e;
}

PacketEvent app_string(MessageKind kind, TraceIndex trace, model::Nanoseconds time, Direction direction,
                       const std::string& id) {
  PacketEvent e;
  e.trace = trace;
  e.time = time;
  e.direction = direction;
  e.kind = kind;
  if (!AppKeyBuilder(e.app).add_string(id)) e.layout = Layout::kKeyTooLong;
  return e;
}

struct Harness {
  std::vector<MatchedMessage> emitted;
  PacketMatcher matcher;
  explicit Harness(std::size_t traces)
      : matcher(MatchOptions{}, traces, [this](const MatchedMessage& m) { emitted.push_back(m); }) {
    for (TraceIndex t = 0; t < traces; ++t) matcher.set_domain(t, "D" + std::to_string(t));
  }
};

TEST(AppKey, IntegersAndStringsAreExactAndUnambiguous) {
  AppKey a, b, c;
  ASSERT_TRUE(AppKeyBuilder(a).add_string("ab"));
  ASSERT_TRUE(AppKeyBuilder(b).add_string("a"));
  {
    AppKeyBuilder builder(c);
    ASSERT_TRUE(builder.add_string("a"));
    ASSERT_TRUE(builder.add_string("b"));
  }
  EXPECT_NE(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(a.size, 1);
  EXPECT_EQ(c.size, 2);
  AppKey longest, too_long;
  EXPECT_TRUE(AppKeyBuilder(longest).add_string(std::string(AppKey::kBytes - 1, 'x')));
  EXPECT_EQ(longest.size, AppKey::kWords);
  EXPECT_FALSE(AppKeyBuilder(too_long).add_string(std::string(AppKey::kBytes, 'x')));
  AppKey five;
  AppKeyBuilder builder(five);
  for (std::size_t i = 0; i < AppKey::kWords; ++i) EXPECT_TRUE(builder.add_integer(i));
  EXPECT_FALSE(builder.add_integer(99));
}

TEST(AppMessages, PairByKindAndKeyAndNeverAcrossKinds) {
  Harness h(2);
  // Kind 1 id 5 and kind 2 id 5 share the key value but not the kind; a TCP
  // segment whose fields would hash alike is a third kind.
  h.matcher.add(app(1, 0, 100, Direction::kSend, 5));
  h.matcher.add(app(2, 1, 120, Direction::kSend, 5));
  h.matcher.add(app(1, 1, 150, Direction::kReceive, 5));
  h.matcher.add(app(2, 0, 170, Direction::kReceive, 5));
  h.matcher.add(testing::send(0, 200, 5));
  h.matcher.add(app(1, 1, 210, Direction::kReceive, 6));  // no send of id 6
  h.matcher.finish();
  ASSERT_EQ(h.emitted.size(), 2u);
  std::sort(h.emitted.begin(), h.emitted.end());
  EXPECT_EQ(h.emitted[0], (MatchedMessage{0, 100, 1, 150}));
  EXPECT_EQ(h.emitted[1], (MatchedMessage{1, 120, 0, 170}));
  const std::vector<MatchStatistics>& kinds = h.matcher.kind_statistics();
  ASSERT_EQ(kinds.size(), 3u);
  EXPECT_EQ(kinds[0].sends, 1u);
  EXPECT_EQ(kinds[0].unmatched_sends, 1u);
  EXPECT_EQ(kinds[0].matches, 0u);
  EXPECT_EQ(kinds[1].matches, 1u);
  EXPECT_EQ(kinds[1].receives, 2u);
  EXPECT_EQ(kinds[1].unmatched_receives, 1u);
  EXPECT_EQ(kinds[2].matches, 1u);
  EXPECT_EQ(h.matcher.total().matches, 2u);
  const auto per_link = h.matcher.link_kind_statistics();
  ASSERT_EQ(per_link.size(), 2u);
  EXPECT_EQ(per_link.at({{"D0", "D1"}, 1}).matches, 1u);
  EXPECT_EQ(per_link.at({{"D0", "D1"}, 2}).matches, 1u);
  EXPECT_EQ(h.matcher.link_statistics().at({"D0", "D1"}).matches, 2u);
}

TEST(AppMessages, StringKeysMatchByTheirBytesAndOverlongOnesAreCounted) {
  Harness h(2);
  const std::string id(39, 'q');
  std::string other = id;
  other.back() = 'r';
  h.matcher.add(app_string(1, 0, 100, Direction::kSend, id));
  h.matcher.add(app_string(1, 1, 130, Direction::kReceive, other));
  h.matcher.add(app_string(1, 1, 150, Direction::kReceive, id));
  h.matcher.add(app_string(1, 0, 160, Direction::kSend, std::string(40, 'q')));
  h.matcher.finish();
  ASSERT_EQ(h.emitted.size(), 1u);
  EXPECT_EQ(h.emitted[0], (MatchedMessage{0, 100, 1, 150}));
  EXPECT_EQ(h.matcher.kind_statistics().at(1).key_too_long, 1u);
  EXPECT_EQ(h.matcher.kind_statistics().at(1).unmatched_receives, 1u);
  EXPECT_EQ(h.matcher.total().key_too_long, 1u);
}

TEST(AppMessages, KeysThatCollideInTheHashStillMatchExactly) {
  // Many keys over a small index: collisions of the 32-bit slot hash are
  // resolved by comparing keys, and every message is its own pair.
  Harness h(2);
  constexpr uint64_t kMessages = 20'000;
  for (uint64_t id = 0; id < kMessages; ++id) {
    h.matcher.add(app(1, 0, static_cast<model::Nanoseconds>(1000 + 10 * id), Direction::kSend, id));
    h.matcher.add(app(1, 1, static_cast<model::Nanoseconds>(1005 + 10 * id), Direction::kReceive, id));
  }
  h.matcher.finish();
  ASSERT_EQ(h.emitted.size(), kMessages);
  for (const MatchedMessage& m : h.emitted) EXPECT_EQ(m.receive - m.send, 5);
}

TEST(AppMessages, ShardsGiveTheSameResultAsOneMatcher) {
  std::vector<PacketEvent> events;
  for (uint64_t id = 0; id < 500; ++id) {
    const MessageKind kind = static_cast<MessageKind>(1 + id % 3);
    events.push_back(app(kind, static_cast<TraceIndex>(id % 2), static_cast<model::Nanoseconds>(10 * id),
                         Direction::kSend, id / 3));
  }
  for (uint64_t id = 0; id < 500; ++id) {
    const MessageKind kind = static_cast<MessageKind>(1 + id % 3);
    events.push_back(app(kind, static_cast<TraceIndex>(1 - id % 2), static_cast<model::Nanoseconds>(10 * id + 3),
                         Direction::kReceive, id / 3));
  }
  auto run = [&](std::size_t shards) {
    std::vector<MatchedMessage> out;
    ConcurrentMatcher matcher(MatchOptions{}, 2, shards, [&](const MatchedMessage& m) { out.push_back(m); });
    matcher.set_domain(0, "A");
    matcher.set_domain(1, "B");
    std::vector<PacketEvent> of[2];
    for (const PacketEvent& e : events) of[e.trace].push_back(e);
    for (TraceIndex t = 0; t < 2; ++t) {
      std::sort(of[t].begin(), of[t].end(), [](const PacketEvent& a, const PacketEvent& b) { return a.time < b.time; });
      matcher.add(t, of[t], INT64_MIN);
    }
    matcher.finish();
    return std::make_pair(out, matcher.kind_statistics());
  };
  const auto [one, one_kinds] = run(1);
  const auto [four, four_kinds] = run(4);
  EXPECT_EQ(one.size(), 500u);
  EXPECT_EQ(one, four);
  EXPECT_EQ(one_kinds, four_kinds);
}

}  // namespace
}  // namespace tracesync::match
