// SPDX-License-Identifier: EPL-2.0
// Signal pairs in a session (docs/signals.md): each a two-sided constraint
// within the pair jitter, on a link with no message at all or beside
// messages; the truth stays inside the link's bound.

#include <gtest/gtest.h>

#include <cstdlib>

#include "ingest/signal_spec.h"
#include "session/session.h"
#include "session/signal_links.h"

namespace tracesync::session {
namespace {

using model::Nanoseconds;

constexpr Nanoseconds kStart = 1'700'000'000'000'000'000;
constexpr Nanoseconds kOffset = 12'345'678;  // b - a
constexpr double kDrift = 20e-6;

Nanoseconds on_b(Nanoseconds a) { return a + kOffset + static_cast<Nanoseconds>(kDrift * static_cast<double>(a - kStart)); }

long double exact(const v1::Decimal& d) { return std::strtold(d.exact().c_str(), nullptr); }

TEST(SignalSession, ALinkOfSignalsAloneIsAccurateAndHoldsTheTruth) {
  SessionOptions options;
  options.estimator.clock_model = hull::ClockModel::kLinear;
  // The hull alone: no allowance for the clocks bending (which would widen
  // the bound by 0.5 ppm of the span by default).
  options.estimator.clock_stability_ppm = 0;
  Session s(options);
  const TraceIndex a = s.add_trace({"a", "/a", "a", "domain-a"});
  const TraceIndex b = s.add_trace({"b", "/b", "b", "domain-b"});
  const Nanoseconds jitter = 2'002;
  for (int k = 0; k < 100; ++k) {
    const Nanoseconds t = kStart + k * Nanoseconds{1'000'000'000};
    // Records 1 us off either way, alternately: within the jitter.
    s.add_signal_pair(a, t, b, on_b(t) + (k % 2 == 0 ? 1'000 : -1'000), jitter);
  }
  const v1::Snapshot snapshot = s.snapshot();
  ASSERT_EQ(snapshot.links_size(), 1);
  const v1::Link& link = snapshot.links(0);
  EXPECT_EQ(link.quality(), v1::ACCURATE);
  EXPECT_EQ(link.lower_messages(), 100u);
  EXPECT_EQ(link.upper_messages(), 100u);
  EXPECT_EQ(snapshot.islands_size(), 1) << "a link of signals alone joins its hosts";
  // b ~ alpha * a + beta: the truth's line lies in the region, and so
  // within the bound of the estimate at both ends.
  ASSERT_TRUE(link.has_uncertainty_ns());
  EXPECT_LE(link.uncertainty_ns(), 2.0 * static_cast<double>(jitter));
  const long double alpha = exact(link.alpha()), beta = exact(link.beta());
  for (const Nanoseconds t : {kStart, kStart + 50'000'000'000, kStart + 99'000'000'000}) {
    const long double estimate = (alpha - 1) * static_cast<long double>(t) + beta;  // b - a at t
    const auto truth = static_cast<long double>(on_b(t) - t);
    EXPECT_NEAR(static_cast<double>(estimate), static_cast<double>(truth), link.uncertainty_ns() + 1) << t;
  }
}

TEST(SignalSession, PairsCombineWithMessagesOnOneLink) {
  SessionOptions options;
  options.estimator.clock_model = hull::ClockModel::kLinear;
  // The hull alone: no allowance for the clocks bending (which would widen
  // the bound by 0.5 ppm of the span by default).
  options.estimator.clock_stability_ppm = 0;
  Session s(options);
  const TraceIndex a = s.add_trace({"a", "/a", "a", "domain-a"});
  const TraceIndex b = s.add_trace({"b", "/b", "b", "domain-b"});
  // Messages alone: 50 us one way, 60 us the other: a band of about 55 us.
  for (int k = 0; k < 20; ++k) {
    const Nanoseconds t = kStart + k * Nanoseconds{5'000'000'000};
    s.add_trace_message(a, t, b, on_b(t + 50'000));
    s.add_trace_message(b, on_b(t + 1'000'000), a, t + 1'060'000);
  }
  const double messages_only = s.snapshot().links(0).uncertainty_ns();
  for (int k = 0; k < 100; ++k) {
    const Nanoseconds t = kStart + k * Nanoseconds{1'000'000'000};
    s.add_signal_pair(b, on_b(t), a, t, 2'002);  // from b's side: the session orients it
  }
  const v1::Link link = s.snapshot().links(0);
  EXPECT_EQ(link.quality(), v1::ACCURATE);
  EXPECT_EQ(link.messages(), 240u);
  EXPECT_LT(link.uncertainty_ns(), messages_only / 5) << "the signal narrows what messages allow";
  EXPECT_LE(link.uncertainty_ns(), 4'004.0);
}

TEST(SignalSession, TheReportSaysWhatEachSignalGaveTheLink) {
  Session s({});
  const TraceIndex a = s.add_trace({"a", "/a", "a", "domain-a"});
  const TraceIndex b = s.add_trace({"b", "/b", "b", "domain-b"});
  s.add_signal_pair(a, kStart, b, on_b(kStart), 2'002);
  v1::LinkSignal signal;
  signal.set_name("pps");
  signal.set_pairs(1);
  signal.set_unpaired_a(3);
  signal.set_unpaired_b(4);
  s.add_link_signal(b, a, signal);  // from b's side: a and b swap
  const v1::Snapshot snapshot = s.snapshot();
  ASSERT_EQ(snapshot.links(0).signals_size(), 1);
  EXPECT_EQ(snapshot.links(0).a(), "domain-a");
  EXPECT_EQ(snapshot.links(0).signals(0).unpaired_a(), 4u);
  EXPECT_EQ(snapshot.links(0).signals(0).unpaired_b(), 3u);
}

// `tracesync live` pairs everything read so far at each result: the
// pairs settled so far go to the link once each, a later call adds only
// the new ones, and the link's report counts the pairs it holds (replaced,
// not repeated).
TEST(SignalSession, FoldingWhileRecordingAddsEachSettledPairOnce) {
  Session s({});
  const TraceIndex a = s.add_trace({"a", "/a", "a", "domain-a"});
  const TraceIndex b = s.add_trace({"b", "/b", "b", "domain-b"});
  const auto spec = ingest::parse_signal_spec("name=pps,event=gps:pps,jitter=1us,clocks-within=100ms");
  ASSERT_TRUE(std::holds_alternative<ingest::SignalSpec>(spec));
  ingest::SignalOccurrences::ByTrace occurrences;
  std::vector<ingest::TraceReport> traces(2);
  for (const TraceIndex t : {a, b}) {
    traces[t].info.hostname = t == a ? "a" : "b";
    traces[t].info.app_census.resize(1);
    traces[t].info.app_census[0].send_recorded = true;
  }
  for (int k = 0; k < 20; ++k) {
    const Nanoseconds t = kStart + k * Nanoseconds{1'000'000'000};
    occurrences[{0, 0}].push_back({t, {}});
    occurrences[{1, 0}].push_back({on_b(t), {}});
  }
  Nanoseconds until = kStart + 10'500'000'000;  // a's and b's occurrences complete to 10.5 s
  SignalFolding folding;
  folding.complete_until = [&](TraceIndex t) { return until == INT64_MAX || t == a ? until : on_b(until); };
  const std::vector<ingest::SignalSpec> signals{std::get<ingest::SignalSpec>(spec)};
  add_signals(s, signals, 1, occurrences, traces, {a, b}, &folding);
  v1::Snapshot snapshot = s.snapshot();
  ASSERT_EQ(snapshot.links_size(), 1);
  EXPECT_EQ(snapshot.links(0).lower_messages(), 11u) << "the pulses at 0..10 s, settled";
  ASSERT_EQ(snapshot.links(0).signals_size(), 1);
  EXPECT_EQ(snapshot.links(0).signals(0).pairs(), 11u);
  add_signals(s, signals, 1, occurrences, traces, {a, b}, &folding);  // nothing new read
  EXPECT_EQ(s.snapshot().links(0).lower_messages(), 11u) << "no pair folded twice";
  until = INT64_MAX;  // every trace ended
  add_signals(s, signals, 1, occurrences, traces, {a, b}, &folding);
  snapshot = s.snapshot();
  EXPECT_EQ(snapshot.links(0).lower_messages(), 20u);
  EXPECT_EQ(snapshot.links(0).upper_messages(), 20u);
  ASSERT_EQ(snapshot.links(0).signals_size(), 1) << "the signal's entry replaced, not repeated";
  EXPECT_EQ(snapshot.links(0).signals(0).pairs(), 20u);
}

}  // namespace
}  // namespace tracesync::session
