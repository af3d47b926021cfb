// SPDX-License-Identifier: EPL-2.0
// A live session attached again after its reading process died
// (CtfTraceReader::resume_live_after, docs/live.md "A reading process that
// dies"): the relay serves each stream again from a packet that may begin
// before the cut or after it. The reader gives, and counts, only what comes
// after the cut, and names each stream whose first packet begins after it.
// A relay cannot be told where to serve from, so the rule is checked on a
// trace folder read from its start: every stream's first packet is then
// its first, which begins before a cut in the middle of the trace and after
// a cut before the trace.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <optional>
#include <vector>

#include "ctf_test_writer.h"
#include "ingest/ctf_trace_reader.h"
#include "recording_sink.h"

namespace tracesync::ingest {
namespace {

namespace fs = std::filesystem;
using testing::NetEvent;

// Two streams, each with TCP segments and other events, five packets each.
fs::path write_two_streams(const fs::path& root) {
  std::vector<NetEvent> events;
  for (uint32_t i = 0; i < 80; ++i) {
    const uint64_t t = 10'000 + 1000 * static_cast<uint64_t>(i);
    events.push_back(testing::tcp_segment(i % 4 < 2 ? "net_dev_queue" : "timer_init", t, i));
  }
  testing::TraceShape shape;
  shape.streams = 2;
  shape.events_per_packet = 8;
  const fs::path dir = root / "host";
  testing::write_trace(dir, shape, events);
  return dir;
}

struct Reading {
  testing::RecordingSink sink;
  TraceInfo info;
  std::vector<StreamGap> gaps;
};

void read_whole(const fs::path& trace, std::optional<model::Nanoseconds> cut, Reading& out) {
  ReaderOptions options;
  options.reader = ReaderChoice::kBabeltrace2;
  CtfTraceReader reader(TraceSource{trace.string(), "host", std::nullopt}, 0, options, out.sink);
  if (cut) reader.resume_live_after(*cut);
  while (reader.step(64) == TraceReader::State::kReading || reader.state() == TraceReader::State::kNew) {
  }
  ASSERT_EQ(reader.state(), TraceReader::State::kDone) << reader.problem();
  out.info = reader.info();
  out.gaps = reader.gaps();
}

TEST(LiveReattachment, GivesAndCountsOnlyWhatComesAfterTheCutAndNamesTheStreamsBegunLater) {
  testing::TempDir dir("reattached");
  const fs::path trace = write_two_streams(dir.path());
  Reading whole;
  read_whole(trace, std::nullopt, whole);
  const std::vector<match::PacketEvent> all = whole.sink.events_of(0);
  ASSERT_EQ(all.size(), 40u);
  ASSERT_EQ(whole.info.events, 80u);
  EXPECT_TRUE(whole.gaps.empty()) << "a first attachment names no gap";

  // A cut in the middle: both streams are served again from before it.
  const model::Nanoseconds first = all.front().time;  // the trace's first event, a TCP one
  for (const model::Nanoseconds cut : {all[17].time, all[17].time + 1, all[30].time - 1}) {
    SCOPED_TRACE("cut at " + std::to_string(cut - first) + " ns after the first event");
    Reading again;
    read_whole(trace, cut, again);
    std::vector<match::PacketEvent> after;
    std::copy_if(all.begin(), all.end(), std::back_inserter(after), [&](const auto& e) { return e.time > cut; });
    const std::vector<match::PacketEvent> given = again.sink.events_of(0);
    ASSERT_EQ(given.size(), after.size());
    for (std::size_t i = 0; i < given.size(); ++i) {
      EXPECT_EQ(given[i].time, after[i].time);
      EXPECT_EQ(given[i].tcp.seq, after[i].tcp.seq);
    }
    EXPECT_EQ(again.info.network_events, after.size());
    EXPECT_EQ(tcp_events(again.info.network_census, match::Direction::kSend), after.size());
    // The others too: the trace's events come 1 us apart from the first on.
    EXPECT_EQ(again.info.events, 80u - static_cast<uint64_t>((cut - first) / 1000 + 1));
    EXPECT_TRUE(again.gaps.empty()) << "each stream was served again from before the cut";
  }

  // A cut before the trace: each stream begins after it, a gap each, ending
  // where its first packet begins.
  Reading again;
  const model::Nanoseconds cut = first - 500;
  read_whole(trace, cut, again);
  EXPECT_EQ(again.sink.events_of(0).size(), all.size());
  EXPECT_EQ(again.info.events, 80u);
  ASSERT_EQ(again.gaps.size(), 2u);
  for (const StreamGap& gap : again.gaps) {
    EXPECT_EQ(gap.from, cut);
    EXPECT_GE(gap.to, first);  // stream 0's first packet begins at the first event, stream 1's 1 us later
    EXPECT_LE(gap.to, first + 1000);
  }
  EXPECT_NE(again.gaps[0].stream, again.gaps[1].stream);
}

}  // namespace
}  // namespace tracesync::ingest
