// SPDX-License-Identifier: EPL-2.0
#include "simulate/traffic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "simulate/host_timeline.h"

namespace tracesync::simulate {
namespace {

using model::Nanoseconds;

SimulationOptions small_experiment() {
  SimulationOptions o;
  o.hosts = 5;
  o.topology = Topology::kStar;
  o.duration_s = 2;
  o.message_rate = 2000;
  o.loss_rate = 0.05;
  o.retransmission_rate = 0.02;
  o.drift_change_at_s = 1;
  return o;
}

using Key = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint16_t>;  // link, sender, seq, ack_seq, flags
Key key_of(const Transmission& m) { return {m.link, m.sender, m.seq, m.ack_seq, m.tcp_flags}; }

TEST(Traffic, KeysRepeatExactlyForRetransmissions) {
  const SimulationOptions o = small_experiment();
  const Experiment e = build_experiment(o);
  const auto traffic = generate_traffic(e, o);
  ASSERT_GT(traffic.size(), 10'000U);
  std::set<Key> seen;
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> global;  // (seq, ack_seq, flags) alone, as matchers key
  for (const auto& m : traffic) {
    const bool first = seen.insert(key_of(m)).second;
    EXPECT_EQ(m.retransmission, !first);
    if (first) {
      EXPECT_TRUE(global.insert({m.seq, m.ack_seq, m.tcp_flags}).second) << "key shared across links";
    }
  }
}

TEST(Traffic, TimesFollowTheClocksAndTheDelayModels) {
  const SimulationOptions o = small_experiment();
  const Experiment e = build_experiment(o);
  const auto traffic = generate_traffic(e, o);
  Nanoseconds previous = 0;
  for (const auto& m : traffic) {
    EXPECT_GE(m.true_send, previous);  // sorted by true send time
    previous = m.true_send;
    const SimulatedLink& link = e.links[m.link];
    EXPECT_TRUE((m.sender == link.hosts.a && m.receiver == link.hosts.b) ||
                (m.sender == link.hosts.b && m.receiver == link.hosts.a));
    EXPECT_EQ(m.local_send, e.hosts[m.sender].clock.local_ns(m.true_send));
    if (m.lost) continue;
    const DelayModel& delay = m.sender == link.hosts.a ? link.a_to_b : link.b_to_a;
    EXPECT_GE(static_cast<double>(m.true_receive - m.true_send), std::floor(delay.min_ns));
    EXPECT_EQ(m.local_receive, e.hosts[m.receiver].clock.local_ns(m.true_receive));
  }
}

TEST(Traffic, LossAndRetransmissionRatesAreAsAsked) {
  const SimulationOptions o = small_experiment();
  const Experiment e = build_experiment(o);
  const auto traffic = generate_traffic(e, o);
  double lost = 0;
  std::map<uint32_t, std::pair<int, int>> directions;  // per link: segments from a, from b
  for (const auto& m : traffic) {
    lost += m.lost ? 1 : 0;
    auto& d = directions[m.link];
    (m.sender == e.links[m.link].hosts.a ? d.first : d.second)++;
  }
  // Binomial: 5 standard deviations.
  const double n = static_cast<double>(traffic.size());
  EXPECT_NEAR(lost / n, o.loss_rate, 5 * std::sqrt(o.loss_rate * (1 - o.loss_rate) / n));
  // Both directions of every link carry traffic, as the hull needs.
  EXPECT_EQ(directions.size(), e.links.size());
  for (const auto& [link, d] : directions) {
    EXPECT_GT(d.first, 100) << "link " << link;
    EXPECT_GT(d.second, 100) << "link " << link;
  }
}

TEST(Traffic, EveryLostDataSegmentIsSentAgain) {
  SimulationOptions o = small_experiment();
  o.retransmission_rate = 0;
  const Experiment e = build_experiment(o);
  const auto traffic = generate_traffic(e, o);
  std::map<Key, std::vector<const Transmission*>> copies;
  for (const auto& m : traffic) copies[key_of(m)].push_back(&m);
  for (const auto& [key, sent] : copies) {
    const bool data = (std::get<4>(key) & kTcpPsh) != 0;
    for (std::size_t i = 0; i + 1 < sent.size(); ++i) {
      EXPECT_TRUE(sent[i]->lost) << "only a lost copy is followed by another";
      // The retransmission timeout, doubled each time.
      EXPECT_GE(sent[i + 1]->true_send - sent[i]->true_send,
                static_cast<Nanoseconds>(o.retransmission_timeout_ms * 1e6));
    }
    if (data && sent.back()->lost) {
      EXPECT_EQ(sent.size(), 6U) << "gave up before 5 retransmissions";
    }
    if (!data && (std::get<4>(key) & kTcpSyn) == 0) {
      EXPECT_EQ(sent.size(), 1U) << "a pure ACK is never resent";
    }
  }
}

TEST(Traffic, AsymmetryAndOutliersShapeTheDelays) {
  SimulationOptions o = small_experiment();
  o.loss_rate = 0;
  o.asymmetry = 3;
  o.loaded_host_fraction = 0;
  const Experiment e = build_experiment(o);
  std::map<bool, std::pair<double, double>> mean;  // from a?: (sum, count)
  for (const auto& m : generate_traffic(e, o)) {
    auto& s = mean[m.sender == e.links[m.link].hosts.a];
    s.first += static_cast<double>(m.true_receive - m.true_send);
    s.second += 1;
  }
  const double forward = mean[true].first / mean[true].second;
  const double reverse = mean[false].first / mean[false].second;
  EXPECT_NEAR(forward, (o.min_delay_us + o.mean_delay_us) * 1e3, 2e3);
  EXPECT_NEAR(reverse, 3 * (o.min_delay_us + o.mean_delay_us) * 1e3, 6e3);

  // Loaded hosts: some messages get far more than the normal delay, all of
  // them touching a loaded host.
  o.asymmetry = 1;
  o.loaded_host_fraction = 1;
  o.load_episodes_per_s = 5;
  const Experiment loaded = build_experiment(o);
  int outliers = 0;
  for (const auto& m : generate_traffic(loaded, o)) {
    if (m.true_receive - m.true_send < 2'000'000) continue;  // 2 ms: impossible without load at these settings
    ++outliers;
    const auto receiver_loaded_in_flight = [&] {
      for (const auto& [begin, end] : loaded.hosts[m.receiver].load_episodes) {
        if (begin <= m.true_receive && end > m.true_send) return true;
      }
      return false;
    };
    EXPECT_TRUE(loaded.hosts[m.sender].loaded_at(m.true_send) || receiver_loaded_in_flight());
  }
  EXPECT_GT(outliers, 10);
}

TEST(HostTimeline, EventsAreOrderedAndCountedAsAsked) {
  SimulationOptions o = small_experiment();
  o.cpus_per_host = 3;
  o.filler_ratio = 3;
  const Experiment e = build_experiment(o);
  const auto traffic = generate_traffic(e, o);
  for (uint32_t h = 0; h < o.hosts; ++h) {
    uint64_t sends = 0, receives = 0;
    for (const auto& m : traffic) {
      sends += m.sender == h ? 1 : 0;
      receives += m.receiver == h && !m.lost ? 1 : 0;
    }
    HostTimeline timeline(e, traffic, o, h);
    KernelEvent event;
    Nanoseconds previous = 0;
    uint64_t network = 0, filler = 0, net_sends = 0;
    while (timeline.next(event)) {
      ASSERT_GE(event.time, previous);
      previous = event.time;
      ASSERT_LT(event.cpu, o.cpus_per_host);
      if (event.kind == EventKind::kNetDevQueue || event.kind == EventKind::kNetIfReceiveSkb) {
        ++network;
        const Transmission& m = traffic[event.a];
        const bool send = event.kind == EventKind::kNetDevQueue;
        net_sends += send ? 1 : 0;
        EXPECT_EQ(event.time, send ? m.local_send : m.local_receive);
        EXPECT_EQ(send ? m.sender : m.receiver, h);
      } else {
        ++filler;
      }
    }
    EXPECT_EQ(network, sends + receives);
    EXPECT_EQ(net_sends, sends);
    EXPECT_NEAR(static_cast<double>(filler) / static_cast<double>(network), o.filler_ratio, 0.25) << "host " << h;
  }
}

TEST(Traffic, SameSeedSameTrafficOtherSeedOtherTraffic) {
  SimulationOptions o = small_experiment();
  o.duration_s = 0.2;
  const auto first = generate_traffic(build_experiment(o), o);
  const auto again = generate_traffic(build_experiment(o), o);
  ASSERT_EQ(first.size(), again.size());
  for (std::size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(first[i].local_send, again[i].local_send);
    EXPECT_EQ(key_of(first[i]), key_of(again[i]));
  }
  o.seed = 2;
  const auto other = generate_traffic(build_experiment(o), o);
  EXPECT_TRUE(other.size() != first.size() || other[0].local_send != first[0].local_send);
}

// The stream passes each transmission on once no source can still generate
// one before it; the oracle is what it replaced: every source generated
// whole, concatenated, and stably sorted by true send time.
TEST(TrafficStream, GivesTheStableSortOfEverySourcesTraffic) {
  SimulationOptions o = small_experiment();
  o.topology = Topology::kRandom;
  o.hosts = 6;
  o.loss_rate = 0.2;  // many resends, sent long after later exchanges
  o.retransmission_timeout_ms = 30;
  o.probe_rounds = 5;
  o.probe_every_s = 0.5;
  o.gaps = {{0.7, 0.2}};
  const Experiment e = build_experiment(o);
  std::vector<Transmission> oracle;
  for (uint32_t link = 0; link < e.links.size(); ++link) {
    for (const bool probe : {false, true}) {
      const auto source = generate_source_traffic(e, o, link, probe);
      oracle.insert(oracle.end(), source.begin(), source.end());
    }
  }
  std::stable_sort(oracle.begin(), oracle.end(),
                   [](const Transmission& x, const Transmission& y) { return x.true_send < y.true_send; });
  const auto streamed = generate_traffic(e, o);
  ASSERT_EQ(streamed.size(), oracle.size());
  std::size_t probes = 0;
  std::size_t resends = 0;
  for (std::size_t i = 0; i < oracle.size(); ++i) {
    const Transmission& m = streamed[i];
    ASSERT_EQ(m.true_send, oracle[i].true_send) << i;
    ASSERT_EQ(key_of(m), key_of(oracle[i])) << i;
    ASSERT_EQ(m.probe, oracle[i].probe) << i;
    ASSERT_EQ(m.lost, oracle[i].lost) << i;
    ASSERT_EQ(m.true_receive, oracle[i].true_receive) << i;
    EXPECT_EQ(m.local_send, e.hosts[m.sender].clock.local_ns(m.true_send));
    probes += m.probe ? 1 : 0;
    resends += m.retransmission ? 1 : 0;
  }
  EXPECT_GT(probes, 100U);  // the case holds what makes the merge hard
  EXPECT_GT(resends, 1000U);
}

}  // namespace
}  // namespace tracesync::simulate
