// SPDX-License-Identifier: EPL-2.0
// A followed folder's reader resumed where one that died stood
// (GrowingTraceReader::resume_at, from the position() its last frame
// carried) gives what that one had not given, no more, no less: with what
// the first gave before, the events of a reading that was not cut, and the
// same trace info (figures, census, path and name). Cut at every frame a
// reading process would have sent (in the middle of a look, between two
// looks), on a simulated trace written again packet by packet
// (tests/support/packet_replay.h), with both readers.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <tuple>
#include <vector>

#include "ingest/growing_trace_reader.h"
#include "ingest/same_trace_info.h"
#include "simulate/simulate.h"
#include "simulate/temp_directory.h"
#include "support/packet_replay.h"

namespace tracesync::ingest {
namespace {

namespace fs = std::filesystem;

// What a reading process sends: the events, each frame with where the
// reader stood then.
class RecordingSink final : public EventSink {
 public:
  struct Frame {
    std::size_t given = 0;  // events given through this frame
    FolderPosition at;
  };

  explicit RecordingSink(const GrowingTraceReader*& reader) : reader_(reader) {}
  void trace_opened(match::TraceIndex, const TraceInfo&) override { ++opened; }
  void trace_events(match::TraceIndex, std::span<const match::PacketEvent> given, model::Nanoseconds) override {
    events.insert(events.end(), given.begin(), given.end());
    frames.push_back({events.size(), reader_->position()});
  }
  void trace_closed(match::TraceIndex) override {}

  std::vector<match::PacketEvent> events;
  std::vector<Frame> frames;
  int opened = 0;

 private:
  const GrowingTraceReader*& reader_;
};

// An event as the matcher sees it (the stream index names a file of the
// staged trace of its look, which differs with the looks).
auto key(const match::PacketEvent& e) {
  return std::tuple(e.time, e.direction, e.layout, e.kind, e.tcp.seq, e.tcp.ack_seq, e.tcp.flags, e.endpoints.family,
                    e.endpoints.saddr, e.endpoints.daddr, e.endpoints.source_port, e.endpoints.dest_port,
                    e.app.words, e.app.size);
}

std::vector<decltype(key(match::PacketEvent{}))> sorted_keys(const std::vector<match::PacketEvent>& events) {
  std::vector<decltype(key(match::PacketEvent{}))> keys;
  for (const match::PacketEvent& e : events) keys.push_back(key(e));
  std::sort(keys.begin(), keys.end());
  return keys;
}

void read_to_the_end(GrowingTraceReader& reader) {
  do {
    reader.step(64);
  } while (reader.state() == TraceReader::State::kReading && !reader.waiting());
}

void resume_at_every_frame(ReaderChoice choice, std::size_t most_cuts) {
  const simulate::testing::TempDirectory dir;
  simulate::SimulationOptions simulation;
  simulation.output_dir = dir / "experiment";
  simulation.hosts = 2;
  simulation.cpus_per_host = 1;
  simulation.duration_s = 8;
  simulation.message_rate = 1000;  // 10 packets of 4,096 events on host0's CPU
  simulation.seed = 5;
  const simulate::SimulationSummary summary = simulate::run(simulation);
  const std::string folder = (fs::path(dir / "followed") / "host0").string();
  tracesync::testing::PacketReplay replay({summary.hosts.front().trace_path}, {folder});

  ReaderOptions options;
  options.reader = choice;
  options.batch_events = 64;  // many frames a look: cuts in the middle of looks
  const auto quiet = std::chrono::milliseconds(60'000);
  const GrowingTraceReader* stepping = nullptr;
  RecordingSink whole_sink(stepping);
  GrowingTraceReader whole(TraceSource{folder, {}, std::nullopt}, 0, options, whole_sink, quiet);
  stepping = &whole;
  while (replay.write(4)) whole.step(64);
  read_to_the_end(whole);
  ASSERT_EQ(whole.state(), TraceReader::State::kReading) << whole.problem();
  ASSERT_GT(whole_sink.events.size(), 500u);
  const auto expected = sorted_keys(whole_sink.events);

  // Cuts in the middle of a look (another frame of the same look follows),
  // and between looks.
  std::size_t partial = 0, between = 0;
  for (std::size_t i = 0; i < whole_sink.frames.size(); ++i) {
    const FolderPosition& at = whole_sink.frames[i].at;
    if (at.look.empty()) ++between;
    if (!at.look.empty() && i + 1 < whole_sink.frames.size() && whole_sink.frames[i + 1].at.look == at.look &&
        whole_sink.frames[i + 1].at.packets == at.packets) {
      ++partial;
    }
  }
  ASSERT_GE(partial, 3u) << "few frames came in the middle of a look: the cuts test little";
  ASSERT_GE(between, 3u) << "few frames came between two looks";

  const std::size_t frames = whole_sink.frames.size();
  const std::size_t every = std::max<std::size_t>(1, frames / most_cuts);
  for (std::size_t cut = 0; cut < frames; cut += every) {
    SCOPED_TRACE("cut after frame " + std::to_string(cut) + " of " + std::to_string(frames));
    const RecordingSink::Frame& at = whole_sink.frames[cut];
    RecordingSink sink(stepping);
    GrowingTraceReader resumed(TraceSource{folder, {}, std::nullopt}, 0, options, sink, quiet);
    stepping = &resumed;
    resumed.resume_at(at.at);
    read_to_the_end(resumed);
    ASSERT_EQ(resumed.state(), TraceReader::State::kReading) << resumed.problem();
    std::vector<match::PacketEvent> given(whole_sink.events.begin(),
                                          whole_sink.events.begin() + static_cast<std::ptrdiff_t>(at.given));
    given.insert(given.end(), sink.events.begin(), sink.events.end());
    EXPECT_EQ(given.size(), expected.size());
    EXPECT_TRUE(sorted_keys(given) == expected) << "an event given twice or lost";
    // The whole trace info: a resumed reader's census counts what its
    // predecessor gave, as the uncut reading's does.
    testing::expect_same_trace_info(resumed.info(), whole.info());
    EXPECT_EQ(resumed.progress(), whole.progress());
  }
}

TEST(GrowingTraceReaderResume, GivesTheRestAtEveryCutWithTheScanner) {
  resume_at_every_frame(ReaderChoice::kScanner, 60);
}

TEST(GrowingTraceReaderResume, GivesTheRestAtEveryCutWithBabeltrace2) {
  resume_at_every_frame(ReaderChoice::kBabeltrace2, 20);
}

}  // namespace
}  // namespace tracesync::ingest
