// SPDX-License-Identifier: EPL-2.0
// Pairing a simultaneous signal's occurrences by order (docs/signals.md):
// every pair made is a true one (the same pulse on both hosts), with missed
// and extra occurrences, near-periodic doubles, long gaps and alignments
// that are too coarse; what is not paired is counted.

#include "session/signal_pairing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

namespace tracesync::session {
namespace {

using model::Nanoseconds;

// Two hosts recording pulses: b's clock = a's + offset + drift * t; each
// record within +-jitter of the pulse. `pulse_of` says which pulse each
// record is (-1: an extra one).
struct Recording {
  std::vector<Nanoseconds> a, b;
  std::map<Nanoseconds, long> pulse_of_a, pulse_of_b;
};

struct Scenario {
  std::vector<Nanoseconds> pulses;  // true instants (a's clock, a being the truth)
  Nanoseconds offset = 200'000'000;
  double drift_ppm = 40;
  Nanoseconds jitter = 1'000;
  double missed = 0;       // per host and pulse
  double extra_per_s = 0;  // per host
  unsigned seed = 1;
};

Recording record(const Scenario& s) {
  std::mt19937_64 random(s.seed);
  std::uniform_real_distribution<double> unit(0, 1);
  Recording r;
  const auto b_clock = [&](Nanoseconds t) {
    return t + s.offset + static_cast<Nanoseconds>(s.drift_ppm * 1e-6 * static_cast<double>(t - s.pulses.front()));
  };
  const auto error = [&] { return static_cast<Nanoseconds>((2 * unit(random) - 1) * static_cast<double>(s.jitter)); };
  for (std::size_t k = 0; k < s.pulses.size(); ++k) {
    if (unit(random) >= s.missed) {
      const Nanoseconds t = s.pulses[k] + error();
      r.a.push_back(t);
      r.pulse_of_a[t] = static_cast<long>(k);
    }
    if (unit(random) >= s.missed) {
      const Nanoseconds t = b_clock(s.pulses[k] + error());
      r.b.push_back(t);
      r.pulse_of_b[t] = static_cast<long>(k);
    }
  }
  if (s.extra_per_s > 0) {
    const double span = static_cast<double>(s.pulses.back() - s.pulses.front());
    const auto extras = static_cast<std::size_t>(s.extra_per_s * span / 1e9);
    for (std::size_t i = 0; i < extras; ++i) {
      const Nanoseconds t = s.pulses.front() + static_cast<Nanoseconds>(unit(random) * span);
      r.a.push_back(t);
      r.pulse_of_a.emplace(t, -1);
      const Nanoseconds u = b_clock(s.pulses.front() + static_cast<Nanoseconds>(unit(random) * span));
      r.b.push_back(u);
      r.pulse_of_b.emplace(u, -1);
    }
  }
  std::sort(r.a.begin(), r.a.end());
  std::sort(r.b.begin(), r.b.end());
  return r;
}

std::vector<Nanoseconds> periodic(std::size_t count, Nanoseconds period, Nanoseconds first = 1'700'000'000'000'000'000) {
  std::vector<Nanoseconds> out;
  for (std::size_t k = 0; k < count; ++k) out.push_back(first + static_cast<Nanoseconds>(k) * period);
  return out;
}

// Every pair is one pulse seen twice; returns how many pairs there are.
std::size_t expect_true_pairs(const Recording& r, const PairingOutcome& out) {
  for (const SignalPair& p : out.pairs) {
    const long on_a = r.pulse_of_a.at(p.a), on_b = r.pulse_of_b.at(p.b);
    EXPECT_GE(on_a, 0) << "an extra occurrence was paired at " << p.a;
    EXPECT_EQ(on_a, on_b) << "mispaired at " << p.a;
  }
  return out.pairs.size();
}

const AlignmentSource kNoMessages;

TEST(SignalPairing, PairJitterIsTwiceTheJitterReadOnAFastClock) {
  EXPECT_EQ(pair_jitter(1'000), 2'002);
  EXPECT_EQ(pair_jitter(1), 3);  // 2 ns, then rounded up
}

TEST(SignalPairing, PairsEveryPulseOnceAligned) {
  Scenario s;
  s.pulses = periodic(600, 1'000'000'000);
  const Recording r = record(s);
  const PairingOutcome out = pair_signal(r.a, r.b, pair_jitter(s.jitter), kNoMessages, 300'000'000);
  EXPECT_EQ(expect_true_pairs(r, out), 600u);
  EXPECT_EQ(out.aligned_by, "clocks-within");
  EXPECT_EQ(out.unpaired_a + out.unpaired_b + out.ambiguous + out.cuts + out.not_aligned, 0u);
}

TEST(SignalPairing, MissedAndExtraOccurrencesAreLeftOutNotMispaired) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    Scenario s;
    s.seed = seed;
    s.pulses = periodic(600, 1'000'000'000);
    s.missed = 0.05;
    s.extra_per_s = 0.05;
    const Recording r = record(s);
    const PairingOutcome out = pair_signal(r.a, r.b, pair_jitter(s.jitter), kNoMessages, 300'000'000);
    const std::size_t pairs = expect_true_pairs(r, out);
    EXPECT_GT(pairs, 500u) << "seed " << seed;
    EXPECT_GT(out.unpaired_a + out.unpaired_b, 0u) << "seed " << seed;
    EXPECT_FALSE(out.notes.empty());
  }
}

TEST(SignalPairing, APeriodicSignalIsNotAlignedByItsSpacing) {
  Scenario s;
  s.pulses = periodic(100, 1'000'000'000);
  const Recording r = record(s);
  const PairingOutcome out = pair_signal(r.a, r.b, pair_jitter(s.jitter), kNoMessages, std::nullopt);
  EXPECT_TRUE(out.pairs.empty());
  EXPECT_EQ(out.not_aligned, r.a.size());
  ASSERT_FALSE(out.notes.empty());
  EXPECT_NE(out.notes[0].find("too regular"), std::string::npos) << out.notes[0];
}

TEST(SignalPairing, AnIrregularSignalIsAlignedByItsSpacing) {
  Scenario s;
  std::mt19937_64 random(7);
  std::uniform_int_distribution<Nanoseconds> gap(200'000'000, 2'000'000'000);
  s.pulses = {1'700'000'000'000'000'000};
  for (int k = 0; k < 300; ++k) s.pulses.push_back(s.pulses.back() + gap(random));
  s.offset = 3'700'000'000;  // several spacings: no clocks-within could pair it
  s.missed = 0.03;
  const Recording r = record(s);
  const PairingOutcome out = pair_signal(r.a, r.b, pair_jitter(s.jitter), kNoMessages, std::nullopt);
  EXPECT_GT(expect_true_pairs(r, out), 250u);
  EXPECT_EQ(out.aligned_by, "spacing");
}

TEST(SignalPairing, AnAlignmentTooCoarseForTheSpacingPairsNothing) {
  Scenario s;
  s.pulses = periodic(50, 1'000'000'000);
  const Recording r = record(s);
  const PairingOutcome out = pair_signal(r.a, r.b, pair_jitter(s.jitter), kNoMessages, 600'000'000);
  EXPECT_TRUE(out.pairs.empty());
  EXPECT_EQ(out.not_aligned, r.a.size());
  ASSERT_FALSE(out.notes.empty());
  EXPECT_NE(out.notes[0].find("too coarse"), std::string::npos) << out.notes[0];
}

TEST(SignalPairing, NearPeriodicDoublesAreRefusedNotMispaired) {
  // Each pulse comes twice, 300 us apart, on both hosts: the first occurrence's window
  // (jitter, alignment) holds both of the other host's.
  Scenario s;
  for (const Nanoseconds t : periodic(100, 1'000'000'000)) {
    s.pulses.push_back(t);
    s.pulses.push_back(t + 300'000);
  }
  s.jitter = 200'000;
  const Recording r = record(s);
  const PairingOutcome out = pair_signal(r.a, r.b, pair_jitter(s.jitter), kNoMessages, 100'000'000);
  expect_true_pairs(r, out);
  EXPECT_EQ(out.pairs.size(), 0u);
  EXPECT_EQ(out.not_aligned, r.a.size()) << "no window narrower than the doubles' spacing";
}

TEST(SignalPairing, ALongSilenceCutsThePairingAndItAlignsAgain) {
  Scenario s;
  s.pulses = periodic(100, 1'000'000'000);
  for (const Nanoseconds t : periodic(100, 1'000'000'000, s.pulses.back() + 2'000'000'000'000)) s.pulses.push_back(t);
  s.drift_ppm = 150;  // 0.3 s of drift over the silence: more than the spacing allows
  const Recording r = record(s);
  const PairingOutcome cut = pair_signal(r.a, r.b, pair_jitter(s.jitter), kNoMessages, std::nullopt);
  EXPECT_EQ(cut.pairs.size(), 0u) << "a periodic signal without an alignment pairs nothing";

  // The messages of the link know the offset: the pairing aligns by them, is
  // cut by the silence, and aligns again after it.
  const Nanoseconds first = s.pulses.front();
  const AlignmentSource messages = [&](Nanoseconds at) -> std::optional<Alignment> {
    return Alignment{s.offset + static_cast<Nanoseconds>(s.drift_ppm * 1e-6 * static_cast<double>(at - first)), 50'000};
  };
  const PairingOutcome out = pair_signal(r.a, r.b, pair_jitter(s.jitter), messages, std::nullopt);
  EXPECT_EQ(expect_true_pairs(r, out), 200u);
  EXPECT_EQ(out.aligned_by, "messages");
  EXPECT_EQ(out.cuts, 1u);
}

}  // namespace
}  // namespace tracesync::session
