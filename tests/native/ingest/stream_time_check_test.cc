// SPDX-License-Identifier: EPL-2.0
// StreamTimeCheck: which packets' times are damaged, on streams given as
// lists of packets (begin, end, events).
#include "ingest/stream_time_check.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tracesync::ingest {
namespace {

struct Packet {
  uint64_t begin;
  uint64_t end;
  std::vector<uint64_t> events;
};

// Per packet, in stream order: whether its events are used.
std::vector<bool> used(const std::vector<Packet>& packets, uint64_t tolerance = 0) {
  StreamTimeCheck check(tolerance);
  std::vector<bool> out(packets.size(), false);
  std::vector<std::size_t> waiting;  // the packets whose verdict is due
  const auto apply = [&](PacketVerdict verdict) {
    if (verdict == PacketVerdict::kNone) return;
    ASSERT_EQ(waiting.size(), 1u) << "a verdict with no packet waiting for it";
    out[waiting.front()] = verdict == PacketVerdict::kUse;
    waiting.clear();
  };
  for (std::size_t i = 0; i < packets.size(); ++i) {
    apply(check.begin_packet(packets[i].begin));
    EXPECT_TRUE(waiting.empty()) << "packet " << i - 1 << " still waits when packet " << i << " begins";
    waiting.push_back(i);
    for (const uint64_t t : packets[i].events) check.event(t);
    apply(check.end_packet(packets[i].end));
  }
  apply(check.end_stream());
  EXPECT_TRUE(waiting.empty()) << "the last packet got no verdict";
  return out;
}

const auto kNs = [](uint64_t cycles) { return static_cast<int64_t>(cycles); };

TEST(StreamTimeCheck, AStreamWhoseTimeNeverGoesBackIsUsedWhole) {
  EXPECT_EQ(used({{100, 200, {100, 150, 150, 200}}, {200, 300, {}}, {300, 400, {301, 399}}}),
            (std::vector<bool>{true, true, true}));
}

TEST(StreamTimeCheck, AnEventOutsideItsPacketLosesThatPacketOnly) {
  EXPECT_EQ(used({{100, 200, {150}}, {200, 300, {199, 250}}, {300, 400, {350}}}),
            (std::vector<bool>{true, false, true}));
  EXPECT_EQ(used({{100, 200, {150}}, {200, 300, {250, 301}}, {300, 400, {350}}}),
            (std::vector<bool>{true, false, true}));
}

TEST(StreamTimeCheck, AnEventEarlierThanTheOneBeforeItIsDamage) {
  StreamTimeCheck check;
  check.begin_packet(100);
  check.event(150);
  check.event(149);
  check.event(160);
  ASSERT_EQ(check.end_packet(200), PacketVerdict::kDrop);
  EXPECT_EQ(check.what_was_wrong(kNs), "packet 0 (from 0): an event at 149 ns is earlier than the event before it");
}

TEST(StreamTimeCheck, APacketThatEndsBeforeItBeginsIsDamaged) {
  EXPECT_EQ(used({{100, 200, {150}}, {300, 250, {}}, {400, 500, {450}}}), (std::vector<bool>{true, false, true}));
}

TEST(StreamTimeCheck, PacketsMayStepBackWithinTheToleranceAsLttngTwoOneDoes) {
  // LTTng 2.1 begins a packet up to 1.7 us before the previous one's end.
  const std::vector<Packet> stream = {{1'000, 10'000, {1'000, 8'000}}, {7'000, 20'000, {9'000}}};
  EXPECT_EQ(used(stream, 1'000), (std::vector<bool>{true, true}));
  EXPECT_EQ(used(stream, 999), (std::vector<bool>{false, false})) << "nothing before them tells which is wrong";
}

TEST(StreamTimeCheck, EventsThatJumpAheadLoseTheirPacketNotTheNext) {
  // babeltrace2 gives old LTTng packets their last event as their end, so a
  // jump ahead inside packet 1 shows only when packet 2 begins inside it.
  EXPECT_EQ(used({{100, 200, {150}}, {200, 5'000, {250, 5'000}}, {300, 400, {350}}, {400, 500, {450}}}),
            (std::vector<bool>{true, false, true, true}));
}

TEST(StreamTimeCheck, APacketThatBeginsTooEarlyLosesItselfNotThePacketBefore) {
  // Packet 2's timestamp_begin (and its events with it) went back before
  // packets 0 and 1.
  EXPECT_EQ(used({{100, 200, {150}}, {200, 300, {250}}, {50, 90, {60}}, {300, 400, {350}}}),
            (std::vector<bool>{true, true, false, true}));
}

TEST(StreamTimeCheck, APacketWhoseBeginningJumpedAheadLosesItselfOnly) {
  // Packet 1 begins (and its events follow) 9 s ahead; packet 2 follows packet 0.
  EXPECT_EQ(used({{100, 200, {150}}, {9'000'200, 9'000'300, {9'000'250}}, {300, 400, {350}}}),
            (std::vector<bool>{true, false, true}));
}

TEST(StreamTimeCheck, TheDescriptionSaysWhatIsWrongInNanoseconds) {
  StreamTimeCheck check;
  check.begin_packet(10);
  check.event(30);
  ASSERT_EQ(check.end_packet(20), PacketVerdict::kDrop);
  EXPECT_EQ(check.what_was_wrong([](uint64_t cycles) { return static_cast<int64_t>(cycles) * 2; }),
            "packet 0 (from 0): an event at 60 ns is after its packet's end (40 ns)");
}

}  // namespace
}  // namespace tracesync::ingest
