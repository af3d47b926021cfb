// SPDX-License-Identifier: EPL-2.0
// Application messages through the babeltrace2 reader: simulated lttng-ust
// traces whose sends and receives are tsapp:msg_send / tsapp:msg_recv with a
// msg_id, read in this process and in reading processes. The same
// simulation written as kernel traces is the oracle: its TCP messages and
// the application messages are one and the same set.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "ingest/experiment_matching.h"
#include "ingest/message_spec.h"
#include "simulate/simulate.h"
#include "simulate/temp_directory.h"

namespace tracesync::ingest {
namespace {

constexpr const char* kLiveSpec = "send=tsapp:msg_send,recv=tsapp:msg_recv,key=msg_id";

struct Matching {
  ExperimentResult result;
  std::vector<match::MatchedMessage> messages;
};

std::vector<TraceSource> simulated(const simulate::testing::TempDirectory& dir, const std::string& name,
                                   bool user_space) {
  simulate::SimulationOptions options;
  options.output_dir = dir / name;
  options.hosts = 3;
  options.cpus_per_host = 2;
  options.duration_s = 3;
  options.message_rate = 100;
  options.seed = 29;
  options.user_space = user_space;
  std::vector<TraceSource> traces;
  for (const simulate::HostSummary& host : simulate::run(options).hosts) {
    traces.push_back({host.trace_path, host.name, {}});
  }
  return traces;
}

Matching match(const std::vector<TraceSource>& traces, const std::vector<std::string>& specs, bool in_processes) {
  ExperimentOptions options;
  options.read.jobs = 2;
  if (in_processes) options.read.reading_command = {TRACESYNC_TEST_READ_TRACE};
  if (!specs.empty()) {
    auto kinds = parse_message_specs(specs, {});
    EXPECT_TRUE(std::holds_alternative<std::vector<MessageSpec>>(kinds));
    if (auto* list = std::get_if<std::vector<MessageSpec>>(&kinds)) options.read.reader.selection = EventSelection(*list);
  }
  Matching run;
  run.result = match_experiment(traces, options, {nullptr, [&](const match::MatchedMessage& m) { run.messages.push_back(m); }});
  std::sort(run.messages.begin(), run.messages.end());
  return run;
}

class AppMessagesReading : public ::testing::TestWithParam<bool> {};

TEST_P(AppMessagesReading, UserSpaceTracesGiveTheMessagesTheKernelTracesGive) {
  const simulate::testing::TempDirectory dir;
  const std::vector<TraceSource> kernel = simulated(dir, "kernel", false);
  const std::vector<TraceSource> user = simulated(dir, "user", true);
  ASSERT_NE(user.at(0).path.find("/ust/uid/1000/64-bit"), std::string::npos) << user.at(0).path;

  const Matching oracle = match(kernel, {}, GetParam());
  const Matching app = match(user, {kLiveSpec}, GetParam());
  ASSERT_GT(oracle.messages.size(), 500u);
  EXPECT_EQ(app.messages, oracle.messages);
  // Every application event got a key, and the TCP kind saw nothing.
  ASSERT_EQ(app.result.per_kind.size(), 2u);
  EXPECT_EQ(app.result.per_kind[0].sends + app.result.per_kind[0].receives, 0u);
  const match::MatchStatistics& kind = app.result.per_kind[1];
  EXPECT_EQ(kind.matches, oracle.result.total.matches);
  EXPECT_EQ(kind.sends, oracle.result.total.sends);
  EXPECT_EQ(kind.receives, oracle.result.total.receives);
  EXPECT_EQ(kind.retransmissions, oracle.result.total.retransmissions);
  EXPECT_EQ(kind.unknown_layout + kind.key_too_long, 0u);
  for (const auto& [link, statistics] : app.result.per_link_kind) {
    EXPECT_EQ(link.second, 1u);
    EXPECT_EQ(statistics.matches, oracle.result.per_link.at(link.first).matches);
  }
  // The reader's census of each trace, through the reading processes too.
  for (const TraceReport& t : app.result.read.traces) {
    ASSERT_EQ(t.info.app_census.size(), 1u);
    const AppEventTally& tally = t.info.app_census[0];
    EXPECT_TRUE(tally.send_recorded && tally.receive_recorded);
    EXPECT_TRUE(tally.problem.empty()) << tally.problem;
    EXPECT_GT(tally.sends, 0u);
    EXPECT_GT(tally.receives, 0u);
  }
  // Without the spec, the user-space traces have nothing to match.
  const Matching none = match(user, {}, GetParam());
  EXPECT_TRUE(none.messages.empty());
}

TEST_P(AppMessagesReading, KeysOfSeveralFieldsAndStringFieldsMatchAlike) {
  const simulate::testing::TempDirectory dir;
  const std::vector<TraceSource> user = simulated(dir, "user", true);
  const Matching by_id = match(user, {kLiveSpec}, GetParam());
  const Matching by_channel_and_id =
      match(user, {"name=msg,send=tsapp:msg_send,recv=tsapp:msg_recv,key=channel+payload.msg_id"}, GetParam());
  ASSERT_FALSE(by_id.messages.empty());
  EXPECT_EQ(by_channel_and_id.messages, by_id.messages);
  // The channel alone is one key per link (both directions): its first
  // send and its first receive (by their own clocks, perhaps both on one
  // host) make one pair, the rest are repeats.
  const Matching by_channel = match(user, {"send=tsapp:msg_send,recv=tsapp:msg_recv,key=channel"}, GetParam());
  const match::MatchStatistics& channel = by_channel.result.per_kind.at(1);
  EXPECT_EQ(channel.matches + channel.same_domain, by_id.result.per_link.size());
  EXPECT_EQ(channel.sends + channel.receives,
            2 * (channel.matches + channel.same_domain) + channel.retransmissions + channel.duplicates);
}

TEST_P(AppMessagesReading, AMissingKeyFieldIsAProblemNamingTheEventAndField) {
  const simulate::testing::TempDirectory dir;
  const std::vector<TraceSource> user = simulated(dir, "user", true);
  const Matching run = match(user, {"send=tsapp:msg_send,recv=tsapp:msg_recv,key=msg_id+context.vtid"}, GetParam());
  EXPECT_TRUE(run.messages.empty());
  for (const TraceReport& t : run.result.read.traces) {
    ASSERT_EQ(t.info.app_census.size(), 1u);
    const AppEventTally& tally = t.info.app_census[0];
    EXPECT_EQ(tally.problem.rfind("tsapp:msg_", 0), 0u) << tally.problem;
    EXPECT_NE(tally.problem.find("has no field `vtid` in its context"), std::string::npos) << tally.problem;
    EXPECT_EQ(tally.sends + tally.receives, 0u);
    EXPECT_GT(tally.undecodable, 0u);
  }
  EXPECT_GT(run.result.per_kind.at(1).unknown_layout, 0u);
}

INSTANTIATE_TEST_SUITE_P(InProcessAndInReadingProcesses, AppMessagesReading, ::testing::Bool());

}  // namespace
}  // namespace tracesync::ingest
