// SPDX-License-Identifier: EPL-2.0
// A live session attached again after its reading process died
// (CtfTraceReader::resume_live_after, docs/live.md "A live session whose
// reading process dies"): the relay serves each stream again from a packet
// that may begin before the cut or after it. The reader gives, and counts,
// exactly what the cut (LiveCut) does not cover, names each stream whose
// first packet begins after it, and each stream of the cut never begun
// again (unserved()).
// A relay cannot be told where to serve from, so the rule is checked on a
// trace folder read from its start: every stream's first packet is then
// its first, which begins before a cut in the middle of the trace and after
// a cut before the trace.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>
#include <optional>
#include <vector>

#include "ctf_test_writer.h"
#include "ingest/ctf_trace_reader.h"
#include "recording_sink.h"

namespace tracesync::ingest {
namespace {

namespace fs = std::filesystem;
using testing::NetEvent;

// Two streams of five packets each: 80 TCP segments (seq i) at time_of(i),
// in runs of period / 2 network events (net_dev_queue) and period / 2 others.
template <typename TimeOf>
fs::path write_two_streams(const fs::path& root, TimeOf time_of, uint32_t period) {
  std::vector<NetEvent> events;
  for (uint32_t i = 0; i < 80; ++i) {
    events.push_back(testing::tcp_segment(i % period < period / 2 ? "net_dev_queue" : "timer_init", time_of(i), i));
  }
  testing::TraceShape shape;
  shape.streams = 2;
  shape.events_per_packet = 8;
  const fs::path dir = root / "host";
  testing::write_trace(dir, shape, events);
  return dir;
}

// Two streams, each with TCP segments and other events, 1 us apart.
fs::path write_two_streams(const fs::path& root) {
  return write_two_streams(root, [](uint32_t i) { return 10'000 + 1000 * static_cast<uint64_t>(i); }, 4);
}

struct Reading {
  testing::RecordingSink sink;
  TraceInfo info;
  std::vector<StreamGap> gaps;
  std::vector<uint64_t> unserved;
};

void read_whole(const fs::path& trace, std::optional<LiveCut> cut, Reading& out) {
  ReaderOptions options;
  options.reader = ReaderChoice::kBabeltrace2;
  CtfTraceReader reader(TraceSource{trace.string(), "host", std::nullopt}, 0, options, out.sink);
  if (cut) reader.resume_live_after(*cut);
  while (reader.step(64) == TraceReader::State::kReading || reader.state() == TraceReader::State::kNew) {
  }
  ASSERT_EQ(reader.state(), TraceReader::State::kDone) << reader.problem();
  out.info = reader.info();
  out.gaps = reader.gaps();
  out.unserved = reader.unserved();
}

void read_whole(const fs::path& trace, model::Nanoseconds cut, Reading& out) {
  read_whole(trace, LiveCut{cut, {}, {}}, out);
}

TEST(LiveReattachment, GivesAndCountsOnlyWhatComesAfterTheCutAndNamesTheStreamsBegunLater) {
  testing::TempDir dir("reattached");
  const fs::path trace = write_two_streams(dir.path());
  Reading whole;
  read_whole(trace, std::optional<LiveCut>(), whole);
  const std::vector<match::PacketEvent> all = whole.sink.events_of(0);
  ASSERT_EQ(all.size(), 40u);
  ASSERT_EQ(whole.info.events, 80u);
  EXPECT_TRUE(whole.gaps.empty()) << "a first attachment names no gap";

  // A cut in the middle: both streams are served again from before it. A
  // cut that says no event at its nanosecond was given (a promise, events at
  // it allowed) gives the event there.
  const model::Nanoseconds first = all.front().time;  // the trace's first event, a TCP one
  for (const model::Nanoseconds cut : {all[17].time, all[17].time + 1, all[30].time - 1}) {
    SCOPED_TRACE("cut at " + std::to_string(cut - first) + " ns after the first event");
    Reading again;
    read_whole(trace, cut, again);
    std::vector<match::PacketEvent> after;
    std::copy_if(all.begin(), all.end(), std::back_inserter(after), [&](const auto& e) { return e.time >= cut; });
    const std::vector<match::PacketEvent> given = again.sink.events_of(0);
    ASSERT_EQ(given.size(), after.size());
    for (std::size_t i = 0; i < given.size(); ++i) {
      EXPECT_EQ(given[i].time, after[i].time);
      EXPECT_EQ(given[i].tcp.seq, after[i].tcp.seq);
    }
    EXPECT_EQ(again.info.network_events, after.size());
    EXPECT_EQ(tcp_events(again.info.network_census, match::Direction::kSend), after.size());
    // The others too: the trace's events come 1 us apart from the first on.
    EXPECT_EQ(again.info.events, 80u - static_cast<uint64_t>((cut - first + 999) / 1000));
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

// Two streams whose events share nanoseconds: event i goes to stream file
// i % 2; from i = 4 on, each 1 us holds four, two of each stream, network
// events (seq i) one microsecond, others the next. The first four tell the
// files apart: file 0 begins 1 ns before file 1.
constexpr uint64_t kBase = 10'000;
uint64_t shared_time(uint32_t i) { return i == 0 ? kBase - 1 : kBase + 1000 * static_cast<uint64_t>(i / 4); }

fs::path write_shared_nanoseconds(const fs::path& root) { return write_two_streams(root, shared_time, 8); }

// A cut at a nanosecond that four events share, two of each stream: the
// first `given` of each stream there were given before, the others were not
// and are given now, as are all later ones; the earlier ones are not.
TEST(LiveReattachment, AtTheCutsNanosecondEachStreamGivesWhatItHadNotGiven) {
  testing::TempDir dir("shared-ns");
  const fs::path trace = write_shared_nanoseconds(dir.path());
  Reading whole;
  read_whole(trace, std::optional<LiveCut>(), whole);
  ASSERT_EQ(whole.sink.events_of(0).size(), 40u);
  const model::Nanoseconds first = whole.sink.events_of(0).front().time;  // event 0's

  // The streams' ids, as the reader names them: from their gaps when the
  // cut is before the trace (file 0's first packet begins 1 ns earlier).
  Reading before;
  read_whole(trace, first - 10, before);
  ASSERT_EQ(before.gaps.size(), 2u);
  std::map<int, uint64_t> id_of_file;
  for (const StreamGap& gap : before.gaps) id_of_file[gap.to == first ? 0 : 1] = gap.stream;
  ASSERT_EQ(id_of_file.size(), 2u) << "the gaps end where each file begins";

  // The microsecond of events 32..35, all network events: 32 and 34 in file
  // 0, 33 and 35 in file 1; and that of 36..39, none.
  for (const uint32_t group : {32u, 36u}) {
    const model::Nanoseconds cut = first + static_cast<model::Nanoseconds>(shared_time(group) - (kBase - 1));
    const std::vector<std::pair<uint64_t, uint64_t>> counts{{0, 0}, {1, 0}, {0, 1}, {2, 1}, {2, 2}};
    for (const auto& [given0, given1] : counts) {
      SCOPED_TRACE("events " + std::to_string(group) + "-" + std::to_string(group + 3) + ", " + std::to_string(given0) +
                   " and " + std::to_string(given1) + " given at the cut");
      LiveCut given{cut, {{id_of_file[0], given0}, {id_of_file[1], given1}}, {}};
      std::sort(given.at_through.begin(), given.at_through.end());
      Reading again;
      read_whole(trace, given, again);
      // Not given before: events after the group, and those of the group
      // past each file's first `given`.
      std::vector<uint32_t> expected;
      uint64_t expected_events = 0;
      for (uint32_t i = 0; i < 80; ++i) {
        const uint64_t nth_in_file_at_cut = (i - group) / 2 + 1;  // within the group
        const bool owed = i >= group + 4 || (i >= group && nth_in_file_at_cut > (i % 2 == 0 ? given0 : given1));
        if (!owed) continue;
        ++expected_events;
        if (i % 8 < 4) expected.push_back(i);
      }
      std::vector<uint32_t> seqs;
      for (const auto& e : again.sink.events_of(0)) seqs.push_back(e.tcp.seq);
      std::sort(seqs.begin(), seqs.end());
      EXPECT_EQ(seqs, expected);
      EXPECT_EQ(again.info.events, expected_events) << "counted: what was not given before";
      EXPECT_EQ(again.info.network_events, expected.size());
      EXPECT_TRUE(again.gaps.empty());
    }
  }
}

// The streams of the cut the reading never began again are unserved(); a
// first attachment has none.
TEST(LiveReattachment, AStreamOfTheCutNotServedAgainIsNamed) {
  testing::TempDir dir("unserved");
  const fs::path trace = write_two_streams(dir.path());
  Reading whole;
  read_whole(trace, std::optional<LiveCut>(), whole);
  EXPECT_TRUE(whole.unserved.empty());
  Reading before;
  read_whole(trace, INT64_MIN + 1, before);
  ASSERT_EQ(before.gaps.size(), 2u);
  LiveCut cut{whole.sink.events_of(0)[10].time, {}, {before.gaps[0].stream, before.gaps[1].stream, 999'999}};
  std::sort(cut.streams.begin(), cut.streams.end());
  Reading again;
  read_whole(trace, cut, again);
  EXPECT_EQ(again.unserved, std::vector<uint64_t>{999'999});
}

}  // namespace
}  // namespace tracesync::ingest
