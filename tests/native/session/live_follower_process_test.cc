// SPDX-License-Identifier: EPL-2.0
// A LiveFollower that reads each folder in a reading process of its own
// (`tracesync live`'s default since s39) gives, turn by turn and at the end,
// what one reading them in this process gives (`live --in-process`, before).
// Traces simulated, then written again packet by packet as LTTng writes
// them (tests/support/packet_replay.h), into two sets of folders, one for
// each follower.

#include <gtest/gtest.h>
#include <google/protobuf/util/message_differencer.h>

#include <filesystem>

#include "support/packet_replay.h"
#include "session/live_follower.h"
#include "simulate/simulate.h"
#include "simulate/temp_directory.h"

namespace tracesync::session {
namespace {

namespace fs = std::filesystem;

// What tells the two results apart by design: how the traces were read, and
// where they were (two sets of folders: `folders` is named `as` instead,
// in the traces and in the words of problems).
v1::Snapshot without_places(v1::Snapshot s, const std::string& folders, const std::string& as) {
  s.clear_options();
  const auto renamed = [&](std::string text) {
    for (std::size_t at = text.find(folders); at != std::string::npos; at = text.find(folders, at + as.size())) {
      text.replace(at, folders.size(), as);
    }
    return text;
  };
  for (v1::Trace& t : *s.mutable_traces()) t.set_path(renamed(t.path()));
  for (v1::Problem& p : *s.mutable_problems()) {
    p.set_source(renamed(p.source()));
    p.set_message(renamed(p.message()));
  }
  return s;
}

TEST(LiveFollowerProcesses, GiveWhatTheInProcessFollowerGives) {
  const simulate::testing::TempDirectory dir;
  simulate::SimulationOptions options;
  options.output_dir = dir / "experiment";
  options.hosts = 3;
  options.topology = simulate::Topology::kStar;
  options.cpus_per_host = 2;
  options.duration_s = 20;
  options.message_rate = 100;
  options.seed = 29;
  const simulate::SimulationSummary summary = simulate::run(options);

  LiveIngestOptions ingest;
  ingest.match.horizon = 1'000'000'000;
  ingest.quiet_end = std::chrono::milliseconds(60'000);  // never within the test: it ends by finish()
  LiveFollower in_process(SessionOptions{}, ingest);
  ingest.reading_command = {TRACESYNC_TEST_READ_TRACE};
  LiveFollower in_children(SessionOptions{}, ingest);
  std::vector<fs::path> sources, here, there;
  const std::string here_dir = (fs::path(dir / "in-process")).string();
  const std::string there_dir = (fs::path(dir / "in-children")).string();
  // Empty when the two are the same but for places; else how they differ.
  const auto differences = [&](const v1::Snapshot& a, const v1::Snapshot& b) {
    google::protobuf::util::MessageDifferencer differencer;
    std::string report;
    differencer.ReportDifferencesToString(&report);
    differencer.Compare(without_places(a, there_dir, here_dir), without_places(b, here_dir, here_dir));
    return report;
  };
  for (const simulate::HostSummary& host : summary.hosts) {
    sources.push_back(host.trace_path);
    here.push_back(fs::path(dir / "in-process") / host.name);
    there.push_back(fs::path(dir / "in-children") / host.name);
    in_process.add_folder(here.back().string());
    in_children.add_folder(there.back().string());
  }
  testing::PacketReplay replay_here(sources, here), replay_there(sources, there);
  int turns = 0;
  for (bool more = true; more;) {
    more = replay_here.write(3);  // false once the last packets are written
    replay_there.write(3);
    bool any_here = false, any_there = false;
    const std::vector<LiveNews> news_here = in_process.read(&any_here);
    const std::vector<LiveNews> news_there = in_children.read(&any_there);
    ASSERT_EQ(news_there.size(), news_here.size()) << "turn " << turns;
    for (std::size_t i = 0; i < news_here.size(); ++i) {
      EXPECT_EQ(news_there[i].kind, news_here[i].kind);
      EXPECT_EQ(news_there[i].text, news_here[i].text);
    }
    EXPECT_EQ(any_there, any_here) << "turn " << turns;
    ASSERT_EQ(in_children.events(), in_process.events()) << "turn " << turns;
    if (++turns % 10 == 0) {  // a result now and then, as the loop gives them
      EXPECT_EQ(differences(in_children.snapshot(), in_process.snapshot()), "") << "turn " << turns;
    }
  }
  const v1::Snapshot expected = in_process.finish(false);
  const v1::Snapshot result = in_children.finish(false);
  EXPECT_GT(result.messages(), 1000u);
  EXPECT_EQ(result.traces_size(), 3);
  EXPECT_EQ(differences(result, expected), "");
  EXPECT_EQ(result.options().reading_program(), TRACESYNC_TEST_READ_TRACE);
}

}  // namespace
}  // namespace tracesync::session
