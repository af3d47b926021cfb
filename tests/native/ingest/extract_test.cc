// SPDX-License-Identifier: EPL-2.0
// Extracts (issue 31): what ExtractWriter writes down, ExtractTraceReader
// gives back exactly; a file cut or changed anywhere fails its traces with a
// problem naming it, after giving at most what was written, and never
// crashes.

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <sstream>

#include "ingest/experiment_reader.h"
#include "ingest/extract_frames.h"
#include "ingest/extract_index.h"
#include "ingest/extract_trace_reader.h"
#include "ingest/extract_writer.h"
#include "ingest/network_event_names.h"
#include "ingest/same_trace_info.h"

namespace tracesync::ingest {
namespace {

namespace fs = std::filesystem;

bool same_event(const match::PacketEvent& a, const match::PacketEvent& b) {
  return a.time == b.time && a.trace == b.trace && a.direction == b.direction && a.layout == b.layout &&
         a.tcp.seq == b.tcp.seq && a.tcp.ack_seq == b.tcp.ack_seq && a.tcp.flags == b.tcp.flags &&
         a.endpoints == b.endpoints;
}

// What a sink was given, per trace, in order.
struct Recording final : EventSink {
  struct Trace {
    std::optional<TraceInfo> opened;
    std::vector<std::vector<match::PacketEvent>> batches;
    std::vector<model::Nanoseconds> promises;
    bool closed = false;
  };
  std::map<match::TraceIndex, Trace> traces;
  void trace_opened(match::TraceIndex trace, const TraceInfo& info) override { traces[trace].opened = info; }
  void trace_events(match::TraceIndex trace, std::span<const match::PacketEvent> events,
                    model::Nanoseconds progress) override {
    traces[trace].batches.emplace_back(events.begin(), events.end());
    traces[trace].promises.push_back(progress);
  }
  void trace_closed(match::TraceIndex trace) override { traces[trace].closed = true; }
};

TraceInfo info_of(int host) {
  TraceInfo info;
  info.path = "/data/host" + std::to_string(host) + "/kernel";
  info.name = "host" + std::to_string(host) + "/kernel";
  info.hostname = "host" + std::to_string(host);
  info.domain_id = "uuid-" + std::to_string(host);
  info.domain_source = DomainSource::kClockUuid;
  info.clock = ClockInfo{"monotonic", "uuid-" + std::to_string(host), 1'000'000'000, -3, 12345, true};
  info.first_event = -5;
  info.last_event = std::numeric_limits<int64_t>::max();
  info.streams = 4;
  info.events = 1000 + static_cast<uint64_t>(host);
  info.network_events = 600;
  info.network_census[0] = {true, "", 300, 2, 1};
  info.network_census[3] = {true, "no `network_header`", 0, 0, 297};
  info.discarded_events = 7;
  info.damaged_packets = 1;
  info.damaged_network_events = 3;
  info.first_time_damage = "stream channel0_0, packet at byte 0: its end before its beginning";
  info.bytes = 1 << 20;
  info.reader = "babeltrace2";
  info.reader_reason = "--reader babeltrace2";
  info.metadata_format = "CTF 1.8";
  return info;
}

// Random events of every shape: any times (deltas overflow int64), every
// layout, no addresses, IPv4 and IPv6.
std::vector<match::PacketEvent> random_events(std::mt19937_64& random, match::TraceIndex trace, std::size_t n) {
  std::vector<match::PacketEvent> events(n);
  for (match::PacketEvent& e : events) {
    e.time = static_cast<model::Nanoseconds>(random() % 4 == 0 ? random() : 1'700'000'000'000'000'000 + random() % 1'000'000'000);
    e.trace = trace;
    e.direction = random() % 2 == 0 ? match::Direction::kSend : match::Direction::kReceive;
    e.layout = static_cast<match::Layout>(random() % 3);
    e.tcp = {static_cast<uint32_t>(random()), static_cast<uint32_t>(random()), static_cast<uint16_t>(random())};
    const auto family = random() % 3;
    if (family != 0) {
      e.endpoints.family = family == 1 ? 4 : 6;
      const std::size_t size = family == 1 ? 4 : 16;
      for (std::size_t i = 0; i < size; ++i) {
        e.endpoints.saddr[i] = static_cast<uint8_t>(random());
        e.endpoints.daddr[i] = static_cast<uint8_t>(random());
      }
      e.endpoints.source_port = static_cast<uint16_t>(random());
      e.endpoints.dest_port = static_cast<uint16_t>(random());
    }
  }
  return events;
}

struct Written {
  std::string file;
  Recording given;  // what the writer was given
  std::vector<TraceSource> sources;
  ExperimentReport report;
};

// Three traces written interleaved: one complete, one that failed after
// some events, one skipped before opening.
Written write_extract(const fs::path& dir) {
  Written w;
  w.file = (dir / "x.tsx").string();
  std::FILE* out = std::fopen(w.file.c_str(), "wb");
  ExtractWriter writer(out, "test");
  std::mt19937_64 random(31);
  const auto give_open = [&](match::TraceIndex t, const TraceInfo& info) {
    writer.trace_opened(t, info);
    w.given.trace_opened(t, info);
  };
  const auto give = [&](match::TraceIndex t, std::size_t n, model::Nanoseconds promise) {
    const auto events = random_events(random, t, n);
    writer.trace_events(t, events, promise);
    w.given.trace_events(t, events, promise);
  };
  give_open(0, info_of(0));
  give_open(1, info_of(1));
  give(0, 100, 10);
  give(1, 3, INT64_MIN);
  give(0, 1, 20);
  give(1, 50, 30);
  give(0, 0, 40);
  w.sources = {{info_of(0).path, info_of(0).name, std::nullopt, std::nullopt},
               {info_of(1).path, info_of(1).name, std::nullopt, std::nullopt},
               {"/data/host2/kernel", "host2/kernel", std::nullopt, std::nullopt}};
  TraceReport complete{info_of(0), TraceStatus::kComplete, "", false, {{"/data/host0/kernel/fifo", "is a FIFO"}}};
  complete.info.events = 5000;
  TraceReport partial{info_of(1), TraceStatus::kPartial, "stream x: packet 3 is damaged", false, {}};
  TraceReport skipped{TraceInfo{}, TraceStatus::kSkipped, "cannot be opened: bad metadata", false, {}};
  w.report.traces = {complete, partial, skipped};
  EXPECT_TRUE(writer.finish(w.sources, w.report));
  std::fclose(out);
  return w;
}

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("extract-test-" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

// Replays every trace of `file` into `sink`, as read_experiment would.
std::vector<std::unique_ptr<ExtractTraceReader>> replay(const std::string& file, Recording& sink,
                                                        std::vector<Problem>* problems = nullptr,
                                                        std::vector<TraceSource>* found = nullptr) {
  std::vector<TraceSource> sources;
  std::vector<Problem> index_problems;
  index_extract(file, sources, index_problems);
  if (problems != nullptr) *problems = index_problems;
  if (found != nullptr) *found = sources;
  std::vector<std::unique_ptr<ExtractTraceReader>> readers;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    readers.push_back(std::make_unique<ExtractTraceReader>(sources[i], static_cast<match::TraceIndex>(i), sink));
    // A round at a time, alternating between traces.
  }
  for (bool any = true; any;) {
    any = false;
    for (auto& reader : readers) {
      const auto state = reader->step(1);
      any = any || state == TraceReader::State::kReading || state == TraceReader::State::kNew;
    }
  }
  return readers;
}

TEST(Extract, ReplaysExactlyWhatWasWritten) {
  TempDir dir;
  const Written w = write_extract(dir.path);
  Recording got;
  std::vector<Problem> problems;
  std::vector<TraceSource> found;
  const auto readers = replay(w.file, got, &problems, &found);
  EXPECT_TRUE(problems.empty());
  ASSERT_EQ(found.size(), 3u);
  for (std::size_t t = 0; t < 2; ++t) {
    SCOPED_TRACE("trace " + std::to_string(t));
    EXPECT_EQ(found[t].path, w.sources[t].path);
    EXPECT_EQ(found[t].name, w.sources[t].name);
    const auto& want = w.given.traces.at(static_cast<match::TraceIndex>(t));
    const auto& have = got.traces.at(static_cast<match::TraceIndex>(t));
    ASSERT_TRUE(have.opened);
    testing::expect_same_trace_info(*have.opened, *want.opened);
    ASSERT_EQ(have.batches.size(), want.batches.size());
    EXPECT_EQ(have.promises, want.promises);
    for (std::size_t b = 0; b < want.batches.size(); ++b) {
      ASSERT_EQ(have.batches[b].size(), want.batches[b].size());
      for (std::size_t e = 0; e < want.batches[b].size(); ++e) {
        EXPECT_TRUE(same_event(have.batches[b][e], want.batches[b][e])) << "batch " << b << " event " << e;
      }
    }
    EXPECT_TRUE(have.closed);
  }
  // The recorded ends: complete with its final counts and left-out entry;
  // failed with its problem; skipped before opening, named by its source.
  EXPECT_EQ(readers[0]->state(), TraceReader::State::kDone);
  testing::expect_same_trace_info(readers[0]->info(), w.report.traces[0].info);
  ASSERT_EQ(readers[0]->left_out().size(), 1u);
  EXPECT_EQ(readers[0]->left_out()[0].message, "is a FIFO");
  EXPECT_EQ(readers[1]->state(), TraceReader::State::kFailed);
  EXPECT_EQ(readers[1]->problem(), "stream x: packet 3 is damaged");
  EXPECT_EQ(readers[2]->state(), TraceReader::State::kFailed);
  EXPECT_EQ(readers[2]->problem(), "cannot be opened: bad metadata");
  EXPECT_EQ(found[2].path, "/data/host2/kernel");
  EXPECT_FALSE(got.traces.at(2).opened);
  EXPECT_TRUE(got.traces.at(2).closed);
}

TEST(Extract, DomainOverrideReplacesTheRecordedDomain) {
  TempDir dir;
  const Written w = write_extract(dir.path);
  std::vector<TraceSource> sources;
  std::vector<Problem> problems;
  index_extract(w.file, sources, problems);
  sources[0].domain_override = "shared";
  Recording got;
  ExtractTraceReader reader(sources[0], 0, got);
  while (reader.step(8) == TraceReader::State::kReading) {
  }
  EXPECT_EQ(got.traces.at(0).opened->domain_id, "shared");
  EXPECT_EQ(got.traces.at(0).opened->domain_source, DomainSource::kOverride);
  EXPECT_EQ(reader.info().domain_id, "shared");
}

// Every prefix of the file, and a byte changed at every offset: no crash;
// each trace either replays exactly or fails with a problem naming the
// file, having given a prefix of its batches.
TEST(Extract, DamageAnywhereFailsItsTracesNamingTheFile) {
  TempDir dir;
  const Written w = write_extract(dir.path);
  std::ifstream in(w.file, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> damaged;
  for (std::size_t n = 0; n < bytes.size(); n += 17) damaged.push_back(bytes.substr(0, n));
  for (std::size_t i = 0; i < bytes.size(); i += 13) {
    std::string changed = bytes;
    changed[i] = static_cast<char>(changed[i] ^ 0x5A);
    damaged.push_back(changed);
  }
  const std::string file = (dir.path / "damaged.tsx").string();
  std::size_t failed = 0;
  for (const std::string& contents : damaged) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << contents;
    Recording got;
    std::vector<Problem> problems;
    std::vector<TraceSource> found;
    const auto readers = replay(file, got, &problems, &found);
    for (const Problem& p : problems) EXPECT_EQ(p.source, file);
    for (std::size_t t = 0; t < readers.size(); ++t) {
      const ExtractTraceReader& reader = *readers[t];
      ASSERT_TRUE(reader.state() == TraceReader::State::kDone || reader.state() == TraceReader::State::kFailed);
      const auto original = std::find_if(w.sources.begin(), w.sources.end(),
                                         [&](const TraceSource& s) { return s.path == found[t].path; });
      ASSERT_NE(original, w.sources.end()) << found[t].path;
      const auto index = static_cast<match::TraceIndex>(original - w.sources.begin());
      const bool recorded_failure = index != 0;
      if (reader.state() == TraceReader::State::kFailed && !recorded_failure) {
        EXPECT_NE(reader.problem().find(file), std::string::npos) << reader.problem();
        ++failed;
      }
      const auto given = got.traces.find(static_cast<match::TraceIndex>(t));
      if (given == got.traces.end()) continue;
      const auto& want = w.given.traces.count(index) ? w.given.traces.at(index) : Recording::Trace{};
      ASSERT_LE(given->second.batches.size(), want.batches.size());
      for (std::size_t b = 0; b < given->second.batches.size(); ++b) {
        ASSERT_EQ(given->second.batches[b].size(), want.batches[b].size());
        for (std::size_t e = 0; e < want.batches[b].size(); ++e) {
          EXPECT_TRUE(same_event(given->second.batches[b][e], want.batches[b][e]));
        }
      }
    }
    if (readers.empty()) {
      EXPECT_FALSE(problems.empty());
    }
  }
  EXPECT_GT(failed, 0u);
}

TEST(Extract, ChecksumIsZlibsCrc32) {
  EXPECT_EQ(extract_crc32(""), 0u);
  EXPECT_EQ(extract_crc32("123456789"), 0xCBF43926u);  // the CRC-32 check value
}

}  // namespace
}  // namespace tracesync::ingest
