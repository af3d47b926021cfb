// SPDX-License-Identifier: EPL-2.0
// Following traces while they are written holds no more as the recording
// goes on: tracesync live's own state (the matcher's entries, the readers'
// streams) stays flat. Traces simulated, then written again packet by
// packet as LTTng writes them (tests/support/packet_replay.h) while a
// LiveFollower follows their folders, as `tracesync live DIR...` does. The
// count of entries the matcher holds is the measure (memory itself is not
// deterministic); the link estimators' own memory is issue 31's.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "support/packet_replay.h"
#include "session/live_follower.h"
#include "simulate/simulate.h"
#include "simulate/temp_directory.h"

namespace tracesync::session {
namespace {

namespace fs = std::filesystem;

constexpr model::Nanoseconds kHorizon = 1'000'000'000;

struct Followed {
  std::size_t peak_entries = 0;  // the most the matcher held between two looks
  uint64_t messages = 0;         // in the final result
  uint64_t expected = 0;         // the messages the simulation says match
};

// Two hosts of two CPUs each exchanging `rate` messages a second for
// `seconds`, written again a few packets at a time, each host's folder
// followed with a 1 s horizon.
Followed follow_replay(double seconds, double rate) {
  const simulate::testing::TempDirectory dir;
  simulate::SimulationOptions options;
  options.output_dir = dir / "experiment";
  options.hosts = 2;
  options.topology = simulate::Topology::kPairs;
  options.cpus_per_host = 2;
  options.duration_s = seconds;
  options.message_rate = rate;
  options.seed = 11;
  options.write_matches = true;  // the messages matched, to compare with
  const simulate::SimulationSummary summary = simulate::run(options);

  std::vector<fs::path> sources, targets;
  LiveIngestOptions ingest;
  ingest.match.horizon = kHorizon;
  ingest.quiet_end = std::chrono::milliseconds(60'000);  // never within the test: it ends by finish()
  LiveFollower follower(SessionOptions{}, ingest);
  for (const simulate::HostSummary& host : summary.hosts) {
    sources.push_back(host.trace_path);
    targets.push_back(fs::path(dir / "followed") / host.name);
    follower.add_folder(targets.back().string());
  }
  testing::PacketReplay replay(sources, targets);
  Followed followed;
  while (replay.write(4)) {
    follower.read(nullptr);
    followed.peak_entries = std::max(followed.peak_entries, follower.matcher_entries());
  }
  for (int look = 0; look < 3; ++look) follower.read(nullptr);  // the last packets
  EXPECT_FALSE(follower.finished()) << "no folder may end before every packet is read";
  const v1::Snapshot result = follower.finish(false);
  followed.messages = result.messages();
  followed.expected = summary.matches;
  return followed;
}

// From 30 s on the peak is what a horizon of traffic and a look's read
// ahead give (seen: 1,071 entries at 15 s, then 2,184, 2,166 and 2,199 at
// 30, 60 and 120 s).
#ifdef TRACESYNC_SANITIZED
// The sanitized build looks for memory errors: a shorter longer recording.
constexpr double kShorterS = 30, kLongerS = 60;
#else
constexpr double kShorterS = 30, kLongerS = 120;
#endif

TEST(LiveFollowerMemory, StaysFlatAsTheRecordingGoesOn) {
  const Followed shorter = follow_replay(kShorterS, 400);
  const Followed longer = follow_replay(kLongerS, 400);
  // Every message is matched: what was followed is the whole recording.
  EXPECT_EQ(shorter.messages, shorter.expected);
  EXPECT_EQ(longer.messages, longer.expected);
  ASSERT_GT(longer.messages, shorter.messages * 3 / 2) << "a longer recording";
  // About a horizon of traffic (800 messages a second, two events each)
  // plus what a look reads ahead, not a share of the whole recording.
  EXPECT_LT(longer.peak_entries, shorter.peak_entries * 3 / 2) << shorter.peak_entries << " then " << longer.peak_entries;
  EXPECT_LT(longer.peak_entries, 4000u);
  EXPECT_GT(shorter.peak_entries, 0u);
}

}  // namespace
}  // namespace tracesync::session
