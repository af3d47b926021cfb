// SPDX-License-Identifier: EPL-2.0
// reader_protocol: what is encoded decodes to the same, and a payload cut
// short or damaged decodes to nothing rather than to wrong values.

#include <gtest/gtest.h>

#include <cstring>

#include "ingest/reader_protocol.h"
#include "ingest/same_trace_info.h"

namespace tracesync::ingest::reader_protocol {
namespace {

TraceInfo full_info() {
  TraceInfo info;
  info.path = "/traces/session/kernel";
  info.name = "session/kernel";
  info.hostname = "node-7";
  info.domain_id = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
  info.domain_source = DomainSource::kClockUuid;
  info.clock = ClockInfo{"monotonic", "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", 1'000'000'000, -3, 123456789, true};
  info.first_event = -42;
  info.last_event = INT64_MAX;
  info.streams = 8;
  info.events = 20'700'000'000ULL;
  info.network_events = 500'001;
  info.network_census[0] = {true, "", 250'000, 1, 0};
  info.network_census[2] = {true, "`network_header.ipv6` has no `transport_header` variant", 249'000, 0, 1'000};
  info.network_census[4].recorded = true;
  info.app_census = {{true, false, "rpc:out has no field `id` in its payload", 0, 0, 0, 17},
                     {true, true, "", 1'000, 999, 2, 0}};
  info.offered_classes = {{"rpc:out", {"id (uint64)", "context.vtid (int32)"}}, {"rpc:in", {}}};
  info.discarded_events = 3;
  info.damaged_packets = 2;
  info.damaged_network_events = 5;
  info.first_time_damage = "stream channel0_1, packet at byte 4096: an event after the packet's end";
  info.bytes = 1ULL << 40;
  info.reader = "scanner";
  info.reader_reason = "--reader auto: the scanner's plan covers it";
  info.metadata_format = "CTF 2";
  info.stream_files = {"channel0_0", "channel0_1", "ust_\xff"};
  return info;
}

// A followed folder's position with every part set.
FolderPosition full_position() {
  FolderPosition at;
  at.chunk = 3;
  at.packets = {{"chan_0", 12}, {"chan_1", 0}, {"ust_\xff", 7}};
  at.last_packets = {{"chan_0", {4096, 8192, 11, 22, 5}}, {"chan_9", {0, 4096, 1, 2, 0}}};
  at.finished_bytes = 1ULL << 33;
  at.metadata_bytes = 8192;
  at.info = full_info();
  at.look = {{"chan_0", 2}};
  at.look_metadata_bytes = 12288;
  at.look_delivered.add({77, {3, 1}});
  return at;
}

void expect_same_position(const FolderPosition& a, const FolderPosition& b) {
  EXPECT_EQ(a.chunk, b.chunk);
  EXPECT_EQ(a.packets, b.packets);
  EXPECT_EQ(a.last_packets, b.last_packets);
  EXPECT_EQ(a.finished_bytes, b.finished_bytes);
  EXPECT_EQ(a.metadata_bytes, b.metadata_bytes);
  testing::expect_same_trace_info(a.info, b.info);
  EXPECT_EQ(a.look, b.look);
  EXPECT_EQ(a.look_metadata_bytes, b.look_metadata_bytes);
  EXPECT_EQ(a.look_delivered, b.look_delivered);
}

TEST(ReaderProtocol, TraceInfoRoundTrips) {
  const TraceInfo info = full_info();
  const auto decoded = decode_trace_info(encode(info));
  ASSERT_TRUE(decoded);
  testing::expect_same_trace_info(info, *decoded);

  TraceInfo sparse;  // no clock, no events, empty strings
  sparse.domain_source = DomainSource::kPath;
  const auto decoded_sparse = decode_trace_info(encode(sparse));
  ASSERT_TRUE(decoded_sparse);
  testing::expect_same_trace_info(sparse, *decoded_sparse);
}

TEST(ReaderProtocol, OpenRequestRoundTrips) {
  OpenRequest request;
  request.parent_pid = 4242;
  request.index = 17;
  request.source = {"/t/a", "a", std::string("domain-x")};
  request.options.step_back_tolerance = 123;
  request.options.batch_events = 99;
  request.options.decode = false;
  request.options.endpoints = false;
  request.options.stream_ranges = false;
  request.options.offered_classes = true;
  request.options.selection = EventSelection({MessageSpec{"rpc", "rpc:out", "rpc:in",
                                                          {{"conn", FieldScope::kAny}, {"vtid", FieldScope::kContext}},
                                                          "name=rpc,send=rpc:out,recv=rpc:in,key=conn+context.vtid"},
                                              MessageSpec{"mq", "mq:put", "mq:get", {{"seq", FieldScope::kPayload}}, "x"}});
  request.resume.add({-5, {3, 0, 9}});
  request.resume.add({8, {1, 2}});
  request.follow = {FollowedSource::Kind::kFolder, 5000, "/tmp/staging"};
  request.folder = full_position();
  request.live_cut = {-123456789, {{2, 1}, {9, 3}}, {2, 5, 9}};
  const auto decoded = decode_open(encode(request));
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->version, kVersion);
  EXPECT_EQ(decoded->event_size, sizeof(match::PacketEvent));
  EXPECT_EQ(decoded->parent_pid, 4242);
  EXPECT_EQ(decoded->index, 17u);
  EXPECT_EQ(decoded->source.path, "/t/a");
  EXPECT_EQ(decoded->source.name, "a");
  EXPECT_EQ(decoded->source.domain_override, std::optional<std::string>("domain-x"));
  EXPECT_EQ(decoded->options.step_back_tolerance, 123);
  EXPECT_EQ(decoded->options.batch_events, 99u);
  EXPECT_FALSE(decoded->options.decode);
  EXPECT_FALSE(decoded->options.endpoints);
  EXPECT_FALSE(decoded->options.stream_ranges);
  EXPECT_TRUE(decoded->options.offered_classes);
  EXPECT_EQ(decoded->options.selection, request.options.selection);
  EXPECT_EQ(decoded->resume, request.resume);
  EXPECT_EQ(decoded->resume.cuts().size(), 2u);
  EXPECT_EQ(decoded->follow.kind, FollowedSource::Kind::kFolder);
  EXPECT_EQ(decoded->follow.quiet_end_ms, 5000);
  EXPECT_EQ(decoded->follow.staging_parent, "/tmp/staging");
  expect_same_position(request.folder, decoded->folder);
  EXPECT_EQ(decoded->live_cut, request.live_cut);
}

// LiveCut::given_at_through searches its lists by stream id: lists out of
// order, or naming a stream twice, are refused.
TEST(ReaderProtocol, ALiveCutWhoseStreamsAreOutOfOrderOrTwiceIsRefused) {
  OpenRequest request;
  request.live_cut = {40, {{2, 1}, {9, 3}}, {2, 5, 9}};
  ASSERT_TRUE(decode_open(encode(request)));
  for (const auto& at_through : {std::vector<std::pair<uint64_t, uint64_t>>{{9, 3}, {2, 1}},
                                 std::vector<std::pair<uint64_t, uint64_t>>{{2, 1}, {2, 3}}}) {
    request.live_cut.at_through = at_through;
    EXPECT_FALSE(decode_open(encode(request))) << at_through[0].first << ", " << at_through[1].first;
  }
  request.live_cut.at_through = {{2, 1}};
  for (const auto& streams : {std::vector<uint64_t>{5, 2}, std::vector<uint64_t>{2, 2}}) {
    request.live_cut.streams = streams;
    EXPECT_FALSE(decode_open(encode(request))) << streams[0] << ", " << streams[1];
  }
}

TEST(ReaderProtocol, AnotherVersionIsReportedNotRead) {
  OpenRequest request;
  request.version = kVersion + 1;
  const auto decoded = decode_open(encode(request));
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->version, kVersion + 1);
}

TEST(ReaderProtocol, StepReportRoundTrips) {
  StepReport report;
  report.state = TraceReader::State::kFailed;
  report.progress = -7;
  report.bytes_read = 5555;
  report.info = full_info();
  report.problem = "reading stopped after 10 events: something";
  report.delivered.add({1000, {4, 4}});
  report.waiting = true;
  report.end_words = "the session ended";
  report.folder = full_position();
  report.gaps = {{3, 10, 20}, {7, -5, 99}, {8, 4, 4, false}};
  report.unserved = {4, 6};
  const auto decoded = decode_step_report(encode(report));
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->state, TraceReader::State::kFailed);
  EXPECT_EQ(decoded->progress, -7);
  EXPECT_EQ(decoded->bytes_read, 5555u);
  EXPECT_EQ(decoded->problem, report.problem);
  EXPECT_EQ(decoded->delivered, report.delivered);
  testing::expect_same_trace_info(report.info, decoded->info);
  EXPECT_TRUE(decoded->waiting);
  EXPECT_EQ(decoded->end_words, report.end_words);
  expect_same_position(report.folder, decoded->folder);
  EXPECT_EQ(decoded->gaps, report.gaps);
  EXPECT_EQ(decoded->unserved, report.unserved);
}

// What decodes encodes the same: a point with a cut that another covers (as
// ResumePoint::add never leaves one) is refused, as is a count of cuts or of
// streams larger than the payload.
TEST(ReaderProtocol, ResumePointsThatAreNotAsAddLeavesThemAreRefused) {
  StepReport report;
  // A followed folder's look: its point is the payload's last bytes (the
  // report's own `delivered` is decoded alike).
  report.folder.look_delivered.add({10, {5}});
  std::vector<std::byte> bytes = encode(report);
  ASSERT_TRUE(decode_step_report(bytes));
  // Cuts (1), then the cut: through, streams (1), read.
  std::vector<std::byte> doubled(bytes.begin(), bytes.end() - 32);
  const uint64_t two = 2;
  const auto* two_bytes = reinterpret_cast<const std::byte*>(&two);
  doubled.insert(doubled.end(), two_bytes, two_bytes + sizeof two);
  doubled.insert(doubled.end(), bytes.end() - 24, bytes.end());
  doubled.insert(doubled.end(), bytes.end() - 24, bytes.end());  // the same cut twice
  EXPECT_FALSE(decode_step_report(doubled));
  std::vector<std::byte> too_many = bytes;
  const uint64_t huge = uint64_t{1} << 60;
  std::memcpy(too_many.data() + too_many.size() - 32, &huge, sizeof huge);
  EXPECT_FALSE(decode_step_report(too_many));
  std::vector<std::byte> too_many_streams = bytes;
  std::memcpy(too_many_streams.data() + too_many_streams.size() - 16, &huge, sizeof huge);
  EXPECT_FALSE(decode_step_report(too_many_streams));
}

TEST(ReaderProtocol, AddressedPayloadsNameTheirTrace) {
  const std::vector<std::byte> rounds = encode_rounds(77);
  const std::vector<std::byte> bytes = addressed(12345, rounds);
  std::span<const std::byte> payload(bytes);
  EXPECT_EQ(take_address(payload), std::optional<match::TraceIndex>(12345));
  EXPECT_EQ(decode_rounds(payload), std::optional<uint64_t>(77));
  std::span<const std::byte> short_payload = std::span(bytes).first(3);
  EXPECT_FALSE(take_address(short_payload));
}

TEST(ReaderProtocol, EveryShortenedOrLengthenedPayloadIsRefused) {
  StepReport report;
  report.info = full_info();
  report.problem = "p";
  report.folder = full_position();
  report.gaps = {{1, 2, 3}};
  report.unserved = {5};
  const std::vector<std::byte> whole = encode(report);
  for (std::size_t size = 0; size < whole.size(); ++size) {
    EXPECT_FALSE(decode_step_report(std::span(whole).first(size))) << "first " << size << " bytes";
  }
  std::vector<std::byte> longer = whole;
  longer.push_back(std::byte{0});
  EXPECT_FALSE(decode_step_report(longer));
  const std::vector<std::byte> info = encode(full_info());
  for (std::size_t size = 0; size < info.size(); ++size) {
    EXPECT_FALSE(decode_trace_info(std::span(info).first(size))) << "first " << size << " bytes";
  }
}

TEST(ReaderProtocol, OutOfRangeEnumsAndBoolsAreRefused) {
  StepReport report;
  std::vector<std::byte> bytes = encode(report);
  bytes[0] = std::byte{9};  // the state: an int, 9 is no State
  EXPECT_FALSE(decode_step_report(bytes));

  TraceInfo info;
  std::vector<std::byte> info_bytes = encode(info);
  // Four empty strings (8-byte lengths), then the domain source, then the
  // bool saying whether a clock follows.
  ASSERT_EQ(info_bytes.size() > 33, true);
  info_bytes[32] = std::byte{7};
  EXPECT_FALSE(decode_trace_info(info_bytes));
  info_bytes = encode(info);
  info_bytes[33] = std::byte{2};
  EXPECT_FALSE(decode_trace_info(info_bytes));
}

TEST(ReaderProtocol, EventsRoundTripAndRaggedPayloadsAreRefused) {
  std::vector<match::PacketEvent> events(3);
  for (std::size_t i = 0; i < events.size(); ++i) {
    events[i].time = 1000 + static_cast<int64_t>(i);
    events[i].trace = 5;
    events[i].direction = i % 2 ? match::Direction::kReceive : match::Direction::kSend;
    events[i].tcp.seq = static_cast<uint32_t>(i * 11);
    events[i].endpoints.family = 4;
    events[i].endpoints.source_port = 80;
  }
  events[2].kind = 3;
  events[2].tcp = {};
  events[2].endpoints = {};
  match::AppKeyBuilder key(events[2].app);
  key.add_integer(77);
  key.add_string("queue-7");
  EventsHeader header;
  header.promise = -99;
  header.events_read = 123456;
  header.delivered.add({900, {2, 1}});
  header.folder = full_position();
  header.live_cut = {700, {{1, 2}}, {1, 3}};
  std::vector<std::byte> payload = encode(header);
  const auto raw = std::as_bytes(std::span(events));
  payload.insert(payload.end(), raw.begin(), raw.end());
  std::vector<match::PacketEvent> decoded;
  const auto decoded_header = decode_events(payload, decoded);
  ASSERT_TRUE(decoded_header);
  EXPECT_EQ(decoded_header->promise, -99);
  EXPECT_EQ(decoded_header->events_read, 123456u);
  EXPECT_EQ(decoded_header->delivered, header.delivered);
  expect_same_position(header.folder, decoded_header->folder);
  EXPECT_EQ(decoded_header->live_cut, header.live_cut);
  ASSERT_EQ(decoded.size(), 3u);
  for (std::size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(decoded[i].time, events[i].time);
    EXPECT_EQ(decoded[i].direction, events[i].direction);
    EXPECT_EQ(decoded[i].tcp.seq, events[i].tcp.seq);
    EXPECT_EQ(decoded[i].endpoints, events[i].endpoints);
    EXPECT_EQ(decoded[i].kind, events[i].kind);
    EXPECT_EQ(decoded[i].app, events[i].app);
  }
  EXPECT_EQ(decoded[2].app.size, 2);  // the integer, then "queue-7" with its length in one word
  payload.pop_back();
  EXPECT_FALSE(decode_events(payload, decoded));
  EXPECT_FALSE(decode_events(std::span(payload).first(7), decoded));
  EventsHeader alone;
  alone.promise = 5;
  const auto no_events = decode_events(encode(alone), decoded);
  ASSERT_TRUE(no_events);
  EXPECT_EQ(no_events->promise, 5);
  EXPECT_TRUE(decoded.empty());
}

}  // namespace
}  // namespace tracesync::ingest::reader_protocol
