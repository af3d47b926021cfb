// SPDX-License-Identifier: EPL-2.0
// Hand-made cases of the matching rules: keys, first of a key, repeats,
// same-domain messages, when messages are emitted, the horizon.

#include <gtest/gtest.h>

#include <vector>

#include "match/packet_matcher.h"
#include "tcp_events.h"

namespace tracesync::match {
namespace {

using testing::receive;
using testing::send;
using testing::tcp;

Endpoints ipv4(uint8_t src_last, uint8_t dst_last, uint16_t sport, uint16_t dport) {
  Endpoints e;
  e.family = 4;
  e.saddr = {10, 0, 0, src_last};
  e.daddr = {10, 0, 0, dst_last};
  e.source_port = sport;
  e.dest_port = dport;
  return e;
}

// A matcher over `traces` traces, trace i in domain domains[i], that
// records what it emits.
struct Harness {
  std::vector<MatchedMessage> emitted;
  PacketMatcher matcher;

  explicit Harness(const std::vector<std::string>& domains, MatchOptions options = {})
      : matcher(options, domains.size(), [this](const MatchedMessage& m) { emitted.push_back(m); }) {
    for (TraceIndex t = 0; t < domains.size(); ++t) matcher.set_domain(t, domains[t]);
  }
};

TEST(PacketMatcher, PairsASendWithItsReceiveInBothDirections) {
  Harness h({"A", "B"});
  h.matcher.add(send(0, 100, 1));
  h.matcher.add(receive(1, 150, 1));
  h.matcher.add(send(1, 200, 2));
  h.matcher.add(receive(0, 260, 2));
  h.matcher.finish();
  ASSERT_EQ(h.emitted.size(), 2u);
  std::sort(h.emitted.begin(), h.emitted.end());
  EXPECT_EQ(h.emitted[0], (MatchedMessage{0, 100, 1, 150}));
  EXPECT_EQ(h.emitted[1], (MatchedMessage{1, 200, 0, 260}));
  const MatchStatistics& s = h.matcher.total();
  EXPECT_EQ(s.sends, 2u);
  EXPECT_EQ(s.receives, 2u);
  EXPECT_EQ(s.matches, 2u);
  EXPECT_EQ(s.unmatched_sends + s.unmatched_receives + s.retransmissions + s.duplicates, 0u);
  EXPECT_EQ(h.matcher.trace_statistics(0).matches, 2u);
  EXPECT_EQ(h.matcher.trace_statistics(1).matches, 2u);
  ASSERT_EQ(h.matcher.link_statistics().size(), 1u);
  EXPECT_EQ(h.matcher.link_statistics().at({"A", "B"}).matches, 2u);
}

TEST(PacketMatcher, TheKeyIsSeqAckAndFlags) {
  Harness h({"A", "B"});
  h.matcher.add(tcp(0, 100, Direction::kSend, 1, 7, 0x10));
  h.matcher.add(tcp(1, 150, Direction::kReceive, 1, 8, 0x10));  // other ack
  h.matcher.add(tcp(1, 151, Direction::kReceive, 1, 7, 0x18));  // other flags
  h.matcher.add(tcp(1, 152, Direction::kReceive, 2, 7, 0x10));  // other seq
  h.matcher.finish();
  EXPECT_TRUE(h.emitted.empty());
  EXPECT_EQ(h.matcher.total().unmatched_sends, 1u);
  EXPECT_EQ(h.matcher.total().unmatched_receives, 3u);
}

TEST(PacketMatcher, KeepsTheEarliestSendEvenWhenItArrivesLast) {
  Harness h({"A", "B"});
  h.matcher.add(send(0, 300, 1));     // a retransmission, read first
  h.matcher.add(receive(1, 350, 1));
  h.matcher.add(send(0, 100, 1));     // the original, from another stream of trace 0
  h.matcher.add(receive(1, 150, 1));  // the original receive
  h.matcher.add(receive(1, 151, 1));  // a duplicate
  h.matcher.finish();
  ASSERT_EQ(h.emitted.size(), 1u);
  EXPECT_EQ(h.emitted[0], (MatchedMessage{0, 100, 1, 150}));
  EXPECT_EQ(h.matcher.total().retransmissions, 1u);
  EXPECT_EQ(h.matcher.total().duplicates, 2u);
  const MatchStatistics link = h.matcher.link_statistics().at({"A", "B"});
  EXPECT_EQ(link.sends, 2u);
  EXPECT_EQ(link.receives, 3u);
  EXPECT_EQ(link.retransmissions, 1u);
  EXPECT_EQ(link.duplicates, 2u);
}

TEST(PacketMatcher, TiesInTimeGoToTheSmallerTrace) {
  Harness h({"A", "B", "C"});
  h.matcher.add(send(2, 100, 1));
  h.matcher.add(send(0, 100, 1));
  h.matcher.add(receive(1, 120, 1));
  h.matcher.finish();
  ASSERT_EQ(h.emitted.size(), 1u);
  EXPECT_EQ(h.emitted[0].send_trace, 0u);
  EXPECT_EQ(h.matcher.trace_statistics(2).retransmissions, 1u);
  EXPECT_EQ(h.matcher.trace_statistics(0).retransmissions, 0u);
}

TEST(PacketMatcher, IgnoresMessagesWithinOneDomain) {
  // Traces 0 and 1 are the kernel and userspace traces of one host.
  Harness h({"A", "A", "B"});
  h.matcher.add(send(0, 100, 1));
  h.matcher.add(receive(1, 110, 1));
  h.matcher.add(send(0, 200, 2));
  h.matcher.add(receive(2, 210, 2));
  h.matcher.finish();
  ASSERT_EQ(h.emitted.size(), 1u);
  EXPECT_EQ(h.emitted[0], (MatchedMessage{0, 200, 2, 210}));
  EXPECT_EQ(h.matcher.total().same_domain, 1u);
  EXPECT_EQ(h.matcher.total().matches, 1u);
  EXPECT_EQ(h.matcher.trace_statistics(1).same_domain, 1u);
  EXPECT_EQ(h.matcher.link_statistics().count({"A", "A"}), 0u);
}

TEST(PacketMatcher, TracesWithoutADomainAreEachTheirOwn) {
  std::vector<MatchedMessage> emitted;
  PacketMatcher matcher({}, 2, [&](const MatchedMessage& m) { emitted.push_back(m); });
  matcher.add(send(0, 1, 1));
  matcher.add(receive(1, 2, 1));
  matcher.finish();
  EXPECT_EQ(emitted.size(), 1u);
  EXPECT_EQ(matcher.link_statistics().count({"#trace 0", "#trace 1"}), 1u);
}

TEST(PacketMatcher, CountsEventsThatAreNotTcp) {
  Harness h({"A", "B"});
  PacketEvent udp = send(0, 1, 1);
  udp.layout = Layout::kNonTcp;
  PacketEvent odd = receive(1, 2, 1);
  odd.layout = Layout::kUnknown;
  h.matcher.add(udp);
  h.matcher.add(odd);
  h.matcher.finish();
  EXPECT_TRUE(h.emitted.empty());
  EXPECT_EQ(h.matcher.total().non_tcp, 1u);
  EXPECT_EQ(h.matcher.total().unknown_layout, 1u);
  EXPECT_EQ(h.matcher.total().sends + h.matcher.total().receives, 0u);
  EXPECT_EQ(h.matcher.trace_statistics(1).unknown_layout, 1u);
}

TEST(PacketMatcher, StrictKeyAddsAddressesAndPorts) {
  for (KeyKind kind : {KeyKind::kTc, KeyKind::kStrict}) {
    Harness h({"A", "B"}, {.key = kind});
    PacketEvent s = send(0, 100, 1);
    s.endpoints = ipv4(1, 2, 4000, 22);
    PacketEvent other_connection = receive(1, 150, 1);
    other_connection.endpoints = ipv4(1, 2, 4001, 22);
    PacketEvent r = receive(1, 160, 1);
    r.endpoints = ipv4(1, 2, 4000, 22);
    h.matcher.add(s);
    h.matcher.add(other_connection);
    h.matcher.add(r);
    h.matcher.finish();
    ASSERT_EQ(h.emitted.size(), 1u) << to_string(kind);
    // tc: the first receive of the key, whatever its ports; strict: the right connection's.
    EXPECT_EQ(h.emitted[0].receive, kind == KeyKind::kTc ? 150 : 160) << to_string(kind);
    EXPECT_EQ(h.matcher.total().tc_key_fallback, 0u);
  }
}

TEST(PacketMatcher, StrictKeyFallsBackToTcFieldsForEventsWithoutAddresses) {
  Harness h({"A", "B"}, {.key = KeyKind::kStrict});
  h.matcher.add(send(0, 100, 1));  // lttng-modules 2.1 addons: no addresses
  h.matcher.add(receive(1, 150, 1));
  PacketEvent with_addresses = receive(1, 140, 1);
  with_addresses.endpoints = ipv4(1, 2, 4000, 22);
  h.matcher.add(with_addresses);  // a different key under strict
  h.matcher.finish();
  ASSERT_EQ(h.emitted.size(), 1u);
  EXPECT_EQ(h.emitted[0], (MatchedMessage{0, 100, 1, 150}));
  EXPECT_EQ(h.matcher.total().tc_key_fallback, 2u);
  EXPECT_EQ(h.matcher.total().unmatched_receives, 1u);
}

TEST(PacketMatcher, CountsSegmentsFromOrToAProbePortAsProbeMatches) {
  // tracesync probe's rounds in kernel traces: told by the port it listened
  // on, in either direction; a segment of its connection never pairs with
  // one of another that happens to share (seq, ack_seq, flags).
  Harness h({"A", "B", "C"}, {.probe_ports = {7300}});
  PacketEvent request = send(0, 100, 1);
  request.endpoints = ipv4(1, 2, 40000, 7300);
  PacketEvent request_in = receive(1, 150, 1);
  request_in.endpoints = ipv4(1, 2, 40000, 7300);
  PacketEvent answer = send(1, 160, 2);
  answer.endpoints = ipv4(2, 1, 7300, 40000);
  PacketEvent answer_in = receive(0, 210, 2);
  answer_in.endpoints = ipv4(2, 1, 7300, 40000);
  PacketEvent other = send(0, 300, 3);
  other.endpoints = ipv4(1, 2, 40001, 22);
  PacketEvent other_in = receive(1, 350, 3);
  other_in.endpoints = ipv4(1, 2, 40001, 22);
  PacketEvent same_key_elsewhere = receive(2, 140, 1);  // the request's key, on another connection
  same_key_elsewhere.endpoints = ipv4(1, 3, 40002, 22);
  for (const PacketEvent& e : {request, request_in, answer, answer_in, other, other_in, same_key_elsewhere}) {
    h.matcher.add(e);
  }
  h.matcher.finish();
  ASSERT_EQ(h.emitted.size(), 3u);
  std::sort(h.emitted.begin(), h.emitted.end());
  EXPECT_EQ(h.emitted[0], (MatchedMessage{0, 100, 1, 150}));  // not C's earlier receive
  const MatchStatistics& total = h.matcher.total();
  EXPECT_EQ(total.matches, 3u);
  EXPECT_EQ(total.probe_matches, 2u);
  EXPECT_EQ(total.unmatched_receives, 1u);
  EXPECT_EQ(h.matcher.trace_statistics(0).probe_matches, 2u);
  EXPECT_EQ(h.matcher.trace_statistics(1).probe_matches, 2u);
  EXPECT_EQ(h.matcher.trace_statistics(2).probe_matches, 0u);
  EXPECT_EQ(h.matcher.link_statistics().at({"A", "B"}).probe_matches, 2u);
  EXPECT_EQ(h.matcher.link_statistics().at({"A", "B"}).matches, 3u);
  EXPECT_EQ(h.matcher.kind_statistics().at(kTcpKind).probe_matches, 2u);
}

TEST(PacketMatcher, WithoutProbePortsOrAddressesNoSegmentIsTheProbes) {
  for (const bool ports : {false, true}) {
    MatchOptions options;
    if (ports) options.probe_ports = {7300};
    Harness h({"A", "B"}, options);
    PacketEvent s = send(0, 100, 1);
    PacketEvent r = receive(1, 150, 1);
    if (!ports) {
      s.endpoints = ipv4(1, 2, 40000, 7300);
      r.endpoints = ipv4(1, 2, 40000, 7300);
    }  // with ports: events without addresses (lttng-modules 2.1 addons)
    h.matcher.add(s);
    h.matcher.add(r);
    h.matcher.finish();
    EXPECT_EQ(h.matcher.total().matches, 1u);
    EXPECT_EQ(h.matcher.total().probe_matches, 0u);
  }
}

TEST(PacketMatcher, EmitsOnceEveryOpenTraceHasPassedBothEnds) {
  constexpr model::Nanoseconds kSlice = PacketMatcher::kSettleSlice;
  Harness h({"A", "B", "C"});
  h.matcher.add(send(0, 100, 1));
  h.matcher.add(receive(1, 150, 1));
  EXPECT_TRUE(h.emitted.empty());  // trace 2 could still hold an earlier send
  h.matcher.advance(0, 10 * kSlice);
  h.matcher.advance(1, 10 * kSlice);
  EXPECT_TRUE(h.emitted.empty());
  h.matcher.advance(2, 150);  // an event at 150 of trace 2 could still come
  EXPECT_TRUE(h.emitted.empty());
  h.matcher.advance(2, kSlice - 1);  // past both ends, not yet past their slice
  EXPECT_TRUE(h.emitted.empty());
  h.matcher.advance(2, kSlice);
  ASSERT_EQ(h.emitted.size(), 1u);
  // A later send of the key is a retransmission; the message stands.
  h.matcher.add(send(2, kSlice + 160, 1));
  h.matcher.finish();
  EXPECT_EQ(h.emitted.size(), 1u);
  EXPECT_EQ(h.matcher.total().retransmissions, 1u);
  EXPECT_EQ(h.matcher.total().late, 0u);
}

TEST(PacketMatcher, ClosingTheLastOpenTraceEmits) {
  Harness h({"A", "B"});
  h.matcher.add(send(0, 100, 1));
  h.matcher.add(receive(1, 150, 1));
  h.matcher.close(0);
  EXPECT_TRUE(h.emitted.empty());
  h.matcher.close(1);
  EXPECT_EQ(h.emitted.size(), 1u);
}

TEST(PacketMatcher, EmitsAtOnceWhenEveryOpenTraceIsAlreadyPast) {
  Harness h({"A", "B"});
  h.matcher.advance(0, 200);
  h.matcher.advance(1, 200);
  h.matcher.add(send(0, 100, 1));  // late: breaks the promise, but tests the path
  EXPECT_TRUE(h.emitted.empty());
  h.matcher.add(receive(1, 150, 1));
  EXPECT_EQ(h.emitted.size(), 1u);
}

TEST(PacketMatcher, CountsEventsThatBreakTheirTracesPromise) {
  Harness h({"A", "B"});
  h.matcher.add(send(0, 100, 1));
  h.matcher.add(receive(1, 150, 1));
  h.matcher.advance(0, PacketMatcher::kSettleSlice);
  h.matcher.advance(1, PacketMatcher::kSettleSlice);
  ASSERT_EQ(h.emitted.size(), 1u);
  h.matcher.add(send(0, 90, 1));  // earlier than promised: too late to change the message
  h.matcher.finish();
  EXPECT_EQ(h.emitted.size(), 1u);
  EXPECT_EQ(h.emitted[0].send, 100);
  EXPECT_EQ(h.matcher.total().late, 1u);
  EXPECT_EQ(h.matcher.total().retransmissions, 1u);
}

TEST(PacketMatcher, DropsLoneEntriesOnceEveryOpenTraceIsAHorizonPastThem) {
  Harness h({"A", "B"}, {.horizon = 1000});
  h.matcher.add(send(0, 100, 1));
  h.matcher.add(send(1, 1150, 2));  // another key, later
  h.matcher.advance(0, 5000);
  h.matcher.advance(1, 1100);  // 100 + 1000 is not passed yet
  EXPECT_EQ(h.matcher.pending_keys(), 2u);
  h.matcher.advance(1, 1101);
  EXPECT_EQ(h.matcher.pending_keys(), 1u);
  EXPECT_EQ(h.matcher.total().expired, 1u);
  EXPECT_EQ(h.matcher.trace_statistics(0).expired, 1u);
  // Its receive, more than the horizon later, finds nothing.
  h.matcher.add(receive(1, 1200, 1));
  h.matcher.finish();
  EXPECT_TRUE(h.emitted.empty());
  EXPECT_EQ(h.matcher.total().unmatched_receives, 1u);
  EXPECT_EQ(h.matcher.total().unmatched_sends, 1u);
}

TEST(PacketMatcher, NothingExpiresBeyondTheLatestEvent) {
  // Progress promised far beyond every event: what the horizon did not
  // pass before the last event stays unmatched, however far traces promise.
  Harness h({"A", "B"}, {.horizon = 1000});
  h.matcher.add(send(0, 100, 1));
  h.matcher.advance(0, 5000);
  h.matcher.advance(1, 5000);
  EXPECT_EQ(h.matcher.pending_keys(), 1u);
  h.matcher.finish();
  EXPECT_EQ(h.matcher.total().expired, 0u);
  EXPECT_EQ(h.matcher.total().unmatched_sends, 1u);
}

TEST(PacketMatcher, EventsOfAKeyMoreThanAHorizonApartAreSeparateEntriesWhateverTheirArrivalOrder) {
  // A receive an hour (here: 10 horizons) after the send, arriving first.
  Harness h({"A", "B"}, {.horizon = 1000});
  h.matcher.add(receive(1, 10'100, 1));
  h.matcher.add(send(0, 100, 1));
  h.matcher.add(send(0, 20'000, 9));  // the last event of the experiment
  h.matcher.finish();
  EXPECT_TRUE(h.emitted.empty());
  EXPECT_EQ(h.matcher.total().expired, 2u);  // both ends, each a horizon before the last event
  // An event within a horizon of both joins them into one entry.
  Harness joined({"A", "B"}, {.horizon = 1000});
  joined.matcher.add(receive(1, 1'900, 1));
  joined.matcher.add(send(0, 100, 1));
  joined.matcher.add(send(0, 1'000, 1));  // a retransmission, 900 after the send and before the receive
  joined.matcher.finish();
  ASSERT_EQ(joined.emitted.size(), 1u);
  EXPECT_EQ(joined.emitted[0], (MatchedMessage{0, 100, 1, 1'900}));
  EXPECT_EQ(joined.matcher.total().retransmissions, 1u);
  EXPECT_EQ(joined.matcher.link_statistics().at({"A", "B"}).retransmissions, 1u);
}

TEST(PacketMatcher, AHorizonCountsFromTheNewestEventOfAKey) {
  Harness h({"A", "B"}, {.horizon = 1000});
  h.matcher.add(send(0, 100, 1));
  h.matcher.add(send(0, 900, 1));  // a retransmission keeps the key alive
  h.matcher.advance(0, 1500);
  h.matcher.advance(1, 1500);
  EXPECT_EQ(h.matcher.pending_keys(), 1u);
  h.matcher.add(receive(1, 1600, 1));
  h.matcher.finish();
  ASSERT_EQ(h.emitted.size(), 1u);
  EXPECT_EQ(h.emitted[0], (MatchedMessage{0, 100, 1, 1600}));
}

TEST(PacketMatcher, MatchedKeysAreForgottenSilently) {
  Harness h({"A", "B"}, {.horizon = 10});
  h.matcher.add(send(0, 100, 1));
  h.matcher.add(receive(1, 105, 1));
  h.matcher.advance(0, 200);
  h.matcher.advance(1, 200);
  // Its slice has not settled: it waits, horizon or not, to leave in order.
  EXPECT_EQ(h.emitted.size(), 0u);
  EXPECT_EQ(h.matcher.pending_keys(), 1u);
  h.matcher.advance(0, PacketMatcher::kSettleSlice);
  h.matcher.advance(1, PacketMatcher::kSettleSlice);
  EXPECT_EQ(h.emitted.size(), 1u);
  EXPECT_EQ(h.matcher.pending_keys(), 0u);
  h.matcher.finish();
  EXPECT_EQ(h.matcher.total().expired, 0u);
}

TEST(PacketMatcher, NothingExpiresOnceAllTracesAreClosed) {
  Harness h({"A", "B"}, {.horizon = 10});
  h.matcher.add(send(0, 100, 1));
  h.matcher.close(0);
  h.matcher.close(1);
  h.matcher.finish();
  EXPECT_EQ(h.matcher.total().expired, 0u);
  EXPECT_EQ(h.matcher.total().unmatched_sends, 1u);
}

TEST(PacketMatcher, RejectsUnknownTracesAndNegativeHorizons) {
  PacketMatcher matcher({}, 2, nullptr);
  EXPECT_THROW(matcher.add(send(2, 1, 1)), std::out_of_range);
  EXPECT_THROW(matcher.advance(5, 1), std::out_of_range);
  EXPECT_THROW(PacketMatcher({.horizon = -1}, 1, nullptr), std::invalid_argument);
}

TEST(PacketKey, ParsesItsNames) {
  EXPECT_EQ(parse_key_kind("tc"), KeyKind::kTc);
  EXPECT_EQ(parse_key_kind("strict"), KeyKind::kStrict);
  EXPECT_FALSE(parse_key_kind("loose").has_value());
  EXPECT_EQ(to_string(KeyKind::kStrict), "strict");
}

TEST(PacketKey, EqualKeysHashEqually) {
  PacketEvent a = send(0, 1, 42);
  a.endpoints = ipv4(1, 2, 3, 4);
  PacketEvent b = receive(1, 9, 42);
  b.endpoints = ipv4(1, 2, 3, 4);
  for (KeyKind kind : {KeyKind::kTc, KeyKind::kStrict}) {
    EXPECT_EQ(make_key(a, kind), make_key(b, kind));
    EXPECT_EQ(PacketKeyHash{}(make_key(a, kind)), PacketKeyHash{}(make_key(b, kind)));
  }
  b.endpoints.dest_port = 5;
  EXPECT_EQ(make_key(a, KeyKind::kTc), make_key(b, KeyKind::kTc));
  EXPECT_FALSE(make_key(a, KeyKind::kStrict) == make_key(b, KeyKind::kStrict));
}

}  // namespace
}  // namespace tracesync::match
