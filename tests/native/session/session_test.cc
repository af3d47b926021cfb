// SPDX-License-Identifier: EPL-2.0
#include "session/session.h"

#include <gtest/gtest.h>

#include "numbered_id.h"
#include "session/synchronization.h"

#include <random>

namespace tracesync::session {
namespace {

void feed_hand_pair(Session& s, const std::string& a, const std::string& b, int64_t shift = 0) {
  // y = x + 5 with accuracy 0.2 (fixtures/matches/two_hosts_hand.txt).
  s.add_host_message(a, shift + 0, b, shift + 10);
  s.add_host_message(b, shift + 55, a, shift + 50);
  s.add_host_message(a, shift + 100, b, shift + 110);
}

TEST(Session, MessagesWithinOneDomainAreIgnoredAndCounted) {
  Session s({});
  s.add_host_message("a", 1, "a", 2);
  feed_hand_pair(s, "a", "b");
  const auto snapshot = s.snapshot();
  EXPECT_EQ(snapshot.messages(), 3u);
  EXPECT_EQ(snapshot.matching().same_domain(), 1u);
  EXPECT_EQ(snapshot.links_size(), 1);
}

TEST(Session, FollowsALiveStreamAcrossSnapshots) {
  Session s({});
  s.add_host_message("a", 0, "b", 10);
  auto first = s.snapshot();
  EXPECT_EQ(first.links(0).quality(), v1::INCOMPLETE);
  EXPECT_EQ(first.islands_size(), 2);
  s.add_host_message("b", 55, "a", 50);
  s.add_host_message("a", 100, "b", 110);
  auto second = s.snapshot();
  EXPECT_EQ(second.links(0).quality(), v1::ACCURATE);
  EXPECT_EQ(second.islands_size(), 1);
  EXPECT_EQ(second.traces(1).offset().exact(), "-5.000000000000000000000000000000000");
}

TEST(Session, HistoryObserverSeesEveryMessageInOrder) {
  Session s({});
  std::vector<uint64_t> seen;
  s.set_history_observer([&](uint64_t message, const v1::Link& link) {
    seen.push_back(message);
    EXPECT_EQ(link.messages(), message);
  });
  feed_hand_pair(s, "a", "b");
  EXPECT_EQ(seen, (std::vector<uint64_t>{1, 2, 3}));
}

TEST(Session, ReferenceCanNameATraceOrAHostname) {
  SessionOptions options;
  options.forced_references = {"kernel-of-b"};
  Session s(options);
  const TraceIndex a = s.add_trace({"kernel-of-a", "/t/a/kernel", "host-a", "uuid-a"});
  const TraceIndex b = s.add_trace({"kernel-of-b", "/t/b/kernel", "host-b", "uuid-b"});
  s.add_trace_message(a, 0, b, 10);
  s.add_trace_message(b, 55, a, 50);
  s.add_trace_message(a, 100, b, 110);
  const auto snapshot = s.snapshot();
  EXPECT_EQ(snapshot.islands(0).reference(), "uuid-b");
  EXPECT_TRUE(snapshot.islands(0).forced());
  EXPECT_TRUE(s.unresolved_references().empty());
  EXPECT_EQ(snapshot.traces(0).hostname(), "host-a");
  EXPECT_EQ(snapshot.traces(0).offset().exact(), "5.000000000000000000000000000000000");
}

TEST(Session, TracesOfOneDomainShareATransformAndAreNeverLinked) {
  Session s({});
  const TraceIndex kernel = s.add_trace({"a-kernel", "/a/kernel", "a", "boot-a"});
  const TraceIndex ust = s.add_trace({"a-ust", "/a/ust", "a", "boot-a"});
  const TraceIndex other = s.add_trace({"b-kernel", "/b/kernel", "b", "boot-b"});
  s.add_trace_message(kernel, 0, other, 10);
  s.add_trace_message(other, 55, ust, 50);
  s.add_trace_message(ust, 100, other, 110);
  s.add_trace_message(kernel, 5, ust, 6);  // within one domain: ignored
  const auto snapshot = s.snapshot();
  ASSERT_EQ(snapshot.links_size(), 1);
  EXPECT_EQ(snapshot.links(0).quality(), v1::ACCURATE);
  ASSERT_EQ(snapshot.traces_size(), 3);
  EXPECT_EQ(snapshot.traces(0).offset().exact(), snapshot.traces(1).offset().exact());
  EXPECT_EQ(snapshot.traces(0).domain(), "boot-a");
}

TEST(Session, ALinkWhoseClockWouldRunBackwardsIsNotUsed) {
  // Every feasible line has a negative slope: ACCURATE, but meaningless.
  Session s({});
  s.add_host_message("a", 0, "b", 100);
  s.add_host_message("b", 40, "a", 50);
  s.add_host_message("a", 100, "b", 0);
  const auto snapshot = s.snapshot();
  ASSERT_EQ(snapshot.links_size(), 1);
  EXPECT_EQ(snapshot.links(0).quality(), v1::ACCURATE);
  EXPECT_LT(snapshot.links(0).alpha().approx(), 0);
  EXPECT_FALSE(snapshot.links(0).in_tree());
  EXPECT_EQ(snapshot.islands_size(), 2);
}

TEST(Session, SnapshotsTakenAlongTheWayEqualOneTakenAtTheEnd) {
  // Snapshots reuse what did not change since the previous one (per link,
  // per domain transform): the result must not depend on that.
  for (const char* algorithm : {"hull", "window-independent", "linreg"}) {
    SessionOptions options;
    options.estimator.algorithm = algorithm;
    options.estimator.window = 2'000'000;
    Session along(options);
    Session at_end(options);
    std::mt19937_64 rng(3);
    for (int chunk = 0; chunk < 12; ++chunk) {
      for (int i = 0; i < 40; ++i) {
        const int a = static_cast<int>(rng() % 5);
        const int b = (a + 1 + static_cast<int>(rng() % 4)) % 5;
        const int64_t t = chunk * 1'000'000 + i * 20'000 + static_cast<int64_t>(rng() % 1000);
        const int64_t delay = 5'000 + static_cast<int64_t>(rng() % 3000);
        const auto host = [](int h) { return testutil::numbered_id("h", h); };
        // Host h's clock runs h ppm fast and h us ahead.
        const auto clock = [](int h, int64_t true_time) { return true_time + true_time * h / 1'000'000 + h * 1000; };
        along.add_host_message(host(a), clock(a, t), host(b), clock(b, t + delay));
        at_end.add_host_message(host(a), clock(a, t), host(b), clock(b, t + delay));
      }
      along.snapshot();  // never closes a window early
    }
    along.finish();
    at_end.finish();
    const v1::Snapshot x = along.snapshot();
    const v1::Snapshot y = at_end.snapshot();
    EXPECT_EQ(x.SerializeAsString(), y.SerializeAsString()) << algorithm;
    EXPECT_EQ(x.links_size(), 10) << algorithm;
  }
}

TEST(Session, TheLinearModelsFrontierChangesNoReportAndCountsLateMessages) {
  // --clock-model linear keeps a flat envelope behind each link's frontier
  // (its newest message less the match horizon): with every message inside
  // the horizon, the report is the one of no frontier at all, byte for byte.
  SessionOptions options;
  options.estimator.clock_model = hull::ClockModel::kLinear;
  Session bounded(options);
  Session unbounded(options);
  bounded.set_matching_options("tc", 5'000'000'000, 1);  // 5 s
  std::mt19937_64 rng(9);
  constexpr int64_t start = 1'700'000'000'000'000'000;
  // b's clock: 3 ms ahead of a's and 50 ppm fast.
  const auto on_b = [](int64_t a_time) { return a_time + 3'000'000 + (a_time - start) / 20'000; };
  for (int64_t t = start; t < start + 150'000'000'000; t += 50'000'000 + static_cast<int64_t>(rng() % 1'000'000)) {
    const int64_t delay = 20'000 + static_cast<int64_t>(rng() % 40'000);
    for (Session* s : {&bounded, &unbounded}) {
      s->add_host_message("a", t, "b", on_b(t + delay));
      s->add_host_message("b", on_b(t + 10'000'000), "a", t + 10'000'000 + delay);
    }
  }
  const v1::Snapshot x = bounded.snapshot();
  const v1::Snapshot y = unbounded.snapshot();
  ASSERT_EQ(x.links_size(), 1);
  ASSERT_TRUE(x.links(0).has_uncertainty_ns());
  EXPECT_EQ(x.links(0).SerializeAsString(), y.links(0).SerializeAsString());
  EXPECT_EQ(x.links(0).late_messages(), 0u);
  // A message 100 s behind the newest: in the hull, counted, not in the envelope.
  bounded.add_host_message("a", start + 50'000'000'000, "b", on_b(start + 50'001'000'000));
  const v1::Snapshot late = bounded.snapshot();
  EXPECT_EQ(late.links(0).late_messages(), 1u);
  EXPECT_EQ(late.links(0).messages(), x.links(0).messages() + 1);
  EXPECT_GE(late.links(0).uncertainty_ns(), 0);
}

TEST(Synchronization, ValidatesOptions) {
  IngestOptions ingest;
  ingest.match_key = "loose";
  EXPECT_NE(Synchronization::validate({}, ingest).find("'tc' or 'strict'"), std::string::npos);
  SessionOptions session;
  session.estimator.algorithm = "nope";
  EXPECT_NE(Synchronization::validate(session, {}).find("unknown algorithm"), std::string::npos);
  EXPECT_EQ(Synchronization::validate({}, {}), "");
}

TEST(Synchronization, MissingTracePathIsAnError) {
  Synchronization sync({}, {});
  EXPECT_NE(sync.add_trace_path("/nonexistent/trace").find("does not exist"), std::string::npos);
}

// What TraceSync.follow hands down through JNI: live's 1 min horizon when
// the caller gives none (not the session's, sync's 10 min), and a horizon
// that is not positive refused in words before anything is followed.
TEST(Synchronization, FollowsWithLivesMatchHorizonAndRefusesOneNotPositive) {
  EXPECT_EQ(Synchronization::FollowOptions{}.match_horizon, kLiveMatchHorizon);
  EXPECT_EQ(kLiveMatchHorizon, 60'000'000'000);
  Synchronization sync({}, {});
  for (const model::Nanoseconds horizon : {model::Nanoseconds{0}, model::Nanoseconds{-5}}) {
    Synchronization::FollowOptions options;
    options.sources = {"/nonexistent/folder"};
    options.match_horizon = horizon;
    LiveLoopEnd end;
    EXPECT_EQ(sync.follow(options, {}, end),
              "the match horizon to follow with must be positive, not " + std::to_string(horizon) + " ns");
  }
}

}  // namespace
}  // namespace tracesync::session
