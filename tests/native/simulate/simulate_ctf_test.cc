// SPDX-License-Identifier: EPL-2.0
// End to end: simulate::run writes CTF that babeltrace2 reads back, and a
// truth file that agrees with the events and with the clocks.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "ctf_read_back.h"
#include "model/quad.h"
#include "simulate/simulate.h"
#include "simulate/truth_reader.h"
#include "temp_directory.h"

namespace tracesync::simulate {
namespace {

namespace fs = std::filesystem;
using model::Quad;
using testing::ReadBack;
using testing::ReadEvent;
using testing::TempDirectory;
using Json = nlohmann::json;

SimulationOptions small_options(const std::string& output) {
  SimulationOptions o;
  o.output_dir = output;
  o.hosts = 3;
  o.topology = Topology::kChain;
  o.duration_s = 0.5;
  o.message_rate = 400;
  o.cpus_per_host = 3;
  o.filler_ratio = 2;
  o.ipv6_fraction = 0.5;
  o.loss_rate = 0.03;
  o.retransmission_rate = 0.03;
  o.drift_change_at_s = 0.25;
  o.write_matches = true;
  o.truth_messages = true;
  o.seed = 5;  // one IPv4 link and one IPv6 link
  return o;
}

Json read_json(const std::string& path) {
  std::ifstream in(path);
  return Json::parse(in);
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// One simulation shared by the tests that only look at it.
class SimulatedExperiment : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDirectory();
    summary_ = new SimulationSummary(run(small_options(*dir_ / "out")));
    truth_ = new Json(read_json(summary_->truth_path));
  }
  static void TearDownTestSuite() {
    delete truth_;
    delete summary_;
    delete dir_;
  }

  static std::string trace_of(const Json& host) { return *dir_ / ("out/" + host["path"].get<std::string>()); }

  static TempDirectory* dir_;
  static SimulationSummary* summary_;
  static Json* truth_;
};
TempDirectory* SimulatedExperiment::dir_ = nullptr;
SimulationSummary* SimulatedExperiment::summary_ = nullptr;
Json* SimulatedExperiment::truth_ = nullptr;

TEST_F(SimulatedExperiment, SummaryAndTruthDescribeTheLayout) {
  const Json& t = *truth_;
  EXPECT_EQ(t["format"], "tracesync-truth/2");
  ASSERT_EQ(t["hosts"].size(), 3U);
  ASSERT_EQ(summary_->hosts.size(), 3U);
  EXPECT_FALSE(summary_->cancelled);
  uint64_t events = 0;
  for (std::size_t h = 0; h < 3; ++h) {
    EXPECT_EQ(t["hosts"][h]["name"], "host" + std::to_string(h));
    EXPECT_EQ(summary_->hosts[h].trace_path, *dir_ / ("out/host" + std::to_string(h) + "/kernel"));
    EXPECT_EQ(summary_->hosts[h].domain, t["hosts"][h]["domain"]);
    EXPECT_EQ(summary_->hosts[h].events, t["hosts"][h]["events"]);
    EXPECT_TRUE(fs::is_regular_file(summary_->hosts[h].trace_path + "/metadata"));
    events += summary_->hosts[h].events;
  }
  EXPECT_EQ(summary_->events, events);
  EXPECT_EQ(summary_->transmissions, t["messages"].size());
  EXPECT_EQ(t["hosts"][0]["offset_ns"], 0);
  EXPECT_EQ(t["hosts"][0]["drift_ppm"], 0);
  EXPECT_EQ(t["hosts"][0]["transform_to_host0"]["slope"], "1.000000000000000000000000000000000");
  for (const Json& host : t["hosts"]) {
    EXPECT_EQ(host["loaded"].get<bool>(), !host["load_episodes"].empty());
    for (const Json& episode : host["load_episodes"]) EXPECT_LE(episode[0].get<int64_t>(), episode[1].get<int64_t>());
  }
}

TEST_F(SimulatedExperiment, EachTraceReadsBackWithItsEnvironmentClockAndStreams) {
  std::set<std::string> clock_uuids;
  for (const Json& host : (*truth_)["hosts"]) {
    const ReadBack rb = testing::read_back(trace_of(host));
    ASSERT_EQ(rb.error, "") << host["name"];
    EXPECT_EQ(rb.env_strings.at("hostname"), host["name"]);
    EXPECT_EQ(rb.env_strings.at("domain"), "kernel");
    EXPECT_EQ(rb.env_strings.at("tracer_name"), "lttng-modules");
    EXPECT_EQ(rb.env_integers.at("tracer_major"), 2);
    EXPECT_EQ(rb.env_integers.at("tracer_minor"), 12);
    EXPECT_EQ(rb.clock_name, "monotonic");
    EXPECT_EQ(rb.clock_frequency, 1'000'000'000U);
    EXPECT_EQ(rb.clock_uuid, host["domain"]);
    EXPECT_EQ(rb.trace_uuid, host["trace_uuid"]);
    EXPECT_EQ(rb.clock_offset_ns, host["clock_offset_ns"].get<int64_t>());
    clock_uuids.insert(rb.clock_uuid);
    EXPECT_EQ(rb.events.size(), host["events"].get<uint64_t>());

    // One stream per CPU; each in time order, its packets naming its CPU.
    std::map<uint64_t, std::vector<const ReadEvent*>> streams;
    for (const auto& e : rb.events) streams[e.stream_id].push_back(&e);
    ASSERT_EQ(streams.size(), 3U);
    std::set<uint64_t> cpus;
    for (const auto& [id, events] : streams) {
      cpus.insert(events.front()->cpu_id);
      for (std::size_t i = 0; i < events.size(); ++i) {
        EXPECT_EQ(events[i]->cpu_id, events.front()->cpu_id);
        if (i > 0) {
          EXPECT_GE(events[i]->ns_from_origin, events[i - 1]->ns_from_origin);
        }
      }
    }
    EXPECT_EQ(cpus, (std::set<uint64_t>{0, 1, 2}));

    std::set<std::string> names;
    for (const auto& e : rb.events) names.insert(e.name);
    for (const char* name : {"net_dev_queue", "net_if_receive_skb", "sched_switch", "sched_waking", "sched_wakeup",
                             "irq_handler_entry", "irq_handler_exit", "softirq_raise", "softirq_entry",
                             "softirq_exit"}) {
      EXPECT_TRUE(names.count(name)) << name << " missing from " << host["name"];
    }
  }
  EXPECT_EQ(clock_uuids.size(), 3U);  // one clock domain per host
}

// Every network event read back is one of the truth's messages, at the
// local time the truth gives, and every message is in the traces.
TEST_F(SimulatedExperiment, NetworkEventsAreExactlyTheTruthsMessages) {
  const Json& t = *truth_;
  using Seen = std::tuple<int64_t, uint64_t, uint64_t, uint64_t>;  // local time, seq, ack_seq, flags
  std::vector<std::multiset<Seen>> sends(3), receives(3);
  std::map<std::tuple<uint64_t, uint64_t, uint64_t>, std::pair<uint64_t, uint64_t>> ends_of_key;
  for (const Json& m : t["messages"]) {
    const auto sender = m[0].get<uint64_t>();
    const auto receiver = m[2].get<uint64_t>();
    const Seen sent{m[1].get<int64_t>(), m[6], m[7], m[8]};
    sends[sender].insert(sent);
    if (!m[3].is_null()) receives[receiver].insert({m[3].get<int64_t>(), m[6], m[7], m[8]});
    ends_of_key[{m[6], m[7], m[8]}] = {sender, receiver};
  }
  std::map<std::pair<uint64_t, uint64_t>, bool> link_ipv6;
  for (const Json& l : t["links"]) link_ipv6[{l["a"], l["b"]}] = l["ipv6"];

  std::set<std::string> options_seen;
  for (std::size_t h = 0; h < 3; ++h) {
    const ReadBack rb = testing::read_back(trace_of(t["hosts"][h]));
    ASSERT_EQ(rb.error, "");
    std::multiset<Seen> read_sends, read_receives;
    for (const auto& e : rb.events) {
      if (e.network_option.empty()) continue;
      const Seen seen{e.ns_from_origin, e.seq, e.ack_seq, e.flags};
      (e.name == "net_dev_queue" ? read_sends : read_receives).insert(seen);
      // The IP header names the two ends, as IPv4 or IPv6 per link.
      const auto [sender, receiver] = ends_of_key.at({e.seq, e.ack_seq, e.flags});
      const bool ipv6 = link_ipv6.at({std::min(sender, receiver), std::max(sender, receiver)});
      EXPECT_EQ(e.network_option, ipv6 ? "ipv6" : "ipv4");
      options_seen.insert(e.network_option);
      if (ipv6) {
        EXPECT_EQ(e.saddr, (std::vector<uint64_t>{0xfd00, 0, 0, 0, 0, 0, 0, sender + 1}));
        EXPECT_EQ(e.daddr, (std::vector<uint64_t>{0xfd00, 0, 0, 0, 0, 0, 0, receiver + 1}));
      } else {
        EXPECT_EQ(e.saddr, (std::vector<uint64_t>{10, 0, 0, sender + 1}));
        EXPECT_EQ(e.daddr, (std::vector<uint64_t>{10, 0, 0, receiver + 1}));
      }
    }
    EXPECT_EQ(read_sends, sends[h]) << "host " << h;
    EXPECT_EQ(read_receives, receives[h]) << "host " << h;
  }
  EXPECT_EQ(options_seen.size(), 2U) << "both IP versions should appear with this seed";
}

// The truth's clock description, evaluated as docs/simulate.md says: the
// last piece starting at or before t, local = from_local + slope * (t - from).
// Its first piece must be the host's offset and drift.
Quad local_exact(const Json& host, int64_t start, int64_t t) {
  const Json& clock = host["clock"];
  const Quad first_local = *model::parse_decimal(clock[0][1].get<std::string>());
  EXPECT_EQ(clock[0][0].get<int64_t>(), start);
  EXPECT_EQ(first_local, static_cast<Quad>(start) + static_cast<Quad>(host["offset_ns"].get<int64_t>()));
  const Quad first_slope = *model::parse_decimal(clock[0][2].get<std::string>());
  EXPECT_LT(model::to_double(model::abs(first_slope - 1 - static_cast<Quad>(host["drift_ppm"].get<double>()) / 1'000'000)),
            1e-20);
  const Json* piece = &clock[0];
  for (const Json& p : clock) {
    if (p[0].get<int64_t>() <= t) piece = &p;
  }
  const Quad from_local = *model::parse_decimal((*piece)[1].get<std::string>());
  const Quad slope = *model::parse_decimal((*piece)[2].get<std::string>());
  return from_local + slope * static_cast<Quad>(t - (*piece)[0].get<int64_t>());
}

TEST_F(SimulatedExperiment, LocalTimesAreTheClocksAppliedToTrueTimes) {
  const Json& t = *truth_;
  const int64_t start = t["start_ns"];
  uint64_t checked = 0;
  for (const Json& m : t["messages"]) {
    const Json& sender = t["hosts"][m[0].get<std::size_t>()];
    const Json& receiver = t["hosts"][m[2].get<std::size_t>()];
    const Quad send = local_exact(sender, start, m[4]);
    EXPECT_LE(model::to_double(model::abs(static_cast<Quad>(m[1].get<int64_t>()) - send)), 0.5 + 1e-9);
    if (m[3].is_null()) {
      EXPECT_TRUE(m[5].is_null());
      EXPECT_EQ(m[9].get<int>() & 1, 1);
      continue;
    }
    EXPECT_GT(m[5].get<int64_t>(), m[4].get<int64_t>());
    const Quad receive = local_exact(receiver, start, m[5]);
    EXPECT_LE(model::to_double(model::abs(static_cast<Quad>(m[3].get<int64_t>()) - receive)), 0.5 + 1e-9);
    ++checked;
  }
  EXPECT_GT(checked, 300U);
}

// The truth reader inverts every reading: the true time at which a host's
// clock shows a recorded time is the true send or receive time, to the half
// ns the reading was rounded to; and the drift change at 0.25 s shows as a
// second clock piece.
TEST_F(SimulatedExperiment, TheTruthReaderInvertsEveryReading) {
  const Json& t = *truth_;
  const Truth truth = read_truth(summary_->truth_path);
  ASSERT_EQ(truth.hosts.size(), 3U);
  EXPECT_EQ(truth.hosts[0].clock.pieces().size(), 1U);
  EXPECT_EQ(truth.hosts[1].clock.pieces().size(), 2U);
  for (const Json& m : t["messages"]) {
    const TrueClock& sender = truth.hosts[m[0].get<std::size_t>()].clock;
    EXPECT_LE(model::to_double(model::abs(sender.true_at(static_cast<Quad>(m[1].get<int64_t>())) -
                                          static_cast<Quad>(m[4].get<int64_t>()))),
              0.5 + 1e-3);
    if (m[3].is_null()) continue;
    const TrueClock& receiver = truth.hosts[m[2].get<std::size_t>()].clock;
    EXPECT_LE(model::to_double(model::abs(receiver.true_at(static_cast<Quad>(m[3].get<int64_t>())) -
                                          static_cast<Quad>(m[5].get<int64_t>()))),
              0.5 + 1e-3);
  }
}

TEST_F(SimulatedExperiment, MatchStreamHoldsFirstSendAndFirstReceive) {
  const Json& t = *truth_;
  std::map<std::tuple<uint64_t, uint64_t, uint64_t, uint64_t>, std::pair<std::string, std::optional<std::string>>> first;
  std::map<std::tuple<uint64_t, uint64_t, uint64_t, uint64_t>, std::pair<int64_t, std::optional<int64_t>>> times;
  for (const Json& m : t["messages"]) {
    const auto key = std::make_tuple(m[0].get<uint64_t>(), m[6].get<uint64_t>(), m[7].get<uint64_t>(),
                                     m[8].get<uint64_t>());
    auto [it, inserted] = times.try_emplace(key, m[1].get<int64_t>(), std::nullopt);
    if (!m[3].is_null() && (!it->second.second || m[3].get<int64_t>() < *it->second.second)) {
      it->second.second = m[3].get<int64_t>();
    }
    first.try_emplace(key, t["hosts"][m[0].get<std::size_t>()]["name"], t["hosts"][m[2].get<std::size_t>()]["name"]);
  }
  std::multiset<std::string> expected;
  for (const auto& [key, time] : times) {
    if (!time.second) continue;
    expected.insert(first[key].first + " " + std::to_string(time.first) + " " + *first[key].second + " " +
                    std::to_string(*time.second));
  }
  std::multiset<std::string> lines;
  std::ifstream in(summary_->matches_path);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') lines.insert(line);
  }
  EXPECT_EQ(lines, expected);
  EXPECT_EQ(summary_->matches, expected.size());
}

TEST_F(SimulatedExperiment, BabeltraceCommandReadsEveryTrace) {
  if (std::system("command -v babeltrace2 > /dev/null 2>&1") != 0) GTEST_SKIP() << "no babeltrace2 command";
  for (const Json& host : (*truth_)["hosts"]) {
    const std::string command = "babeltrace2 '" + trace_of(host) + "' 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    uint64_t lines = 0;
    for (int c; (c = std::fgetc(pipe)) != EOF;) lines += c == '\n' ? 1 : 0;
    EXPECT_EQ(pclose(pipe), 0) << command;
    EXPECT_EQ(lines, host["events"].get<uint64_t>()) << command;
  }
}

// Every file of a directory tree, by relative path.
std::map<std::string, std::string> tree(const fs::path& root) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) files[fs::relative(entry.path(), root).string()] = read_file(entry.path());
  }
  return files;
}

TEST(Simulate, SameSeedGivesByteIdenticalOutput) {
  TempDirectory dir;
  SimulationOptions o = small_options(dir / "first");
  run(o);
  o.output_dir = dir / "second";
  run(o);
  const auto first = tree(dir / "first");
  const auto second = tree(dir / "second");
  EXPECT_EQ(first.size(), 3U * 4U + 2U);  // metadata + 3 streams per host, truth.json, matches.txt
  EXPECT_TRUE(first == second) << "the two runs differ";

  o.output_dir = dir / "third";
  o.seed = 12;
  run(o);
  EXPECT_NE(tree(dir / "third").at("truth.json"), first.at("truth.json"));
}

TEST(Simulate, PlainReceiveNameAndAllIpv6) {
  TempDirectory dir;
  SimulationOptions o = small_options(dir / "out");
  o.hosts = 2;
  o.ipv6_fraction = 1;
  o.plain_receive_name = true;
  run(o);
  const ReadBack rb = testing::read_back(dir / "out/host1/kernel");
  ASSERT_EQ(rb.error, "");
  std::map<std::string, int> names;
  for (const auto& e : rb.events) {
    ++names[e.name];
    if (!e.network_option.empty()) {
      EXPECT_EQ(e.network_option, "ipv6");
    }
  }
  EXPECT_GT(names["netif_receive_skb"], 0);
  EXPECT_EQ(names.count("net_if_receive_skb"), 0U);
}

TEST(Simulate, CancellingStopsCleanlyWithoutTruth) {
  TempDirectory dir;
  SimulationOptions o = small_options(dir / "out");
  o.message_rate = 20'000;  // enough events to be asked along the way
  int calls = 0;
  const SimulationSummary summary = run(o, [&](const SimulationProgress& p) {
    EXPECT_EQ(p.hosts, 3U);
    EXPECT_LE(p.events_written, p.events_expected * 2);
    return ++calls < 3;
  });
  EXPECT_TRUE(summary.cancelled);
  EXPECT_FALSE(fs::exists(dir / "out/truth.json"));
  ASSERT_FALSE(summary.hosts.empty());
  // The trace cut short is still a readable trace.
  const ReadBack rb = testing::read_back(summary.hosts.back().trace_path);
  EXPECT_EQ(rb.error, "");
  EXPECT_EQ(rb.events.size(), summary.hosts.back().events);
}

}  // namespace
}  // namespace tracesync::simulate
