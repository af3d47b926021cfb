// SPDX-License-Identifier: EPL-2.0
// Damaged time never passes in silence (issue 34): flipped bits in event
// timestamps and in packets' timestamp_begin and timestamp_end, in the real
// LTTng 2.1 scp traces and in simulated ones, are each reported, and the
// events still used are the undamaged trace's own.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "ingest/event_sink.h"
#include "ingest/experiment_reader.h"
#include "sorted_event_sink.h"
#include "simulate/simulate.h"
#include "simulate/temp_directory.h"

namespace tracesync::ingest {
namespace {

namespace fs = std::filesystem;

const fs::path kScpSource = fs::path(TRACESYNC_SHARED_DIR) / "fixtures" / "lttng-modules-2.1-addons" / "scp_src";

using CollectingSink = testing::SortedEventSink;

using Reading = testing::SortedReading;

Reading read(const fs::path& trace, bool in_process) { return testing::read_sorted(trace.string(), in_process); }

// Whether a reading says something is wrong: damaged time, or a trace read
// in part or not at all.
bool reported(const Reading& r) {
  return r.report.info.damaged_packets > 0 || r.report.status != TraceStatus::kComplete;
}

// Every event of `part` is one of `whole`'s (both sorted).
bool is_subset(const std::vector<match::PacketEvent>& part, const std::vector<match::PacketEvent>& whole) {
  return std::includes(whole.begin(), whole.end(), part.begin(), part.end(), CollectingSink::earlier);
}

bool same_events(const std::vector<match::PacketEvent>& a, const std::vector<match::PacketEvent>& b) {
  return a.size() == b.size() && is_subset(a, b);
}

uint64_t load_le64(std::fstream& file, uint64_t offset) {
  std::array<unsigned char, 8> bytes{};
  file.seekg(static_cast<std::streamoff>(offset));
  file.read(reinterpret_cast<char*>(bytes.data()), 8);
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | bytes[static_cast<std::size_t>(i)];
  return value;
}

void flip_bit(const fs::path& file_path, uint64_t byte, unsigned bit) {
  std::fstream file(file_path, std::ios::in | std::ios::out | std::ios::binary);
  file.seekg(static_cast<std::streamoff>(byte));
  char c = 0;
  file.get(c);
  c = static_cast<char>(c ^ (1 << bit));
  file.seekp(static_cast<std::streamoff>(byte));
  file.put(c);
}

// Where a trace's packets keep their sizes and times, from its metadata.
struct Layout {
  uint64_t packet_size_at;  // uint64, bits
  uint64_t begin_at;        // uint64 timestamp_begin
  uint64_t end_at;          // uint64 timestamp_end
  uint64_t first_event_at;  // the first event's header
};
// The scp traces: packet header magic, uuid[16], uint32 stream_id; context
// timestamp_begin, timestamp_end, content_size, packet_size, events_discarded
// (64 bits each), uint32 cpu_id; the first event at 68, a large header:
// 16-bit id, then (ids below 65535) a 32-bit timestamp.
constexpr Layout kScp = {48, 24, 32, 68};
// tracesync simulate's (babeltrace2's sink.ctf.fs): magic, uuid[16],
// uint64 stream_id and stream_instance_id; context packet_size,
// content_size, timestamp_begin, timestamp_end, ... (64 bits each); the
// first event at 88: 64-bit id, then a 64-bit timestamp.
constexpr Layout kSimulated = {36, 52, 60, 88};

struct PacketAt {
  uint64_t offset;
  uint64_t begin;
  uint64_t end;
};
std::vector<PacketAt> packets(const fs::path& stream, const Layout& layout) {
  std::fstream file(stream, std::ios::in | std::ios::binary);
  const uint64_t size = fs::file_size(stream);
  std::vector<PacketAt> out;
  for (uint64_t at = 0; at + layout.first_event_at <= size;) {
    EXPECT_EQ(load_le64(file, at) & 0xFFFFFFFFu, 0xC1FC1FC1u) << "no packet magic at " << at;
    out.push_back({at, load_le64(file, at + layout.begin_at), load_le64(file, at + layout.end_at)});
    const uint64_t packet_bits = load_le64(file, at + layout.packet_size_at);
    if (packet_bits == 0) break;
    at += packet_bits / 8;
  }
  return out;
}

// The byte and bit that clear timestamp_end's highest bit, one the packet's
// length does not need: the packet then ends before it begins.
std::pair<uint64_t, unsigned> end_before_begin(const PacketAt& p, const Layout& layout) {
  const unsigned bit = 63 - static_cast<unsigned>(__builtin_clzll(p.end));
  EXPECT_GT(uint64_t{1} << bit, p.end - p.begin);
  return {p.offset + layout.end_at + bit / 8, bit % 8};
}

fs::path copy_of(const fs::path& trace, const fs::path& where) {
  fs::copy(trace, where, fs::copy_options::recursive);
  for (const auto& entry : fs::recursive_directory_iterator(where)) {
    fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
  }
  return where;
}

class TimeDamage : public ::testing::TestWithParam<bool> {};

TEST_P(TimeDamage, TheUndamagedFixturesReadWithNoDamage) {
  if (!fs::is_directory(kScpSource)) GTEST_SKIP() << "shared fixtures absent: " << kScpSource;
  for (const char* name : {"scp_src", "scp_dest"}) {
    const Reading r = read(kScpSource.parent_path() / name, GetParam());
    EXPECT_EQ(r.report.status, TraceStatus::kComplete) << name << ": " << r.report.problem;
    EXPECT_EQ(r.report.info.damaged_packets, 0u) << name << ": " << r.report.info.first_time_damage;
    EXPECT_GT(r.events.size(), 0u) << name;
  }
}

TEST_P(TimeDamage, FlippedBitsInTheScpTracesTimesAreEachReported) {
  if (!fs::is_directory(kScpSource)) GTEST_SKIP() << "shared fixtures absent: " << kScpSource;
  const simulate::testing::TempDirectory dir;
  const Reading intact = read(kScpSource, GetParam());
  ASSERT_EQ(intact.report.info.damaged_packets, 0u);
  const std::vector<PacketAt> found = packets(kScpSource / "channel0_0", kScp);
  ASSERT_GE(found.size(), 5u);
  // The packet (not the first) with the most network events: its damage costs them.
  const ClockInfo& clock = intact.report.info.clock.value();
  ASSERT_EQ(clock.frequency, 1'000'000'000u);
  const auto ns = [&](uint64_t cycles) {
    return clock.offset_seconds * 1'000'000'000 + static_cast<int64_t>(clock.offset_cycles + cycles);
  };
  std::size_t chosen = 1;
  std::size_t most = 0;
  for (std::size_t i = 1; i + 1 < found.size(); ++i) {
    const auto in_packet = static_cast<std::size_t>(
        std::count_if(intact.events.begin(), intact.events.end(), [&](const match::PacketEvent& e) {
          return e.time >= ns(found[i].begin) && e.time <= ns(found[i].end);
        }));
    if (in_packet > most) std::tie(chosen, most) = std::tuple(i, in_packet);
  }
  ASSERT_GT(most, 0u);
  const PacketAt& p = found[chosen];
  const std::string named = "packet " + std::to_string(chosen) + " (from 0)";
  {
    std::fstream file(kScpSource / "channel0_0", std::ios::in | std::ios::binary);
    ASSERT_LT(load_le64(file, p.offset + kScp.first_event_at) & 0xFFFF, 65535u) << "not a compact timestamp";
  }

  // timestamp_begin gains 2^40 cycles (18 min); the first event's 32-bit
  // timestamp gains or loses 2^26 cycles (67 ms), and babeltrace2 then reads
  // a wrap-around (4.3 s) into the events after it.
  const std::vector<std::tuple<std::string, uint64_t, unsigned>> flips = {
      {"timestamp_begin bit 40", p.offset + kScp.begin_at + 5, 0},
      {"first event's timestamp bit 26", p.offset + kScp.first_event_at + 2 + 3, 2},
  };
  for (const auto& [what, byte, bit] : flips) {
    const fs::path copy = copy_of(kScpSource, dir.path() / ("copy-" + std::to_string(byte)));
    flip_bit(copy / "channel0_0", byte, bit);
    const Reading damaged = read(copy, GetParam());
    EXPECT_TRUE(reported(damaged)) << what << ": nothing reported";
    EXPECT_TRUE(is_subset(damaged.events, intact.events)) << what << ": events that are not the trace's were used";
    EXPECT_NE(damaged.report.info.first_time_damage.find(named), std::string::npos)
        << what << ": " << damaged.report.info.first_time_damage;
    EXPECT_EQ(damaged.report.info.damaged_packets, 1u) << what;
    EXPECT_GT(damaged.report.info.damaged_network_events, 0u) << what;
    EXPECT_EQ(damaged.events.size() + damaged.report.info.damaged_network_events, intact.events.size()) << what;
    EXPECT_NE(damaged.report.info.first_time_damage.find("channel0_0"), std::string::npos)
        << what << ": " << damaged.report.info.first_time_damage;
  }

  // babeltrace2 2.0 replaces the timestamp_end of lttng-modules traces older
  // than 2.11 by their packets' last event times (its fix for an LTTng bug):
  // a damaged one is never seen, and harms nothing.
  const auto [byte, bit] = end_before_begin(p, kScp);
  const fs::path copy = copy_of(kScpSource, dir.path() / "copy-end");
  flip_bit(copy / "channel0_0", byte, bit);
  const Reading damaged = read(copy, GetParam());
  EXPECT_TRUE(reported(damaged) || same_events(damaged.events, intact.events)) << "timestamp_end: other events, unreported";
}

TEST_P(TimeDamage, FlippedBitsInASimulatedTracesPacketTimesAreReported) {
  const simulate::testing::TempDirectory dir;
  simulate::SimulationOptions options;
  options.output_dir = dir / "experiment";
  options.hosts = 2;
  options.cpus_per_host = 2;
  options.duration_s = 5;
  options.message_rate = 200;
  options.seed = 12;
  const fs::path trace = simulate::run(options).hosts.at(0).trace_path;
  const Reading intact = read(trace, GetParam());
  ASSERT_EQ(intact.report.info.damaged_packets, 0u);
  const PacketAt p = packets(trace / "channel0_1", kSimulated).at(0);
  const auto [end_byte, end_bit] = end_before_begin(p, kSimulated);
  const std::vector<std::tuple<std::string, uint64_t, unsigned>> flips = {
      {"timestamp_begin bit 40", p.offset + kSimulated.begin_at + 5, 0},
      {"timestamp_end", end_byte, end_bit},
  };
  for (const auto& [what, byte, bit] : flips) {
    const fs::path copy = copy_of(trace, dir.path() / ("copy-" + std::to_string(byte)));
    flip_bit(copy / "channel0_1", byte, bit);
    const Reading damaged = read(copy, GetParam());
    EXPECT_TRUE(reported(damaged)) << what << ": nothing reported";
    EXPECT_TRUE(is_subset(damaged.events, intact.events)) << what << ": events that are not the trace's were used";
  }
}

TEST_P(TimeDamage, AFlippedBitInASixtyFourBitEventTimestampIsReported) {
  const simulate::testing::TempDirectory dir;
  simulate::SimulationOptions options;
  options.output_dir = dir / "experiment";
  options.hosts = 2;
  options.cpus_per_host = 2;
  options.duration_s = 5;
  options.message_rate = 200;
  options.seed = 11;
  const fs::path trace = simulate::run(options).hosts.at(0).trace_path;
  const Reading intact = read(trace, GetParam());
  ASSERT_EQ(intact.report.info.damaged_packets, 0u);
  ASSERT_GT(intact.events.size(), 100u);
  const ClockInfo& clock = intact.report.info.clock.value();
  ASSERT_EQ(clock.frequency, 1'000'000'000u);

  // A network event in the middle: its 64-bit timestamp (cycles from the
  // clock's offset) is found in its stream file and gains 2^33 cycles (8.6 s).
  const match::PacketEvent& victim = intact.events[intact.events.size() / 2];
  const int64_t cycles = victim.time - clock.offset_seconds * 1'000'000'000 - static_cast<int64_t>(clock.offset_cycles);
  std::array<char, 8> needle{};
  std::memcpy(needle.data(), &cycles, 8);  // x86-64: little-endian, as the trace
  int found = 0;
  for (const auto& entry : fs::directory_iterator(trace)) {
    if (entry.path().filename().string().rfind("channel", 0) != 0) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::size_t at = bytes.find(needle.data(), 0, 8); at != std::string::npos;
         at = bytes.find(needle.data(), at + 1, 8)) {
      const fs::path copy = copy_of(trace, dir.path() / ("copy-" + std::to_string(found)));
      flip_bit(copy / entry.path().filename(), at + 4, 1);
      const Reading damaged = read(copy, GetParam());
      EXPECT_TRUE(reported(damaged)) << entry.path() << " at " << at << ": nothing reported";
      EXPECT_TRUE(is_subset(damaged.events, intact.events)) << "events that are not the trace's were used";
      ++found;
    }
  }
  EXPECT_GE(found, 1) << "the event's timestamp was not found in the stream files: the test proves nothing";
}

INSTANTIATE_TEST_SUITE_P(InProcessAndInReadingProcesses, TimeDamage, ::testing::Bool(),
                         [](const auto& test) { return test.param ? "InProcess" : "ReadingProcesses"; });

}  // namespace
}  // namespace tracesync::ingest
