// SPDX-License-Identifier: EPL-2.0
// A LiveFollower that reads each folder in a reading process of its own
// (`tracesync live`'s default since s39) gives, turn by turn and at the end,
// what one reading them in this process gives (`live --in-process`, before).
// Traces simulated, then written again packet by packet as LTTng writes
// them (tests/support/packet_replay.h), into two sets of folders, one for
// each follower.

#include <gtest/gtest.h>
#include <google/protobuf/util/message_differencer.h>

#include <signal.h>

#include <cstdlib>
#include <filesystem>
#include <iterator>

#include "session/live_follower.h"
#include "simulate/simulate.h"
#include "simulate/temp_directory.h"
#include "support/packet_replay.h"
#include "support/reading_processes.h"

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

// Three hosts in a star, 20 s of 100 messages a second, simulated into
// DIR/experiment: the recording both tests write again packet by packet.
simulate::SimulationSummary simulated_star(const simulate::testing::TempDirectory& dir) {
  simulate::SimulationOptions options;
  options.output_dir = dir / "experiment";
  options.hosts = 3;
  options.topology = simulate::Topology::kStar;
  options.cpus_per_host = 2;
  options.duration_s = 20;
  options.message_rate = 100;
  options.seed = 29;
  return simulate::run(options);
}

TEST(LiveFollowerProcesses, GiveWhatTheInProcessFollowerGives) {
  const simulate::testing::TempDirectory dir;
  const simulate::SimulationSummary summary = simulated_star(dir);

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

// Each folder's reading process killed (SIGKILL, as the out-of-memory killer
// does) twice while the folders are written: each is read on in a new
// process after what it gave, said as news, and the result is the one the
// in-process follower gives (the test above: the one of processes never
// killed).
TEST(LiveFollowerProcesses, AFolderWhoseProcessIsKilledIsReadOnWhereItStood) {
  const simulate::testing::TempDirectory dir;
  const simulate::SimulationSummary summary = simulated_star(dir);

  // The staging directories in a $TMPDIR of the test's own.
  const fs::path tmp = dir / "tmp";
  fs::create_directories(tmp);
  const char* was = std::getenv("TMPDIR");
  const std::string tmp_before = was != nullptr ? was : "";
  ::setenv("TMPDIR", tmp.c_str(), 1);
  struct RestoresTmpdir {
    const std::string& before;
    ~RestoresTmpdir() { before.empty() ? ::unsetenv("TMPDIR") : ::setenv("TMPDIR", before.c_str(), 1); }
  } restores{tmp_before};

  LiveIngestOptions ingest;
  ingest.match.horizon = 1'000'000'000;
  ingest.quiet_end = std::chrono::milliseconds(60'000);  // never within the test: it ends by finish()
  LiveFollower untouched(SessionOptions{}, ingest);  // in this process: the only reading processes are killed's
  ingest.reading_command = {TRACESYNC_TEST_READ_TRACE};
  LiveFollower killed(SessionOptions{}, ingest);
  std::vector<fs::path> sources, here, there;
  for (const simulate::HostSummary& host : summary.hosts) {
    sources.push_back(host.trace_path);
    here.push_back(fs::path(dir / "untouched") / host.name);
    there.push_back(fs::path(dir / "killed") / host.name);
    untouched.add_folder(here.back().string());
    killed.add_folder(there.back().string());
  }
  testing::PacketReplay replay_here(sources, here), replay_there(sources, there);
  std::size_t kills = 0, resumed = 0;
  ASSERT_GE(replay_here.packets(), 9u);
  const std::size_t first_kill = replay_here.packets() / 3, second_kill = replay_here.packets() * 2 / 3;
  for (bool more = true; more;) {
    more = replay_here.write(1);
    replay_there.write(1);
    untouched.read(nullptr);
    if (replay_there.written() == first_kill || replay_there.written() == second_kill) {
      for (const pid_t child : tracesync::testing::reading_processes()) {
        if (::kill(child, SIGKILL) == 0) ++kills;
      }
    }
    for (const LiveNews& news : killed.read(nullptr)) {
      EXPECT_NE(news.kind, LiveNews::Kind::kFailed) << news.url << ": " << news.text;
      if (news.kind != LiveNews::Kind::kResumed) continue;
      ++resumed;
      EXPECT_NE(news.text.find("the reading process was killed (SIGKILL: out of memory?); read on in a new reading process after the "), std::string::npos) << news.text;
    }
  }
  for (int look = 0; look < 3; ++look) killed.read(nullptr);  // as long as the last ones need
  // Each source's staging holds its live process's directory, not those of
  // the dead ones (the in-process follower stages in $TMPDIR itself).
  std::size_t sources_staged = 0;
  for (const fs::directory_entry& parent : fs::directory_iterator(tmp)) {
    if (parent.path().filename().string().rfind("tracesync-followed-", 0) != 0) continue;
    ++sources_staged;
    const auto staged = std::distance(fs::directory_iterator(parent.path()), fs::directory_iterator());
    EXPECT_LE(staged, 1) << parent.path() << " keeps what dead reading processes staged";
  }
  EXPECT_EQ(sources_staged, 3u);
  EXPECT_EQ(kills, 6u) << "three processes, then the three that read on";
  EXPECT_EQ(resumed, 6u);
  EXPECT_EQ(killed.events(), untouched.events());
  const v1::Snapshot expected = untouched.finish(false);
  const v1::Snapshot result = killed.finish(false);
  EXPECT_GT(result.messages(), 1000u);
  google::protobuf::util::MessageDifferencer differencer;
  std::string report;
  differencer.ReportDifferencesToString(&report);
  const std::string there_dir = (fs::path(dir / "killed")).string();
  const std::string here_dir = (fs::path(dir / "untouched")).string();
  differencer.Compare(without_places(result, there_dir, here_dir), without_places(expected, here_dir, here_dir));
  EXPECT_EQ(report, "");
}

}  // namespace
}  // namespace tracesync::session
