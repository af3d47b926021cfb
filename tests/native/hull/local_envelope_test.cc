// SPDX-License-Identifier: EPL-2.0
// The envelope bound (local_envelope.h): its peak against a brute-force scan
// of the cones, and its honesty when the truth's rate wanders anywhere
// inside the band, with the band's cone slope (cone_rate); and the flat
// envelope of the linear model (flat_envelope.h) against it, alone and in the
// piecewise model's first segment, whose messages it lets go.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "hull/exact_hull_estimator.h"
#include "hull/flat_envelope.h"
#include "hull/local_envelope.h"
#include "hull/message_log.h"
#include "hull/piecewise_hull_estimator.h"

namespace tracesync::hull {
namespace {

using model::Quad;

// min_i (r_i + rate * |x - x_i|) over one side's messages, at x.
long double cones_at(const std::vector<LinkMessage>& messages, const Line& line, bool lower, long double rate,
                     long double x) {
  long double best = std::numeric_limits<long double>::infinity();
  for (const LinkMessage& m : messages) {
    if (m.is_lower() != lower) continue;
    const long double residual = static_cast<long double>(m.point.y) - static_cast<long double>(line.at(m.point.x));
    const long double r = lower ? residual : -residual;
    best = std::min(best, r + rate * std::fabs(x - static_cast<long double>(m.point.x)));
  }
  return best;
}

// A truth whose rate against a's clock jumps at random to anywhere inside
// [base, base + band]: the band assumption at its most adversarial.
struct WanderingTruth {
  std::vector<long double> knots_x;
  std::vector<long double> knots_y;

  long double at(long double x) const {
    const auto k = static_cast<std::size_t>(std::upper_bound(knots_x.begin(), knots_x.end(), x) - knots_x.begin());
    const std::size_t i = std::clamp<std::size_t>(k, 1, knots_x.size() - 1);
    const long double t = (x - knots_x[i - 1]) / (knots_x[i] - knots_x[i - 1]);
    return knots_y[i - 1] + t * (knots_y[i] - knots_y[i - 1]);
  }
};

WanderingTruth wandering_truth(std::mt19937_64& rng, long double start, long double end, double band_ppm) {
  std::uniform_real_distribution<double> rate(0, band_ppm * 1e-6);
  std::uniform_real_distribution<double> length(1e6, 5e8);  // 1 ms to 0.5 s between rate changes
  WanderingTruth truth{{start}, {start * (1 + 40e-6L) + 2.5e8L}};
  while (truth.knots_x.back() < end) {
    const long double x = std::min(end, truth.knots_x.back() + length(rng));
    truth.knots_y.push_back(truth.knots_y.back() + (x - truth.knots_x.back()) * (1 + 40e-6L + rate(rng)));
    truth.knots_x.push_back(x);
  }
  return truth;
}

// Messages both ways with delays of 20 us + Exp(40 us), sparse in places.
std::vector<LinkMessage> messages_of(const WanderingTruth& truth, std::mt19937_64& rng, long double start,
                                     long double end) {
  std::exponential_distribution<double> gap(1 / 2e7);  // 20 ms on average
  std::exponential_distribution<double> extra(1 / 4e4);
  std::bernoulli_distribution a_sends(0.5);
  std::vector<LinkMessage> out;
  for (long double a = start + gap(rng); a < end - 1e6; a += gap(rng)) {
    const long double delay = 2e4 + extra(rng);
    if (a_sends(rng)) {
      out.push_back(LinkMessage::a_to_b(static_cast<int64_t>(std::floor(a)),
                                        static_cast<int64_t>(std::ceil(truth.at(a) + delay))));
    } else {
      // Sent by b at a's time a, received by a `delay` later.
      out.push_back(LinkMessage::b_to_a(static_cast<int64_t>(std::floor(truth.at(a))),
                                        static_cast<int64_t>(std::ceil(a + delay))));
    }
  }
  return out;
}

TEST(LocalEnvelope, PeakEqualsABruteForceScanOfTheCones) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 20; ++round) {
    const long double start = 1e12;
    const long double end = start + 2e9;  // about 100 messages
    const auto truth = wandering_truth(rng, start, end, 100);
    auto messages = messages_of(truth, rng, start, end);
    std::sort(messages.begin(), messages.end(),
              [](const LinkMessage& a, const LinkMessage& b) { return a.point.x < b.point.x; });
    const Line line{1 + 40e-6L, 2.5e8L - 30'000};
    const TimeSpan over{static_cast<int64_t>(start), static_cast<int64_t>(end)};
    const long double rate = 150e-6;
    const auto peak = static_cast<long double>(envelope_bound(messages, line, over, rate));
    // The lower envelope of cones peaks at an end of `over` or where two
    // cones meet: try every such place.
    long double scanned = 0;
    for (const bool lower : {true, false}) {
      std::vector<long double> candidates = {start, end};
      std::vector<std::pair<long double, long double>> cones;  // (x_i, r_i)
      for (const LinkMessage& m : messages) {
        if (m.is_lower() != lower) continue;
        const long double residual =
            static_cast<long double>(m.point.y) - static_cast<long double>(line.at(m.point.x));
        cones.emplace_back(static_cast<long double>(m.point.x), lower ? residual : -residual);
      }
      for (std::size_t i = 0; i < cones.size(); ++i) {
        for (std::size_t j = i + 1; j < cones.size(); ++j) {
          const long double meet =
              (cones[i].first + cones[j].first) / 2 + (cones[j].second - cones[i].second) / (2 * rate);
          candidates.push_back(std::clamp(meet, start, end));
        }
      }
      for (const long double x : candidates) scanned = std::max(scanned, cones_at(messages, line, lower, rate, x));
    }
    // Computed in double from the first message, rounded up by 1e-3 ns: never
    // below the long double scan, and above it by the margin at most.
    EXPECT_GE(peak, scanned) << "round " << round;
    EXPECT_LE(peak, scanned + 2e-3L) << "round " << round;
  }
}

// The same messages two ways: as a sorted MessageLog, and as a range in the
// rule's order (x, direction, y), which envelope_bound reads as it comes.
struct LogAndRange {
  MessageLog log;
  std::vector<LinkMessage> range;
};
LogAndRange log_and_range(std::vector<LinkMessage> messages) {
  LogAndRange both;
  for (const LinkMessage& m : messages) both.log.append(m);
  both.log.sort();
  std::sort(messages.begin(), messages.end(), [](const LinkMessage& a, const LinkMessage& b) {
    return std::tie(a.point.x, a.direction, a.point.y) < std::tie(b.point.x, b.direction, b.point.y);
  });
  both.range = std::move(messages);
  return both;
}

// The estimators read their kept messages from a MessageLog, each direction
// apart: the bound must be the one of the same messages sorted in the
// rule's order, bit for bit, whichever direction comes first and with ties
// of x between directions.
TEST(LocalEnvelope, AMessageLogGivesTheBoundOfTheSortedMessagesBitForBit) {
  std::mt19937_64 rng(13);
  for (int round = 0; round < 200; ++round) {
    const int64_t origin = 1'700'000'000'000'000'000 + static_cast<int64_t>(rng() % 1000);
    std::uniform_int_distribution<int64_t> dx(0, round % 2 ? 50 : 5'000'000);  // ties, or few
    std::uniform_int_distribution<int64_t> delay(20'000, 90'000);
    std::vector<LinkMessage> messages;
    const std::size_t n = 1 + rng() % 60;
    for (std::size_t i = 0; i < n; ++i) {
      const int64_t x = origin + dx(rng);
      messages.push_back(rng() % 2 ? LinkMessage{Direction::kAtoB, {x, x + 250'000'000 + delay(rng)}}
                                   : LinkMessage{Direction::kBtoA, {x, x + 250'000'000 - delay(rng)}});
    }
    const auto [log, range] = log_and_range(std::move(messages));
    const Line line{1 + 25e-6L, 2.5e8L - static_cast<long double>(origin) * 25e-6L};
    const TimeSpan over{origin - 1'000'000, origin + 6'000'000};
    const Quad rate = 120e-6;
    const Quad from_log = envelope_bound(log, line, over, rate);
    const Quad from_vector = envelope_bound(range, line, over, rate);
    ASSERT_TRUE(from_log == from_vector) << "round " << round;
  }
}

// An ended segment keeps the summary of its cones, not its messages: over
// any span covering them all, the same bound as its sorted messages', bit
// for bit (ties, one direction much denser or absent, spans reaching far
// beyond the messages or just to them).
TEST(LocalEnvelope, ASummaryOfTheConesGivesTheBoundOverAnySpanCoveringTheMessagesBitForBit) {
  std::mt19937_64 rng(17);
  std::size_t compared = 0;
  for (int round = 0; round < 300; ++round) {
    const int64_t origin = 1'700'000'000'000'000'000 + static_cast<int64_t>(rng() % 1000);
    std::uniform_int_distribution<int64_t> dx(0, round % 3 == 0 ? 50 : 50'000'000);
    std::uniform_int_distribution<int64_t> delay(20'000, 90'000);
    std::vector<LinkMessage> messages;
    const std::size_t n = 1 + rng() % 400;
    const unsigned lower_share = static_cast<unsigned>(rng() % 11);  // in tenths: 0 and 10 leave a direction empty
    for (std::size_t i = 0; i < n; ++i) {
      const int64_t x = origin + dx(rng);
      messages.push_back(rng() % 10 < lower_share ? LinkMessage{Direction::kAtoB, {x, x + 250'000'000 + delay(rng)}}
                                                  : LinkMessage{Direction::kBtoA, {x, x + 250'000'000 - delay(rng)}});
    }
    const auto [log, range] = log_and_range(std::move(messages));
    const Line line{1 + 25e-6L + static_cast<long double>(rng() % 100) * 1e-7L,
                    2.5e8L - static_cast<long double>(origin) * 25e-6L};
    const Quad rate = static_cast<Quad>(1 + rng() % 1000) * 1e-6;
    ConeEnvelope cones(line);
    for (const LinkMessage& m : range) cones.add(m);
    const ConeEnvelope::Summary summary = cones.summary(rate);
    for (int k = 0; k < 5; ++k) {
      std::uniform_int_distribution<int64_t> beyond(0, k == 0 ? 0 : 10'000'000'000);
      const TimeSpan over{range.front().point.x - beyond(rng), range.back().point.x + beyond(rng)};
      const Quad from_log = envelope_bound(log, line, over, rate);
      ASSERT_TRUE(summary.peak(over) == from_log) << "round " << round << ", span " << k;
      ASSERT_TRUE(envelope_bound(range, line, over, rate) == from_log) << "round " << round << ", span " << k;
      compared += std::isfinite(model::to_double(from_log));
    }
  }
  EXPECT_GT(compared, 1000u);  // most have both directions
}

// The log's bound is swept a block of 256 residuals at a time, without a
// copy of them (issue 31): over many blocks and the log's chunks of 4,096,
// with spans that clip the messages or reach beyond them, one direction
// much denser than the other, it is still the bound of the sorted messages,
// bit for bit.
TEST(LocalEnvelope, ALongMessageLogGivesTheBoundOfTheSortedMessagesBitForBit) {
  std::mt19937_64 rng(31);
  for (int round = 0; round < 24; ++round) {
    const int64_t origin = 1'700'000'000'000'000'000 + static_cast<int64_t>(rng() % 1000);
    const std::size_t n = 1 + rng() % 12'000;
    const int64_t reach = static_cast<int64_t>(n) * 1'000'000;  // about 1 ms apart
    std::uniform_int_distribution<int64_t> dx(0, reach);
    std::uniform_int_distribution<int64_t> delay(20'000, round % 3 ? 90'000 : 5'000'000);
    const unsigned lower_share = 1 + static_cast<unsigned>(rng() % 9);  // in tenths
    std::vector<LinkMessage> messages;
    for (std::size_t i = 0; i < n; ++i) {
      const int64_t x = origin + dx(rng);
      messages.push_back(rng() % 10 < lower_share ? LinkMessage{Direction::kAtoB, {x, x + 250'000'000 + delay(rng)}}
                                                  : LinkMessage{Direction::kBtoA, {x, x + 250'000'000 - delay(rng)}});
    }
    const auto [log, range] = log_and_range(std::move(messages));
    const Line line{1 + 25e-6L, 2.5e8L - static_cast<long double>(origin) * 25e-6L};
    std::uniform_int_distribution<int64_t> end(-reach / 4, reach + reach / 4);
    int64_t a = end(rng), b = end(rng);
    if (a > b) std::swap(a, b);
    const TimeSpan over{origin + a, origin + b};
    const Quad rate = round % 2 ? 120e-6 : 1e-3;
    const Quad from_log = envelope_bound(log, line, over, rate);
    const Quad from_vector = envelope_bound(range, line, over, rate);
    ASSERT_TRUE(from_log == from_vector) << "round " << round << ", " << n << " messages";
  }
}

TEST(LocalEnvelope, TheBandsConeIsHalfTheAccuracyPlusTheBandUpToTheRateLimit) {
  LinkEstimate e;
  e.alpha = 1 + 40e-6L;
  e.lmin = Line{1 + 39.5e-6L, 0};
  e.lmax = Line{1 + 40.5e-6L, 0};
  EXPECT_NEAR(static_cast<double>(cone_rate(e, ClockStability{100})), 100.5e-6, 1e-12);
  EXPECT_NEAR(static_cast<double>(cone_rate(e, ClockStability{0})), static_cast<double>(rate_limit_around(e.alpha)),
              1e-15);
  // A band wider than the rate limit (1000 ppm + 40 ppm here) leaves the limit.
  EXPECT_NEAR(static_cast<double>(cone_rate(e, ClockStability{1100})), static_cast<double>(rate_limit_around(e.alpha)),
              1e-15);
  // Without both extreme lines there is no mean rate to lean on.
  e.lmax.reset();
  EXPECT_NEAR(static_cast<double>(cone_rate(e, ClockStability{100})), static_cast<double>(rate_limit_around(e.alpha)),
              1e-15);
}

// Whatever the truth does inside the band, the envelope with the band's cone
// contains it: at every message, and at 20,000 instants between them.
TEST(LocalEnvelope, ContainsAnyTruthWhoseRateStaysInTheBand) {
  std::mt19937_64 rng(11);
  int checked = 0;
  for (int round = 0; round < 30; ++round) {
    const long double start = 1.7e18;
    const long double end = start + 5e9;
    const auto truth = wandering_truth(rng, start, end, 100);
    const auto messages = messages_of(truth, rng, start, end);
    ExactHullEstimator hull(ClockStability{0});
    for (const LinkMessage& m : messages) hull.add(m);
    const LinkEstimate e = hull.estimate();
    if (e.quality != Quality::kAccurate) continue;  // the rate's wander can empty one line's region
    auto sorted = messages;
    std::sort(sorted.begin(), sorted.end(),
              [](const LinkMessage& a, const LinkMessage& b) { return a.point.x < b.point.x; });
    const TimeSpan over{sorted.front().point.x, sorted.back().point.x};
    const Line line{e.alpha, e.beta};
    const Quad rate = cone_rate(e, ClockStability{100});
    EXPECT_LT(static_cast<double>(rate), 200e-6);  // the band's, not the 1000 ppm limit
    const auto bound = static_cast<long double>(envelope_bound(sorted, line, over, rate));
    for (int i = 0; i <= 20'000; ++i) {
      const long double x = static_cast<long double>(over.first) +
                            static_cast<long double>(over.last - over.first) * i / 20'000;
      const long double error = std::fabs(truth.at(x) - static_cast<long double>(line.at(static_cast<int64_t>(x))));
      ASSERT_LE(error, bound + 2) << "round " << round << " at " << i;
    }
    ++checked;
  }
  EXPECT_GE(checked, 10);
}


// The flat envelope fed `messages` in their order, settling each link's
// newest message less `horizon` as the session does.
FlatEnvelope flat_envelope_of(const std::vector<LinkMessage>& messages, model::Nanoseconds horizon) {
  FlatEnvelope flat(ClockStability{100});
  std::optional<model::Nanoseconds> newest;
  for (const LinkMessage& m : messages) {
    flat.add(m);
    newest = newest ? std::max(*newest, m.point.x) : m.point.x;
    flat.settle(*newest - horizon);
  }
  return flat;
}

// The messages in an order of arrival up to `late_by` ns behind time order.
std::vector<LinkMessage> jittered(std::vector<LinkMessage> messages, std::mt19937_64& rng, double late_by) {
  std::uniform_real_distribution<double> delay(0, late_by);
  std::vector<std::pair<double, LinkMessage>> keyed;
  for (const LinkMessage& m : messages) keyed.emplace_back(static_cast<double>(m.point.x) + delay(rng), m);
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < keyed.size(); ++i) messages[i] = keyed[i].second;
  return messages;
}

TEST(FlatEnvelope, IsNeverNarrowerThanTheEnvelopeOfEveryMessageContainsTheTruthAndIgnoresOrderAndHorizon) {
  std::mt19937_64 rng(31);
  const model::Nanoseconds horizon = 20'000'000'000;
  int checked = 0;
  for (int round = 0; round < 6; ++round) {
    const long double start = 1.7e18;
    const long double end = start + 6e11;  // 10 min: the cones fixed at 1 min, commits every second from there
    // Linear clocks (a band of 0) in two rounds of three, a rate wandering over 100 ppm in the
    // others (over 10 min one line's region often empties then: not checked).
    const auto truth = wandering_truth(rng, start, end, round % 3 != 2 ? 0 : 100);
    auto messages = messages_of(truth, rng, start, end);
    std::sort(messages.begin(), messages.end(), [](const LinkMessage& a, const LinkMessage& b) {
      return std::tie(a.point.x, a.direction, a.point.y) < std::tie(b.point.x, b.direction, b.point.y);
    });
    ExactHullEstimator hull(ClockStability{0});
    for (const LinkMessage& m : messages) hull.add(m);
    const LinkEstimate e = hull.estimate();
    if (e.quality != Quality::kAccurate) continue;
    const TimeSpan over{messages.front().point.x, messages.back().point.x};
    const Quad every = envelope_bound(messages, Line{e.alpha, e.beta}, over, cone_rate(e, ClockStability{100}));

    const FlatEnvelope in_order = flat_envelope_of(messages, horizon);
    const FlatEnvelope out_of_order = flat_envelope_of(jittered(messages, rng, 1.5e10), horizon);
    ASSERT_TRUE(in_order.committed());
    EXPECT_EQ(out_of_order.late_messages(), 0u);
    const Quad flat = in_order.bound(e, over);
    EXPECT_EQ(flat, out_of_order.bound(e, over)) << "round " << round;  // bit for bit
    // Nor on the horizon: a shorter one, and none at all (no commit made).
    EXPECT_EQ(flat, flat_envelope_of(messages, horizon / 4).bound(e, over)) << "round " << round;
    const FlatEnvelope unsettled = flat_envelope_of(messages, std::numeric_limits<model::Nanoseconds>::max() / 4);
    EXPECT_FALSE(unsettled.committed());
    EXPECT_EQ(flat, unsettled.bound(e, over)) << "round " << round;
    EXPECT_GE(flat, every) << "round " << round;
    EXPECT_LE(flat, every * 1.05) << "round " << round;  // cones from the first minute: a little wider
    for (int i = 0; i <= 20'000; ++i) {
      const long double x = static_cast<long double>(over.first) +
                            static_cast<long double>(over.last - over.first) * i / 20'000;
      const Line line{e.alpha, e.beta};
      const long double error = std::fabs(truth.at(x) - static_cast<long double>(line.at(static_cast<int64_t>(x))));
      ASSERT_LE(error, static_cast<long double>(flat) + 2) << "round " << round << " at " << i;
    }
    ++checked;
  }
  EXPECT_GE(checked, 4);
}

TEST(FlatEnvelope, AMessageBehindTheLastCommitIsLateCountedAndLeavesTheBoundHonest) {
  std::mt19937_64 rng(5);
  const long double start = 1.7e18;
  const auto truth = wandering_truth(rng, start, start + 2e11, 0);
  const auto messages = messages_of(truth, rng, start, start + 2e11);
  FlatEnvelope flat = flat_envelope_of(messages, 10'000'000'000);
  ExactHullEstimator hull(ClockStability{0});
  for (const LinkMessage& m : messages) hull.add(m);
  const LinkEstimate e = hull.estimate();
  ASSERT_EQ(e.quality, Quality::kAccurate);
  const TimeSpan over{std::min_element(messages.begin(), messages.end(), [](const auto& a, const auto& b) {
                        return a.point.x < b.point.x;
                      })->point.x,
                      std::max_element(messages.begin(), messages.end(), [](const auto& a, const auto& b) {
                        return a.point.x < b.point.x;
                      })->point.x};
  const Quad before = flat.bound(e, over);
  // A copy of the fastest-looking message of the second minute, far behind the frontier.
  LinkMessage late = messages[messages.size() / 2];
  late.point.y -= late.is_lower() ? 1 : -1;
  EXPECT_FALSE(flat.add(late));
  EXPECT_EQ(flat.late_messages(), 1u);
  EXPECT_EQ(flat.bound(e, over), before);
}

TEST(FlatEnvelope, HoldsAFlatCountOfPointsAsTheLinkGrowsFourfold) {
  // Deterministic counts, not memory: what the envelope holds at the end of
  // a 5-minute and a 20-minute link (50 messages/s), 10 s of horizon.
  std::vector<std::size_t> held;
  std::vector<std::size_t> counts;
  for (const long double minutes : {5.0L, 20.0L}) {
    std::mt19937_64 rng(7);
    const long double start = 1.7e18;
    const long double end = start + minutes * 6e10;
    const auto truth = wandering_truth(rng, start, end, 0);
    const auto messages = messages_of(truth, rng, start, end);
    held.push_back(flat_envelope_of(messages, 10'000'000'000).held_points());
    counts.push_back(messages.size());
    // Without a frontier every message is held.
    EXPECT_EQ(flat_envelope_of(messages, std::numeric_limits<model::Nanoseconds>::max() / 4).held_points(),
              messages.size());
  }
  EXPECT_GT(counts[1], 3 * counts[0]);
  EXPECT_LE(held[1], held[0] * 12 / 10) << held[0] << " then " << held[1];
  EXPECT_LT(held[0], counts[0] / 10);
}

// Feeds `messages` in their order into each estimator, settling its newest
// message less `horizon` as the session does; returns the largest count of
// points the piecewise one held.
template <typename... Estimators>
std::size_t fed(const std::vector<LinkMessage>& messages, model::Nanoseconds horizon, PiecewiseHullEstimator& piecewise,
                Estimators&... others) {
  std::optional<model::Nanoseconds> newest;
  std::size_t most = 0;
  for (const LinkMessage& m : messages) {
    newest = newest ? std::max(*newest, m.point.x) : m.point.x;
    piecewise.add(m);
    piecewise.settle(*newest - horizon);
    (others.add(m), ...);
    (others.settle(*newest - horizon), ...);
    most = std::max(most, piecewise.held_points());
  }
  return most;
}

TimeSpan span_of(const std::vector<LinkMessage>& messages) {
  const auto [lo, hi] = std::minmax_element(messages.begin(), messages.end(), [](const auto& a, const auto& b) {
    return a.point.x < b.point.x;
  });
  return {lo->point.x, hi->point.x};
}

TEST(FlatEnvelope, EndingTheInputLetsGoOfThePendingMessagesAndKeepsEveryBoundBitForBit) {
  // What an ended segment does (PiecewiseHullEstimator::end_segments): its
  // pending messages committed on the grid. Links of 30 s (shorter than the
  // early span: today's bound, every message kept), 2 and 4 min, settled
  // 10 s or 20 s behind, or never; in time order and out of it; linear
  // clocks or a rate wandering over 20 ppm.
  std::mt19937_64 rng(41);
  int ended = 0;
  for (int round = 0; round < 18; ++round) {
    const long double start = 1.7e18;
    const long double length = round % 3 == 0 ? 3e10 : round % 3 == 1 ? 1.2e11 : 2.4e11;
    const auto truth = wandering_truth(rng, start, start + length, round % 2 == 0 ? 0 : 20);
    auto messages = messages_of(truth, rng, start, start + length);
    if (round % 4 >= 2) messages = jittered(messages, rng, 5e9);
    const model::Nanoseconds horizon =
        round % 4 == 3 ? std::numeric_limits<model::Nanoseconds>::max() / 4 : (round % 2 + 1) * 10'000'000'000;
    FlatEnvelope flat = flat_envelope_of(messages, horizon);
    ExactHullEstimator hull(ClockStability{0});
    for (const LinkMessage& m : messages) hull.add(m);
    const LinkEstimate e = hull.estimate();
    if (e.quality != Quality::kAccurate) continue;  // a wandering rate may empty one line's region
    LinkEstimate tilted = e;  // another line: the bound is asked against each segment's own
    tilted.alpha += 3e-6;
    tilted.beta -= 3e-6 * static_cast<Quad>(start);
    const TimeSpan over = span_of(messages);
    const std::vector<TimeSpan> spans{over, {over.first - 5'000'000'000, over.last + 7'000'000'000}};
    std::vector<Quad> before;
    for (const TimeSpan& s : spans) {
      before.push_back(flat.bound(e, s));
      before.push_back(flat.bound(tilted, s));
    }
    const std::size_t held = flat.held_points();
    flat.end_input();
    std::size_t i = 0;
    for (const TimeSpan& s : spans) {
      EXPECT_EQ(flat.bound(e, s), before[i++]) << "round " << round;  // bit for bit
      EXPECT_EQ(flat.bound(tilted, s), before[i++]) << "round " << round;
    }
    if (length < static_cast<long double>(FlatEnvelope::kEarlySpan)) {
      EXPECT_EQ(flat.held_points(), held) << "round " << round;  // today's bound needs them all
      EXPECT_FALSE(flat.committed());
      continue;
    }
    // Only the corners and the barriers stay: a few dozen points, of hundreds pending.
    EXPECT_TRUE(flat.committed());
    EXPECT_LT(flat.held_points(), held) << "round " << round;
    EXPECT_LT(flat.held_points(), 200u) << "round " << round;
    // A message after the end is late, and leaves the bound as it was.
    LinkMessage after = messages.back();
    after.point.x += 1'000'000;
    const uint64_t late = flat.late_messages();
    EXPECT_FALSE(flat.add(after));
    EXPECT_EQ(flat.late_messages(), late + 1);
    EXPECT_EQ(flat.bound(e, spans[1]), before[2]) << "round " << round;
    ++ended;
  }
  EXPECT_GE(ended, 8);
}

TEST(FlatEnvelope, APiecewiseLinkOfOneSegmentHoldsAFlatCountAndAnswersAsTheLinearModel) {
  // Linear clocks, 5 and 20 minutes at 50 messages/s, 10 s of horizon, a
  // budget of 4,096 messages.
  std::vector<std::size_t> held;
  std::vector<std::size_t> counts;
  for (const long double minutes : {5.0L, 20.0L}) {
    SCOPED_TRACE(::testing::Message() << static_cast<double>(minutes) << " minutes");
    std::mt19937_64 rng(7);
    const long double start = 1.7e18;
    const long double end = start + minutes * 6e10;
    const auto truth = wandering_truth(rng, start, end, 0);
    const auto messages = jittered(messages_of(truth, rng, start, end), rng, 2e9);
    PiecewiseHullEstimator piecewise(ClockStability{100}, 4096);  // a budget of 4,096 messages
    ExactHullEstimator linear(ClockStability{100});
    held.push_back(fed(messages, 10'000'000'000, piecewise, linear));
    counts.push_back(messages.size());
    // Within the default budget every message is kept: the same answers.
    PiecewiseHullEstimator keeping(ClockStability{100});
    fed(messages, 10'000'000'000, keeping);
    EXPECT_EQ(keeping.kept_messages(), messages.size());
    EXPECT_LT(piecewise.kept_messages(), messages.size() / 3);

    ASSERT_EQ(piecewise.segment_count(), 1u);
    const TimeSpan span = span_of(messages);
    for (const LinkEstimator* other : {static_cast<const LinkEstimator*>(&linear), static_cast<const LinkEstimator*>(&keeping)}) {
      const LinkEstimate a = piecewise.estimate();
      const LinkEstimate b = other->estimate();
      EXPECT_EQ(a.quality, Quality::kAccurate);
      EXPECT_TRUE(a.alpha == b.alpha && a.beta == b.beta);
      EXPECT_EQ(a.counters.messages, b.counters.messages);
      EXPECT_EQ(piecewise.hull_points().lower, other->hull_points().lower);
      EXPECT_EQ(piecewise.hull_points().upper, other->hull_points().upper);
      // The flat envelope's bound is a function of the messages alone.
      ASSERT_TRUE(piecewise.offset_uncertainty(span) && other->offset_uncertainty(span));
      EXPECT_TRUE(*piecewise.offset_uncertainty(span) == *other->offset_uncertainty(span))
          << static_cast<double>(*piecewise.offset_uncertainty(span)) << " against "
          << static_cast<double>(*other->offset_uncertainty(span));
      EXPECT_EQ(piecewise.clock_map(span), other->clock_map(span));
    }
  }
  EXPECT_GT(counts[1], 3 * counts[0]);
  EXPECT_LE(held[1], held[0] * 12 / 10) << held[0] << " then " << held[1];
  // Past the budget the local bands' stream holds about two minutes of
  // messages besides (its window): a fraction of the longer link's.
  EXPECT_LT(held[1], counts[1] / 3);
}

TEST(FlatEnvelope, APiecewiseLinkWithinItsBudgetHoldsItsMessagesTwiceOnlyForItsFirstMinute) {
  // What a link on linear clocks holds within the default budget, as
  // `tracesync live` follows it (docs/live.md, "What grows"): every message
  // once in its segment's log (kept_messages), and the first segment's flat
  // envelope's pending messages besides. Until the frontier passes the
  // link's first kEarlySpan (the messages that slope the cones), the
  // envelope holds every message a second time; after it, a horizon of them.
  // 5 and 20 minutes at 50 messages/s, 10 s of horizon.
  constexpr model::Nanoseconds kHorizon = 10'000'000'000;
  std::vector<std::size_t> envelope_at_end;
  for (const long double minutes : {5.0L, 20.0L}) {
    SCOPED_TRACE(::testing::Message() << static_cast<double>(minutes) << " minutes");
    std::mt19937_64 rng(7);
    const long double start = 1.7e18;
    const long double end = start + minutes * 6e10;
    const auto messages = messages_of(wandering_truth(rng, start, end, 0), rng, start, end);
    PiecewiseHullEstimator piecewise(ClockStability{100});
    std::optional<model::Nanoseconds> newest;
    model::Nanoseconds first = messages.front().point.x;  // the earliest so far, as the envelope sees it
    std::size_t twice = 0;  // messages after which the envelope held every one
    for (const LinkMessage& m : messages) {
      newest = newest ? std::max(*newest, m.point.x) : m.point.x;
      first = std::min(first, m.point.x);
      piecewise.add(m);
      piecewise.settle(*newest - kHorizon);
      const std::size_t envelope = piecewise.held_points() - piecewise.kept_messages();
      if (*newest - kHorizon < first + FlatEnvelope::kEarlySpan) {
        EXPECT_EQ(envelope, piecewise.kept_messages());
        ++twice;
      }
    }
    EXPECT_EQ(piecewise.kept_messages(), messages.size());
    EXPECT_GT(twice, 60u * 40);  // the first 70 s of messages, at about 50 a second
    envelope_at_end.push_back(piecewise.held_points() - piecewise.kept_messages());
    // A horizon and one commit step of messages, and the corners.
    EXPECT_LT(envelope_at_end.back(), messages.size() / 10);
  }
  EXPECT_LE(envelope_at_end[1], envelope_at_end[0] * 12 / 10) << envelope_at_end[0] << " then " << envelope_at_end[1];
}

TEST(FlatEnvelope, APiecewiseLinkReCutBehindReleasedMessagesKeepsTheRulesSegmentsAndItsTruth) {
  // Linear for 4 minutes, then b's clock runs 60 ppm faster (new segments;
  // within the clock-stability assumption of 100 ppm: no breach),
  // messages arriving up to 2 s out of order: the re-cuts replay from what
  // the release kept. A message far behind the frontier that no line fits
  // with the released ones is late, counted, and changes nothing.
  std::mt19937_64 rng(11);
  const long double start = 1.7e18;
  const long double bend = start + 2.4e11;
  const long double end = start + 3.6e11;
  WanderingTruth truth = wandering_truth(rng, start, bend, 0);
  truth.knots_x.push_back(end);
  truth.knots_y.push_back(truth.knots_y.back() + (end - bend) * (1 + 100e-6L));
  const auto messages = jittered(messages_of(truth, rng, start, end), rng, 2e9);

  PiecewiseHullEstimator piecewise(ClockStability{100}, 4096);
  fed(messages, 10'000'000'000, piecewise);
  PiecewiseHullEstimator keeping(ClockStability{100});
  for (const LinkMessage& m : messages) keeping.add(m);
  EXPECT_LT(piecewise.kept_messages() + 4000, messages.size());  // released before the bend

  const TimeSpan span = span_of(messages);
  const auto released = piecewise.segments(span);
  const auto kept = keeping.segments(span);
  ASSERT_GT(kept.size(), 1u);
  ASSERT_EQ(released.size(), kept.size());
  for (std::size_t k = 0; k < kept.size(); ++k) {
    SCOPED_TRACE(::testing::Message() << "segment " << k);
    EXPECT_EQ(released[k].span, kept[k].span);
    EXPECT_TRUE(released[k].estimate.alpha == kept[k].estimate.alpha && released[k].estimate.beta == kept[k].estimate.beta);
    EXPECT_EQ(released[k].estimate.counters.messages, kept[k].estimate.counters.messages);
    EXPECT_EQ(released[k].hull.lower, kept[k].hull.lower);
    EXPECT_EQ(released[k].hull.upper, kept[k].hull.upper);
  }
  // Released, the map comes from the local bands streamed over every
  // message: it holds the truth.
  EXPECT_TRUE(piecewise.breaches().empty());
  const auto map = piecewise.clock_map(span);
  ASSERT_TRUE(map);
  for (std::size_t i = 1; i < map->size(); ++i) {
    const Knot& l = (*map)[i - 1];
    const Knot& r = (*map)[i];
    for (int step = 0; step <= 16; ++step) {
      const long double x = l.x + (r.x - l.x) * static_cast<long double>(step) / 16;
      const long double t = (x - l.x) / static_cast<long double>(r.x - l.x);
      const long double y = static_cast<long double>(l.y + t * (r.y - l.y));
      const long double bound = static_cast<long double>(l.bound + t * (r.bound - l.bound));
      EXPECT_LE(std::fabs(truth.at(x) - y), bound + 1) << "at " << static_cast<double>(x - start) << " ns";
    }
  }

  const LinkEstimate before = piecewise.estimate();
  LinkMessage late = messages.front();
  late.point.y += late.is_lower() ? -1'000'000 : 1'000'000;  // a millisecond against every line
  piecewise.add(late);
  const LinkEstimate after = piecewise.estimate();
  EXPECT_EQ(after.counters.late_messages, before.counters.late_messages + 1);
  EXPECT_EQ(piecewise.segments(span).size(), kept.size());
  EXPECT_TRUE(after.alpha == before.alpha && after.beta == before.beta);
}

}  // namespace
}  // namespace tracesync::hull
