// SPDX-License-Identifier: EPL-2.0
// Property tests: whatever the arrival order a parallel reader produces, the
// matcher's messages and statistics equal the sorted-order oracle; with a
// horizon, they still do when every key's events are close together, while
// memory stays bounded.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "match/concurrent_matcher.h"
#include "match/packet_matcher.h"
#include "matching_oracle.h"

namespace tracesync::match {
namespace {

struct Experiment {
  std::vector<std::string> domain_of;  // per trace
  std::vector<PacketEvent> events;
};

constexpr model::Nanoseconds kSkew = 2'000'000;

struct Shape {
  std::size_t messages = 400;
  // Keys are drawn from this many values: few keys collide often (and far
  // apart in time); "unique" keys only collide with the next message's.
  std::size_t key_pool = 300;
  bool unique_keys = false;
  model::Nanoseconds gap = 1'000'000;  // between messages (at most)
  model::Nanoseconds max_delay = 5'000'000;
  bool strict_fields = false;
  model::Nanoseconds skew = kSkew;  // how far trace 3's clock runs ahead
};

// Four traces: 0 and 1 share a domain (kernel and userspace of one host).
Experiment generate(uint64_t seed, const Shape& shape) {
  std::mt19937_64 rng(seed);
  auto chance = [&](double p) { return std::bernoulli_distribution(p)(rng); };
  auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  auto delay = [&] { return std::uniform_int_distribution<model::Nanoseconds>(0, shape.max_delay)(rng); };
  Experiment x;
  x.domain_of = {"hostA", "hostA", "hostB", "hostC"};
  const std::size_t traces = x.domain_of.size();
  model::Nanoseconds now = 1'000'000;
  for (std::size_t i = 0; i < shape.messages; ++i) {
    now += std::uniform_int_distribution<model::Nanoseconds>(1, shape.gap)(rng);
    PacketEvent base;
    const std::size_t key = shape.unique_keys ? (chance(0.1) && i > 0 ? i - 1 : i) : pick(shape.key_pool);
    base.tcp = {static_cast<uint32_t>(key * 7919), static_cast<uint32_t>(key % 3), static_cast<uint16_t>(0x10)};
    if (shape.strict_fields && chance(0.8)) {
      base.endpoints.family = 4;
      base.endpoints.saddr[3] = static_cast<uint8_t>(pick(2));
      base.endpoints.source_port = static_cast<uint16_t>(pick(2));
    }
    const TraceIndex from = static_cast<TraceIndex>(pick(traces));
    const TraceIndex to = static_cast<TraceIndex>(pick(traces));
    const model::Nanoseconds sent = now;
    const int sends = chance(0.9) ? 1 + (chance(0.15) ? 1 : 0) : 0;
    const int receives = chance(0.9) ? 1 + (chance(0.1) ? 1 : 0) : 0;
    for (int k = 0; k < sends; ++k) {
      PacketEvent e = base;
      e.trace = from;
      e.direction = Direction::kSend;
      e.time = sent + k * delay() + (from == 3 ? shape.skew : 0);
      if (chance(0.03)) e.layout = chance(0.5) ? Layout::kNonTcp : Layout::kUnknown;
      x.events.push_back(e);
    }
    for (int k = 0; k < receives; ++k) {
      PacketEvent e = base;
      e.trace = to;
      e.direction = Direction::kReceive;
      // Clocks differ: trace 3 runs kSkew ahead, so receives may precede sends.
      e.time = sent + delay() + (to == 3 ? shape.skew : 0);
      x.events.push_back(e);
    }
  }
  return x;
}

// Feeds the events as a parallel reader would: each trace is split into
// `streams` streams (each sorted by time), the next event comes from a random
// stream of a random trace, and each trace announces, now and then, the
// smallest last-read time over its unfinished streams.
struct Feed {
  std::size_t max_pending = 0;            // the most keys held at once
  uint64_t matches_before_finish = 0;     // emitted while reading, not at the end
};

Feed feed(PacketMatcher& matcher, const Experiment& x, uint64_t seed, std::size_t streams) {
  Feed out;
  std::mt19937_64 rng(seed);
  const std::size_t traces = x.domain_of.size();
  struct Stream {
    std::vector<PacketEvent> events;
    std::size_t next = 0;
    model::Nanoseconds last = INT64_MIN;
    bool done() const { return next == events.size(); }
  };
  std::vector<std::vector<Stream>> trace_streams(traces, std::vector<Stream>(streams));
  for (const PacketEvent& e : x.events) {
    trace_streams[e.trace][std::uniform_int_distribution<std::size_t>(0, streams - 1)(rng)].events.push_back(e);
  }
  for (auto& list : trace_streams) {
    for (Stream& s : list) {
      std::sort(s.events.begin(), s.events.end(), [](const PacketEvent& a, const PacketEvent& b) { return a.time < b.time; });
    }
  }
  std::vector<bool> closed(traces, false);
  auto watermark = [&](std::size_t t) {
    model::Nanoseconds w = INT64_MAX;
    for (const Stream& s : trace_streams[t]) {
      if (!s.done()) w = std::min(w, s.last);
    }
    return w;
  };
  for (;;) {
    std::vector<std::pair<std::size_t, std::size_t>> ready;
    for (std::size_t t = 0; t < traces; ++t) {
      for (std::size_t s = 0; s < streams; ++s) {
        if (!trace_streams[t][s].done()) ready.push_back({t, s});
      }
    }
    if (ready.empty()) break;
    const auto [t, s] = ready[std::uniform_int_distribution<std::size_t>(0, ready.size() - 1)(rng)];
    Stream& stream = trace_streams[t][s];
    const PacketEvent& e = stream.events[stream.next++];
    stream.last = e.time;
    matcher.add(e);
    if (std::bernoulli_distribution(0.3)(rng)) {
      const model::Nanoseconds w = watermark(t);
      if (w == INT64_MAX) {
        matcher.close(static_cast<TraceIndex>(t));
        closed[t] = true;
      } else {
        matcher.advance(static_cast<TraceIndex>(t), w);
      }
    }
    out.max_pending = std::max(out.max_pending, matcher.pending_keys());
  }
  for (std::size_t t = 0; t < traces; ++t) {
    if (!closed[t] && std::bernoulli_distribution(0.5)(rng)) matcher.close(static_cast<TraceIndex>(t));
  }
  out.matches_before_finish = matcher.total().matches;
  matcher.finish();
  return out;
}

void expect_equal(const MatchStatistics& got, const MatchStatistics& want, const std::string& where) {
  EXPECT_EQ(got.sends, want.sends) << where;
  EXPECT_EQ(got.receives, want.receives) << where;
  EXPECT_EQ(got.matches, want.matches) << where;
  EXPECT_EQ(got.same_domain, want.same_domain) << where;
  EXPECT_EQ(got.retransmissions, want.retransmissions) << where;
  EXPECT_EQ(got.duplicates, want.duplicates) << where;
  EXPECT_EQ(got.unmatched_sends, want.unmatched_sends) << where;
  EXPECT_EQ(got.unmatched_receives, want.unmatched_receives) << where;
  EXPECT_EQ(got.expired, want.expired) << where;
  EXPECT_EQ(got.unknown_layout, want.unknown_layout) << where;
  EXPECT_EQ(got.non_tcp, want.non_tcp) << where;
  EXPECT_EQ(got.tc_key_fallback, want.tc_key_fallback) << where;
  EXPECT_EQ(got.late, want.late) << where;
}

void expect_balanced(const MatchStatistics& s, const std::string& where) {
  EXPECT_EQ(s.sends + s.receives, 2 * (s.matches + s.same_domain) + s.retransmissions + s.duplicates +
                                      s.unmatched_sends + s.unmatched_receives + s.expired)
      << where;
}

std::vector<MatchedMessage> in_emission_order(std::vector<MatchedMessage> messages) {
  std::sort(messages.begin(), messages.end(), emitted_before);
  return messages;
}

// Runs the matcher on `x` in a random parallel order and checks it against
// the oracle, the order of the messages included.
Feed check_against_oracle(const Experiment& x, MatchOptions options, uint64_t seed, std::size_t streams) {
  const std::string where = "seed " + std::to_string(seed) + ", " + std::to_string(streams) + " streams, key " +
                            std::string(to_string(options.key));
  std::vector<MatchedMessage> emitted;
  PacketMatcher matcher(options, x.domain_of.size(), [&](const MatchedMessage& m) { emitted.push_back(m); });
  for (TraceIndex t = 0; t < x.domain_of.size(); ++t) matcher.set_domain(t, x.domain_of[t]);
  const Feed f = feed(matcher, x, seed, streams);

  const oracle::Result want = oracle::match_sorted(x.events, options.key, x.domain_of, options.horizon);
  EXPECT_EQ(emitted, in_emission_order(want.messages)) << where;
  expect_equal(matcher.total(), want.total, where + ", total");
  for (TraceIndex t = 0; t < x.domain_of.size(); ++t) {
    expect_equal(matcher.trace_statistics(t), want.per_trace[t], where + ", trace " + std::to_string(t));
  }
  EXPECT_EQ(matcher.link_statistics().size(), want.per_link.size()) << where;
  for (const auto& [link, stats] : want.per_link) {
    if (matcher.link_statistics().count(link) == 0) {
      ADD_FAILURE() << where << ": no link " << link.first << "-" << link.second;
      continue;
    }
    expect_equal(matcher.link_statistics().at(link), stats, where + ", link " + link.first + "-" + link.second);
  }
  expect_balanced(matcher.total(), where);
  return f;
}

TEST(PacketMatcherProperty, AnyParallelArrivalOrderGivesTheSortedOrderResult) {
  MatchStatistics seen;
  uint64_t streamed = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const Experiment x = generate(seed, {});
    streamed += check_against_oracle(x, {.horizon = MatchOptions::kUnbounded}, seed, 1 + seed % 3).matches_before_finish;
    seen += oracle::match_sorted(x.events, KeyKind::kTc, x.domain_of).total;
  }
  // The experiments exercise every rule, and most messages leave while reading.
  EXPECT_GT(seen.matches, 3000u);
  EXPECT_GT(seen.same_domain, 100u);
  EXPECT_GT(seen.retransmissions, 100u);
  EXPECT_GT(seen.duplicates, 100u);
  EXPECT_GT(seen.unmatched_sends, 10u);
  EXPECT_GT(seen.unmatched_receives, 10u);
  EXPECT_GT(seen.non_tcp, 10u);
  EXPECT_GT(seen.unknown_layout, 10u);
  EXPECT_GT(streamed, seen.matches / 2);
}

TEST(PacketMatcherProperty, StrictKeyGivesTheSortedOrderResult) {
  for (uint64_t seed = 100; seed < 120; ++seed) {
    const Experiment x = generate(seed, {.strict_fields = true});
    check_against_oracle(x, {.key = KeyKind::kStrict, .horizon = MatchOptions::kUnbounded}, seed, 2);
    check_against_oracle(x, {.key = KeyKind::kTc, .horizon = MatchOptions::kUnbounded}, seed, 3);
  }
}

TEST(PacketMatcherProperty, AHorizonCoveringEveryKeyChangesNothingAndBoundsMemory) {
  // Keys recur only between neighbouring messages; every event of a key lies
  // within gap + delays + clock difference of the previous one.
  const Shape shape{.messages = 3000, .unique_keys = true, .gap = 1'000'000, .max_delay = 5'000'000};
  const model::Nanoseconds horizon = 2 * (shape.gap + 2 * shape.max_delay + kSkew);
  for (uint64_t seed = 200; seed < 215; ++seed) {
    const Experiment x = generate(seed, shape);
    const std::size_t most_keys = check_against_oracle(x, {.horizon = horizon}, seed, 2).max_pending;
    // The keys of about (horizon + reading skew) / (gap / 2) messages at a
    // time; far fewer than all of them.
    EXPECT_LT(most_keys, shape.messages / 3) << "seed " << seed;
  }
}

TEST(PacketMatcherProperty, AShortHorizonLosesMatchesButKeepsEveryEventAccountedFor) {
  const Experiment x = generate(7, {.messages = 2000, .key_pool = 50});
  std::vector<MatchedMessage> emitted;
  PacketMatcher matcher({.horizon = 3'000'000}, x.domain_of.size(),
                        [&](const MatchedMessage& m) { emitted.push_back(m); });
  for (TraceIndex t = 0; t < x.domain_of.size(); ++t) matcher.set_domain(t, x.domain_of[t]);
  feed(matcher, x, 7, 2);
  EXPECT_GT(matcher.total().expired, 0u);
  EXPECT_EQ(matcher.total().matches, emitted.size());
  expect_balanced(matcher.total(), "short horizon");
  const oracle::Result unbounded = oracle::match_sorted(x.events, KeyKind::kTc, x.domain_of);
  EXPECT_EQ(matcher.total().sends, unbounded.total.sends);
  EXPECT_NE(matcher.total().matches, unbounded.total.matches);  // keys recur far apart: they re-pair
}

// A clock further ahead than the horizon (as an hour against seconds):
// keys straddling the offset are cut into entries the same way whatever
// the arrival order and the number of streams.
TEST(PacketMatcherProperty, AClockAheadByMoreThanTheHorizonGivesTheSortedOrderResult) {
  const Shape shape{.messages = 1500, .key_pool = 200, .skew = 40'000'000};
  MatchStatistics seen;
  for (uint64_t seed = 400; seed < 412; ++seed) {
    const Experiment x = generate(seed, shape);
    for (const model::Nanoseconds horizon : {1'000'000, 3'000'000, 20'000'000}) {
      check_against_oracle(x, {.horizon = horizon}, seed * 7 + static_cast<uint64_t>(horizon), 1 + seed % 3);
      seen += oracle::match_sorted(x.events, KeyKind::kTc, x.domain_of, horizon).total;
    }
  }
  // Every outcome of the horizon is exercised.
  EXPECT_GT(seen.expired, 1000u);
  EXPECT_GT(seen.unmatched_sends + seen.unmatched_receives, 10u);
  EXPECT_GT(seen.matches, 1000u);
  EXPECT_GT(seen.retransmissions, 100u);
}

// Each trace fed by its own thread, in batches, as the readers do, into
// `shards` shards: returns the messages in their order.
std::vector<MatchedMessage> feed_by_threads(const Experiment& x, MatchOptions options, std::size_t shards,
                                            const std::string& where) {
  std::vector<MatchedMessage> emitted;
  std::atomic<int> inside = 0;  // callbacks running now: must never exceed one
  bool overlapped = false;
  ConcurrentMatcher matcher(options, x.domain_of.size(), shards, [&](const MatchedMessage& m) {
    if (++inside > 1) overlapped = true;
    emitted.push_back(m);
    --inside;
  });
  for (TraceIndex t = 0; t < x.domain_of.size(); ++t) matcher.set_domain(t, x.domain_of[t]);
  std::vector<std::thread> readers;
  for (TraceIndex t = 0; t < x.domain_of.size(); ++t) {
    readers.emplace_back([&, t] {
      std::vector<PacketEvent> mine;
      for (const PacketEvent& e : x.events) {
        if (e.trace == t) mine.push_back(e);
      }
      std::sort(mine.begin(), mine.end(), [](const PacketEvent& a, const PacketEvent& b) { return a.time < b.time; });
      for (std::size_t at = 0; at < mine.size(); at += 64) {
        const std::size_t n = std::min<std::size_t>(64, mine.size() - at);
        const model::Nanoseconds progress = at + n < mine.size() ? mine[at + n].time : INT64_MAX - 1;
        matcher.add(t, std::span<const PacketEvent>(mine).subspan(at, n), progress);
      }
      matcher.close(t);
    });
  }
  for (std::thread& reader : readers) reader.join();
  matcher.finish();
  EXPECT_FALSE(overlapped) << where;
  const oracle::Result want = oracle::match_sorted(x.events, options.key, x.domain_of, options.horizon);
  EXPECT_EQ(emitted, in_emission_order(want.messages)) << where;
  expect_equal(matcher.total(), want.total, where);
  for (TraceIndex t = 0; t < x.domain_of.size(); ++t) {
    expect_equal(matcher.trace_statistics(t), want.per_trace[t], where + ", trace " + std::to_string(t));
  }
  EXPECT_EQ(matcher.link_statistics().size(), want.per_link.size()) << where;
  for (const auto& [link, stats] : want.per_link) {
    expect_equal(matcher.link_statistics()[link], stats, where + ", link " + link.first + "-" + link.second);
  }
  return emitted;
}

// The sharded matcher's messages, in their order, and statistics still
// equal the oracle's.
TEST(ConcurrentMatcherProperty, ThreadsFeedingShardsGiveTheSortedOrderResult) {
  for (uint64_t seed = 300; seed < 310; ++seed) {
    const Experiment x = generate(seed, {.messages = 3000, .strict_fields = true});
    for (KeyKind kind : {KeyKind::kTc, KeyKind::kStrict}) {
      feed_by_threads(x, {.key = kind, .horizon = MatchOptions::kUnbounded}, 3,
                      "seed " + std::to_string(seed) + ", key " + std::string(to_string(kind)));
    }
  }
}

// With a clock ahead by more than the horizon, as many shards as --jobs
// asks: one result (the oracle's) for any number of shards.
TEST(ConcurrentMatcherProperty, AClockAheadByMoreThanTheHorizonGivesOneResultForAnyShardCount) {
  for (uint64_t seed = 500; seed < 506; ++seed) {
    const Experiment x = generate(seed, {.messages = 3000, .key_pool = 400, .skew = 40'000'000});
    for (const std::size_t shards : {1, 2, 5}) {
      feed_by_threads(x, {.horizon = 2'000'000}, shards,
                      "seed " + std::to_string(seed) + ", " + std::to_string(shards) + " shards");
    }
  }
}

}  // namespace
}  // namespace tracesync::match
