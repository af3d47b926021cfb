// SPDX-License-Identifier: EPL-2.0
// The real LTTng 2.1 kernel traces of two hosts (shared fixtures, when
// present): every event read, the independently counted messages matched,
// and an ACCURATE link between the hosts.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <mutex>

#include "hull/exact_hull_estimator.h"
#include "ingest/experiment_matching.h"
#include "ingest/trace_discovery.h"
#include "recording_sink.h"
#include "scp_fixture_matches.h"

namespace tracesync::ingest {
namespace {

namespace fs = std::filesystem;

const fs::path kFixtures = fs::path(TRACESYNC_SHARED_DIR) / "fixtures" / "lttng-modules-2.1-addons";
constexpr const char* kVm1Clock = "74715693-28c1-4d0d-bee9-24790a4942b0";  // scp_src's metadata
constexpr const char* kVm3Clock = "1a9a454c-b8e8-4c19-b95d-65840be0962f";  // scp_dest's metadata

#define SKIP_WITHOUT_FIXTURES()                                                                   \
  if (!fs::is_directory(kFixtures)) GTEST_SKIP() << "shared fixtures not found at " << kFixtures \
                                                 << " (TRACESYNC_SHARED_DIR)"

// Traces in discovery order: [0] scp_dest (VM3), [1] scp_src (VM1).
std::vector<TraceSource> fixture_traces() {
  const Discovery found = discover_traces({kFixtures.string()});
  EXPECT_TRUE(found.problems.empty());
  return found.traces;
}

// The expected messages with trace numbers of discovery order (the file
// numbers VM1 as 0).
std::vector<match::MatchedMessage> expected_in_discovery_order() {
  std::vector<match::MatchedMessage> expected = testing::scp_fixture_matches();
  for (auto& m : expected) {
    m.send_trace = 1 - m.send_trace;
    m.receive_trace = 1 - m.receive_trace;
  }
  std::sort(expected.begin(), expected.end());
  return expected;
}

struct Matched {
  ExperimentResult result;
  std::vector<match::MatchedMessage> messages;  // sorted
};

Matched match_fixtures(unsigned jobs, match::KeyKind key) {
  ExperimentOptions options;
  options.read.jobs = jobs;
  options.match.key = key;
  Matched out;
  std::mutex mutex;  // the callback is never called concurrently; the lock proves nothing breaks if it were
  out.result = match_experiment(fixture_traces(), options,
                                {nullptr, [&](const match::MatchedMessage& m) {
                                   const std::lock_guard lock(mutex);
                                   out.messages.push_back(m);
                                 }});
  std::sort(out.messages.begin(), out.messages.end());
  return out;
}

TEST(ScpFixtures, DiscoveryFindsBothHosts) {
  SKIP_WITHOUT_FIXTURES();
  const auto traces = fixture_traces();
  ASSERT_EQ(traces.size(), 2u);
  EXPECT_EQ(traces[0].name, "lttng-modules-2.1-addons/scp_dest");
  EXPECT_EQ(traces[1].name, "lttng-modules-2.1-addons/scp_src");
}

TEST(ScpFixtures, EveryEventOfBothTracesIsRead) {
  SKIP_WITHOUT_FIXTURES();
  testing::RecordingSink sink;
  const ExperimentReport report = read_experiment(fixture_traces(), {}, sink);
  ASSERT_EQ(report.traces.size(), 2u);
  const TraceInfo& vm3 = report.traces[0].info;
  const TraceInfo& vm1 = report.traces[1].info;
  for (const TraceReport& trace : report.traces) {
    EXPECT_EQ(trace.status, TraceStatus::kComplete) << trace.problem;
    EXPECT_EQ(trace.info.streams, 1u);
  }
  // Event counts: lines of the babeltrace2 text dumps (see scp_fixture_matches.h).
  EXPECT_EQ(vm1.events, 110771u);
  EXPECT_EQ(vm3.events, 85729u);
  // 26 inet_sock_local_out + 25 inet_sock_local_in in VM1's dump; 23 + 26 in VM3's.
  EXPECT_EQ(vm1.network_events, 51u);
  EXPECT_EQ(vm3.network_events, 49u);
  EXPECT_EQ(std::count_if(sink.events.begin(), sink.events.end(),
                          [](const auto& e) { return e.trace == 1 && e.direction == match::Direction::kSend; }),
            26);
  // The first and last lines of the dumps.
  EXPECT_EQ(vm1.first_event, 1361214076525090092);
  EXPECT_EQ(vm1.last_event, 1361214099530082855);
  EXPECT_EQ(vm3.first_event, 1361214078963711320);
  EXPECT_EQ(vm3.last_event, 1361214096385469974);
  // The metadata's env and clock blocks.
  EXPECT_EQ(vm1.hostname, "VM1");
  EXPECT_EQ(vm3.hostname, "VM3");
  EXPECT_EQ(vm1.domain_id, kVm1Clock);
  EXPECT_EQ(vm3.domain_id, kVm3Clock);
  EXPECT_EQ(vm1.domain_source, DomainSource::kClockUuid);
  ASSERT_TRUE(vm1.clock.has_value());
  EXPECT_EQ(vm1.clock->name, "monotonic");
  EXPECT_EQ(vm1.clock->frequency, 1'000'000'000u);
  // offset = 1361203559332331489 cycles at 1 GHz.
  EXPECT_EQ(vm1.clock->offset_seconds * 1'000'000'000 + static_cast<int64_t>(vm1.clock->offset_cycles),
            1361203559332331489);
  EXPECT_EQ(vm1.bytes, 2416640u);  // the size of channel0_0
  EXPECT_EQ(vm3.bytes, 1904640u);
  EXPECT_EQ(sink.broken_promises, 0);
}

TEST(ScpFixtures, TheIndependentlyCountedMessagesAreMatched) {
  SKIP_WITHOUT_FIXTURES();
  for (unsigned jobs : {1u, 2u}) {
    const Matched m = match_fixtures(jobs, match::KeyKind::kTc);
    EXPECT_EQ(m.messages, expected_in_discovery_order()) << jobs << " jobs";
    const match::MatchStatistics& total = m.result.total;
    EXPECT_EQ(total.sends, 49u);
    EXPECT_EQ(total.receives, 51u);
    EXPECT_EQ(total.matches, 46u);
    EXPECT_EQ(total.retransmissions + total.duplicates + total.same_domain + total.expired + total.late, 0u);
    EXPECT_EQ(total.unmatched_sends, 3u);
    EXPECT_EQ(total.unmatched_receives, 5u);
    EXPECT_EQ(m.result.per_trace[1].unmatched_sends, 2u);  // VM1
    EXPECT_EQ(m.result.per_trace[1].unmatched_receives, 3u);
    EXPECT_EQ(m.result.per_trace[0].unmatched_sends, 1u);  // VM3
    EXPECT_EQ(m.result.per_trace[0].unmatched_receives, 2u);
    ASSERT_EQ(m.result.per_link.size(), 1u);
    EXPECT_EQ(m.result.per_link.at({kVm3Clock, kVm1Clock}).matches, 46u);
  }
}

TEST(ScpFixtures, TheStrictKeyFallsBackToTheTcKeyForTheAddonsEvents) {
  SKIP_WITHOUT_FIXTURES();
  const Matched m = match_fixtures(2, match::KeyKind::kStrict);
  EXPECT_EQ(m.messages, expected_in_discovery_order());
  EXPECT_EQ(m.result.total.tc_key_fallback, 100u);
}

TEST(ScpFixtures, TheLinkBetweenTheHostsIsAccurate) {
  SKIP_WITHOUT_FIXTURES();
  const Matched m = match_fixtures(0, match::KeyKind::kTc);
  // Link (a, b): a is VM3, whose clock UUID sorts first (trace 0).
  hull::ExactHullEstimator link;
  for (const auto& message : m.messages) {
    link.add(message.send_trace == 0 ? hull::LinkMessage::a_to_b(message.send, message.receive)
                                     : hull::LinkMessage::b_to_a(message.send, message.receive));
  }
  const hull::LinkEstimate estimate = link.estimate();
  EXPECT_EQ(estimate.quality, hull::Quality::kAccurate);
  // VM1's clock reads about 80.4 ms more than VM3's (the dumps' one-way
  // "delays" are +80.8 ms one way and -80.3 ms the other).
  const double offset_at_start = static_cast<double>(estimate.alpha * 1361214092.8e9L + estimate.beta - 1361214092.8e9L);
  EXPECT_NEAR(offset_at_start, 80.5e6, 0.5e6);
}

TEST(ScpFixtures, ProgressEndsWithEveryByteRead) {
  SKIP_WITHOUT_FIXTURES();
  testing::RecordingSink sink;
  std::vector<ReadProgress> calls;
  std::vector<uint64_t> read_so_far;
  const ExperimentReport report = read_experiment(fixture_traces(), {}, sink, [&](const ReadProgress& p) {
    calls.push_back(p);
    read_so_far.push_back(p.bytes_read);
    return true;
  });
  ASSERT_FALSE(calls.empty());
  EXPECT_TRUE(std::is_sorted(read_so_far.begin(), read_so_far.end()));
  const ReadProgress& last = calls.back();
  EXPECT_EQ(last.bytes_total, 2416640u + 1904640u);
  EXPECT_EQ(last.bytes_read, last.bytes_total);
  EXPECT_EQ(last.traces_done, 2u);
  EXPECT_EQ(last.traces_total, 2u);
  EXPECT_EQ(report.bytes(), last.bytes_total);
}

TEST(ScpFixtures, WithoutStreamRangesTheSameEventsAndProgressStillEndsComplete) {
  SKIP_WITHOUT_FIXTURES();
  testing::RecordingSink with_ranges;
  const ExperimentReport reference = read_experiment(fixture_traces(), {}, with_ranges);
  ReadOptions options;
  options.reader.stream_ranges = false;  // no trace-infos query: progress moves at stream ends only
  testing::RecordingSink sink;
  std::vector<uint64_t> read_so_far;
  const ExperimentReport report = read_experiment(fixture_traces(), options, sink, [&](const ReadProgress& p) {
    read_so_far.push_back(p.bytes_read);
    return true;
  });
  ASSERT_FALSE(read_so_far.empty());
  EXPECT_TRUE(std::is_sorted(read_so_far.begin(), read_so_far.end()));
  EXPECT_EQ(read_so_far.back(), 2416640u + 1904640u);
  ASSERT_EQ(report.traces.size(), reference.traces.size());
  for (std::size_t i = 0; i < report.traces.size(); ++i) {
    EXPECT_EQ(report.traces[i].status, TraceStatus::kComplete);
    EXPECT_EQ(report.traces[i].info.events, reference.traces[i].info.events);
    EXPECT_EQ(report.traces[i].info.network_events, reference.traces[i].info.network_events);
    EXPECT_EQ(report.traces[i].info.first_event, reference.traces[i].info.first_event);
    EXPECT_EQ(report.traces[i].info.last_event, reference.traces[i].info.last_event);
  }
  EXPECT_EQ(sink.events.size(), with_ranges.events.size());
}

TEST(ScpFixtures, CancellingStopsTheReading) {
  SKIP_WITHOUT_FIXTURES();
  testing::RecordingSink sink;
  const ExperimentReport report = read_experiment(fixture_traces(), {}, sink, [](const ReadProgress&) { return false; });
  EXPECT_TRUE(report.cancelled);
  for (const TraceReport& trace : report.traces) {
    EXPECT_TRUE(trace.status == TraceStatus::kCancelled || trace.status == TraceStatus::kComplete);
  }
}

}  // namespace
}  // namespace tracesync::ingest
