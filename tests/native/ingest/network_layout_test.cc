// SPDX-License-Identifier: EPL-2.0
// The network events of every lttng-modules layout decode to the same
// fields: traces written here in each layout, read back through babeltrace2.

#include <gtest/gtest.h>

#include "ctf_test_writer.h"
#include "ingest/experiment_reader.h"
#include "ingest/network_event_decoder.h"
#include "ingest/network_event_names.h"
#include "recording_sink.h"

namespace tracesync::ingest {
namespace {

using match::Direction;
using match::Layout;
using testing::NetEvent;
using testing::Network;
using testing::Transport;
namespace fs = std::filesystem;

constexpr int64_t kOffsetSeconds = 1'700'000'000;
constexpr int64_t kOffsetNs = kOffsetSeconds * 1'000'000'000;

NetEvent tcp_event(const std::string& name, uint64_t time, uint32_t seq) {
  NetEvent e;
  e.name = name;
  e.time = time;
  e.saddr = {192, 168, 1, 10};
  e.daddr = {192, 168, 1, 20};
  e.source_port = 43512;
  e.dest_port = 22;
  e.seq = seq;
  e.ack_seq = 0xA0B0C0D0;
  e.flags = 0x18;  // PSH ACK
  return e;
}

std::array<uint8_t, 16> ipv6(uint8_t last) {
  return {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x12, last};
}

// The events every nested layout writes, and what they must decode to.
std::vector<NetEvent> mixed_events() {
  std::vector<NetEvent> events;
  events.push_back(tcp_event("net_dev_queue", 1000, 0x01020304));
  NetEvent v6 = tcp_event("net_if_receive_skb", 2000, 0xFFFFFFF0);
  v6.network = Network::kIpv6;
  v6.saddr = ipv6(1);
  v6.daddr = ipv6(2);
  events.push_back(v6);
  NetEvent udp = tcp_event("net_dev_queue", 3000, 5);
  udp.transport = Transport::kUdp;
  events.push_back(udp);
  NetEvent no_ip = tcp_event("netif_receive_skb", 4000, 6);
  no_ip.network = Network::kNone;
  events.push_back(no_ip);
  events.push_back(tcp_event("timer_init", 5000, 7));                // not a network event
  events.push_back(tcp_event("net_if_receive_skb_entry", 6000, 8));  // nor is this one
  events.push_back(tcp_event("netif_receive_skb", 7000, 9));
  return events;
}

ReadOptions one_job() {
  ReadOptions options;
  options.jobs = 1;
  return options;
}

testing::TraceShape shape(testing::Layout layout, const std::string& hostname = "host",
                          std::optional<std::string> clock_uuid = std::nullopt, std::size_t streams = 1,
                          std::size_t events_per_packet = 0) {
  testing::TraceShape out;
  out.events_per_packet = events_per_packet;
  out.layout = layout;
  out.hostname = hostname;
  out.clock_uuid = std::move(clock_uuid);
  out.clock_offset_seconds = kOffsetSeconds;
  out.streams = streams;
  return out;
}

struct Read {
  ExperimentReport report;
  std::vector<match::PacketEvent> events;  // by time
  TraceInfo opened;                        // what trace_opened said
};

Read read_trace(const fs::path& directory) {
  testing::RecordingSink sink;
  Read out;
  out.report = read_experiment({TraceSource{directory.string(), directory.filename().string(), std::nullopt}},
                               one_job(), sink);
  EXPECT_EQ(sink.broken_promises, 0);
  EXPECT_EQ(sink.closed.size(), 1u);
  out.events = sink.events_of(0);
  if (sink.opened.count(0)) out.opened = sink.opened.at(0);
  return out;
}

void expect_tcp(const match::PacketEvent& got, const NetEvent& want, Direction direction, uint8_t family,
                bool with_endpoints = true) {
  EXPECT_EQ(got.time, kOffsetNs + static_cast<int64_t>(want.time));
  EXPECT_EQ(got.direction, direction);
  ASSERT_EQ(got.layout, Layout::kTcp);
  EXPECT_EQ(got.tcp.seq, want.seq);
  EXPECT_EQ(got.tcp.ack_seq, want.ack_seq);
  EXPECT_EQ(got.tcp.flags, want.flags);
  if (!with_endpoints) {
    EXPECT_FALSE(got.endpoints.present());
    return;
  }
  EXPECT_EQ(got.endpoints.family, family);
  const std::size_t bytes = family == 4 ? 4 : 16;
  EXPECT_TRUE(std::equal(want.saddr.begin(), want.saddr.begin() + bytes, got.endpoints.saddr.begin()));
  EXPECT_TRUE(std::equal(want.daddr.begin(), want.daddr.begin() + bytes, got.endpoints.daddr.begin()));
  EXPECT_EQ(got.endpoints.source_port, want.source_port);
  EXPECT_EQ(got.endpoints.dest_port, want.dest_port);
}

class NestedLayouts : public ::testing::TestWithParam<testing::Layout> {};

TEST_P(NestedLayouts, DecodeTcpOverIpv4AndIpv6AndClassifyTheRest) {
  testing::TempDir dir("layout");
  const std::vector<NetEvent> written = mixed_events();
  testing::write_trace(dir.path() / "trace", shape(GetParam()), written);
  const Read read = read_trace(dir.path() / "trace");
  ASSERT_EQ(read.report.traces.size(), 1u);
  ASSERT_EQ(read.report.traces[0].status, TraceStatus::kComplete) << read.report.traces[0].problem;
  EXPECT_EQ(read.report.traces[0].info.events, written.size());
  EXPECT_EQ(read.report.traces[0].info.network_events, 5u);
  ASSERT_EQ(read.events.size(), 5u);
  expect_tcp(read.events[0], written[0], Direction::kSend, 4);
  expect_tcp(read.events[1], written[1], Direction::kReceive, 6);
  EXPECT_EQ(read.events[2].layout, Layout::kNonTcp);  // UDP
  EXPECT_EQ(read.events[2].direction, Direction::kSend);
  EXPECT_EQ(read.events[3].layout, Layout::kNonTcp);  // no IP header
  EXPECT_EQ(read.events[3].direction, Direction::kReceive);
  expect_tcp(read.events[4], written[6], Direction::kReceive, 4);  // the kernel's name of the receive event

  // The census by name: what `tracesync check` shows.
  const NetworkEventCensus& census = read.report.traces[0].info.network_census;
  const auto tally = [&](std::string_view name) { return census[*network_event_index(name)]; };
  EXPECT_EQ(tally("net_dev_queue"), (NetworkEventTally{true, "", 1, 1, 0}));
  EXPECT_EQ(tally("net_if_receive_skb"), (NetworkEventTally{true, "", 1, 0, 0}));
  EXPECT_EQ(tally("netif_receive_skb"), (NetworkEventTally{true, "", 1, 1, 0}));
  EXPECT_EQ(tally("inet_sock_local_out"), NetworkEventTally{});  // not in the metadata: not recorded
  EXPECT_EQ(tally("inet_sock_local_in"), NetworkEventTally{});
  EXPECT_EQ(tcp_events(census, Direction::kSend), 1u);
  EXPECT_EQ(tcp_events(census, Direction::kReceive), 2u);
}

INSTANTIATE_TEST_SUITE_P(LttngModules, NestedLayouts,
                         ::testing::Values(testing::Layout::kLttng29, testing::Layout::kLttng211,
                                           testing::Layout::kLttng213, testing::Layout::kIntegerAddresses),
                         [](const auto& test) {
                           switch (test.param) {
                             case testing::Layout::kLttng29:
                               return std::string("v2_9");
                             case testing::Layout::kLttng211:
                               return std::string("v2_11");
                             case testing::Layout::kLttng213:
                               return std::string("v2_13");
                             default:
                               return std::string("IntegerAddresses");
                           }
                         });

TEST(FlatLayout, AddonsEventsCarryTheTcpKeyWithoutAddresses) {
  testing::TempDir dir("addons");
  std::vector<NetEvent> written = {tcp_event("inet_sock_local_out", 100, 1), tcp_event("inet_sock_local_in", 200, 2),
                                   tcp_event("timer_init", 300, 3)};
  written[1].flags = 0x1808;  // the addons record a 16-bit word
  testing::write_trace(dir.path() / "t", shape(testing::Layout::kAddons21),
                       written);
  const Read read = read_trace(dir.path() / "t");
  ASSERT_EQ(read.report.traces[0].status, TraceStatus::kComplete) << read.report.traces[0].problem;
  ASSERT_EQ(read.events.size(), 2u);
  expect_tcp(read.events[0], written[0], Direction::kSend, 0, false);
  expect_tcp(read.events[1], written[1], Direction::kReceive, 0, false);
  const NetworkEventCensus& census = read.report.traces[0].info.network_census;
  EXPECT_EQ(census[*network_event_index("inet_sock_local_out")], (NetworkEventTally{true, "", 1, 0, 0}));
  EXPECT_EQ(census[*network_event_index("inet_sock_local_in")], (NetworkEventTally{true, "", 1, 0, 0}));
  EXPECT_FALSE(census[*network_event_index("net_dev_queue")].recorded);
}

TEST(FlatLayout, NetworkEventsWithoutHeadersHaveAnUnknownLayout) {
  testing::TempDir dir("pre29");
  testing::write_trace(dir.path() / "t", shape(testing::Layout::kPre29),
                       {tcp_event("net_dev_queue", 1, 1), tcp_event("net_if_receive_skb", 2, 1)});
  const Read read = read_trace(dir.path() / "t");
  ASSERT_EQ(read.report.traces[0].status, TraceStatus::kComplete) << read.report.traces[0].problem;
  ASSERT_EQ(read.events.size(), 2u);
  EXPECT_EQ(read.events[0].layout, Layout::kUnknown);
  EXPECT_EQ(read.events[1].layout, Layout::kUnknown);
  EXPECT_EQ(read.events[1].direction, Direction::kReceive);

  // The census names what is missing, for each event recorded.
  const NetworkEventCensus& census = read.report.traces[0].info.network_census;
  for (const std::string_view name : {"net_dev_queue", "net_if_receive_skb", "netif_receive_skb"}) {
    const NetworkEventTally& tally = census[*network_event_index(name)];
    EXPECT_TRUE(tally.recorded) << name;
    EXPECT_EQ(tally.missing,
              "no TCP header fields: neither `network_header` (lttng-modules 2.9+) nor `seq`, `ack_seq`, `flags` "
              "(the 2.1 addons)")
        << name;
    EXPECT_EQ(tally.tcp, 0u) << name;
  }
  EXPECT_EQ(census[*network_event_index("net_dev_queue")].undecodable, 1u);
  EXPECT_EQ(census[*network_event_index("net_if_receive_skb")].undecodable, 1u);
  EXPECT_EQ(census[*network_event_index("netif_receive_skb")].events(), 0u);  // recorded, never seen
  EXPECT_FALSE(census[*network_event_index("inet_sock_local_out")].recorded);
}

TEST(NetworkDirection, KnowsTheSendAndReceiveEvents) {
  EXPECT_EQ(network_direction("net_dev_queue"), Direction::kSend);
  EXPECT_EQ(network_direction("inet_sock_local_out"), Direction::kSend);
  EXPECT_EQ(network_direction("net_if_receive_skb"), Direction::kReceive);
  EXPECT_EQ(network_direction("netif_receive_skb"), Direction::kReceive);
  EXPECT_EQ(network_direction("inet_sock_local_in"), Direction::kReceive);
  EXPECT_FALSE(network_direction("net_if_receive_skb_entry"));
  EXPECT_FALSE(network_direction("net_dev_xmit"));
  EXPECT_FALSE(network_direction("sched_switch"));
}

TEST(TraceReading, EveryPacketOfEveryStreamIsReadAndTheTraceIsDescribed) {
  testing::TempDir dir("streams");
  std::vector<NetEvent> written;
  for (uint32_t i = 0; i < 40; ++i) written.push_back(tcp_event(i % 2 ? "net_dev_queue" : "timer_init", 1000 + 10 * i, i));
  testing::write_trace(dir.path() / "t",
                       shape(testing::Layout::kLttng211, "alpha", "0123abcd-0000-1111-2222-333344445555", 3, 4),
                       written);
  const Read read = read_trace(dir.path() / "t");
  const TraceReport& trace = read.report.traces[0];
  ASSERT_EQ(trace.status, TraceStatus::kComplete) << trace.problem;
  EXPECT_EQ(trace.info.streams, 3u);
  EXPECT_EQ(trace.info.events, 40u);
  EXPECT_EQ(trace.info.network_events, 20u);
  EXPECT_EQ(read.events.size(), 20u);
  EXPECT_EQ(trace.info.first_event, kOffsetNs + 1000);
  EXPECT_EQ(trace.info.last_event, kOffsetNs + 1390);
  EXPECT_EQ(trace.info.hostname, "alpha");
  ASSERT_TRUE(trace.info.clock.has_value());
  EXPECT_EQ(trace.info.clock->name, "monotonic");
  EXPECT_EQ(trace.info.clock->uuid, "0123abcd-0000-1111-2222-333344445555");
  EXPECT_EQ(trace.info.clock->offset_seconds, kOffsetSeconds);
  EXPECT_EQ(trace.info.clock->frequency, 1'000'000'000u);
  EXPECT_EQ(trace.info.domain_id, "0123abcd-0000-1111-2222-333344445555");
  EXPECT_EQ(trace.info.domain_source, DomainSource::kClockUuid);
  EXPECT_EQ(read.opened.domain_id, trace.info.domain_id);  // known to the sink before the events
  EXPECT_EQ(trace.info.bytes, fs::file_size(dir.path() / "t" / "channel0_0") + fs::file_size(dir.path() / "t" / "channel0_1") +
                                  fs::file_size(dir.path() / "t" / "channel0_2"));
}

TEST(TraceReading, NetworkEventsAreFoundAmongHundredsOfEventClasses) {
  // Events of 300 other classes come first, more than the reader's table of
  // recent classes holds: the network classes met afterwards are found
  // through its map, every time, and decoded as usual.
  testing::TempDir dir("classes");
  std::vector<NetEvent> written;
  uint64_t time = 1000;
  for (uint32_t k = 0; k < 300; ++k) written.push_back(tcp_event("filler_" + std::to_string(k), time += 10, k));
  for (uint32_t i = 0; i < 30; ++i) {
    written.push_back(tcp_event(i % 2 ? "net_dev_queue" : "net_if_receive_skb", time += 10, 7000 + i));
    written.push_back(tcp_event("filler_" + std::to_string(i * 7), time += 10, i));
  }
  testing::TraceShape many = shape(testing::Layout::kLttng211, "host", std::nullopt, 1, 4);
  many.filler_classes = 300;
  testing::write_trace(dir.path() / "t", many, written);
  const Read read = read_trace(dir.path() / "t");
  ASSERT_EQ(read.report.traces[0].status, TraceStatus::kComplete) << read.report.traces[0].problem;
  EXPECT_EQ(read.report.traces[0].info.events, 360u);
  EXPECT_EQ(read.report.traces[0].info.network_events, 30u);
  ASSERT_EQ(read.events.size(), 30u);
  for (uint32_t i = 0; i < 30; ++i) {
    expect_tcp(read.events[i], written[300 + 2 * i], i % 2 ? Direction::kSend : Direction::kReceive, 4, true);
  }
}

TEST(TraceReading, PacketBeginningsThatStepBackAreTolerated) {
  testing::TempDir dir("stepback");
  std::vector<NetEvent> written;
  for (uint32_t i = 0; i < 40; ++i) written.push_back(tcp_event("net_dev_queue", 1000 + 10 * i, i));
  testing::TraceShape stepping = shape(testing::Layout::kLttng211, "host", std::nullopt, 1, 4);
  stepping.packet_begin_step_back = 25;  // each packet begins 15 ns before the previous one ended:
                                         // babeltrace2's muxer stops there after 4 events
  testing::write_trace(dir.path() / "t", stepping, written);
  const Read read = read_trace(dir.path() / "t");
  ASSERT_EQ(read.report.traces[0].status, TraceStatus::kComplete) << read.report.traces[0].problem;
  EXPECT_EQ(read.events.size(), 40u);
  EXPECT_EQ(read.report.traces[0].info.first_event, kOffsetNs + 1000);
}

TEST(TraceReading, TheDomainFallsBackToTheHostnameThenThePath) {
  testing::TempDir dir("domains");
  testing::write_trace(dir.path() / "named", shape(testing::Layout::kLttng211, "beta"), {tcp_event("net_dev_queue", 1, 1)});
  testing::write_trace(dir.path() / "anonymous", shape(testing::Layout::kLttng211, ""), {tcp_event("net_dev_queue", 1, 1)});
  testing::write_trace(dir.path() / "forced", shape(testing::Layout::kLttng211, "gamma", "0123abcd-0000-1111-2222-333344445555"),
                       {tcp_event("net_dev_queue", 1, 1)});
  std::vector<TraceSource> sources = {{(dir.path() / "named").string(), "named", std::nullopt},
                                      {(dir.path() / "anonymous").string(), "anonymous", std::nullopt},
                                      {(dir.path() / "forced").string(), "forced", "my-host"}};
  testing::RecordingSink sink;
  const ExperimentReport report = read_experiment(sources, {}, sink);
  ASSERT_EQ(report.traces.size(), 3u);
  EXPECT_EQ(report.traces[0].info.domain_id, "beta");
  EXPECT_EQ(report.traces[0].info.domain_source, DomainSource::kHostname);
  EXPECT_EQ(report.traces[1].info.domain_id, sources[1].path);
  EXPECT_EQ(report.traces[1].info.domain_source, DomainSource::kPath);
  EXPECT_EQ(report.traces[2].info.domain_id, "my-host");
  EXPECT_EQ(report.traces[2].info.domain_source, DomainSource::kOverride);
  EXPECT_EQ(report.traces[2].info.clock->uuid, "0123abcd-0000-1111-2222-333344445555");
}

}  // namespace
}  // namespace tracesync::ingest
