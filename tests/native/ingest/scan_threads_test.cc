// SPDX-License-Identifier: EPL-2.0
// One trace's stream files scanned on several threads (ReaderOptions::
// scan_threads, ingest/scan_ahead.h, issue 30): the scanner then gives its
// sink exactly what it gives on one thread, in the same order, with the
// same progress promises and the same TraceInfo, on a whole trace, on a
// damaged one, and read in short steps; and ScanAhead itself hands every
// stream's packets over in order, whatever the helpers do.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <filesystem>
#include <fstream>

#include "ingest/reader_differential.h"
#include "ingest/recording_sink.h"
#include "ingest/scan_ahead.h"
#include "ingest/scanner_trace_reader.h"
#include "simulate/simulate.h"

namespace tracesync::ingest::testing {
namespace {

namespace fs = std::filesystem;

struct Delivery {
  TraceReader::State state = TraceReader::State::kNew;
  TraceInfo info;
  std::string problem;
  std::vector<match::PacketEvent> events;  // as delivered, in order
  std::map<match::TraceIndex, model::Nanoseconds> progress;
};

Delivery read_on(const std::string& trace, unsigned threads, std::size_t rounds) {
  RecordingSink sink;
  ReaderOptions options;
  options.scan_threads = threads;
  options.batch_events = 64;  // many deliveries: their order is compared
  ScannerTraceReader reader(TraceSource{trace, trace, std::nullopt}, 0, options, sink);
  while (reader.state() == TraceReader::State::kNew || reader.state() == TraceReader::State::kReading) {
    reader.step(rounds);
  }
  EXPECT_EQ(sink.broken_promises, 0) << trace;
  return Delivery{reader.state(), reader.info(), reader.problem(), sink.events, sink.progress_of};
}

void expect_same_delivery(const Delivery& one, const Delivery& many, const std::string& what) {
  EXPECT_EQ(many.state, one.state) << what;
  EXPECT_EQ(many.problem, one.problem) << what;
  EXPECT_EQ(info_differences(one.info, many.info), "") << what;
  EXPECT_EQ(many.info.last_event, one.info.last_event) << what;
  ASSERT_EQ(many.events.size(), one.events.size()) << what;
  for (std::size_t i = 0; i < one.events.size(); ++i) {
    ASSERT_EQ(event_tuple(many.events[i]), event_tuple(one.events[i])) << what << ": event " << i;
  }
  EXPECT_EQ(many.progress, one.progress) << what;
}

fs::path simulated_trace(const fs::path& root) {
  simulate::SimulationOptions options;
  options.output_dir = (root / "sim").string();
  options.overwrite = true;
  options.hosts = 2;
  options.cpus_per_host = 4;  // four stream files
  options.duration_s = 3;
  options.message_rate = 200;
  options.filler_ratio = 20;  // several packets a stream
  options.seed = 30;
  return simulate::run(options).hosts.at(0).trace_path;
}

TEST(ScanThreads, ATraceReadsAlikeOnOneThreadAndOnSeveral) {
  const fs::path root = fs::temp_directory_path() / ("tracesync-scan-threads-" + std::to_string(getpid()));
  const fs::path trace = simulated_trace(root);
  const Delivery one = read_on(trace.string(), 1, 64);
  ASSERT_EQ(one.state, TraceReader::State::kDone) << one.problem;
  ASSERT_GT(one.events.size(), 500u);
  ASSERT_EQ(one.info.streams, 4u);
  for (const unsigned threads : {2u, 3u, 8u}) {
    expect_same_delivery(one, read_on(trace.string(), threads, 64), std::to_string(threads) + " threads");
    // Steps of one round: the helpers scan ahead between steps.
    expect_same_delivery(read_on(trace.string(), 1, 1), read_on(trace.string(), threads, 1),
                         std::to_string(threads) + " threads, one round a step");
  }
  fs::remove_all(root);
}

TEST(ScanThreads, ADamagedTraceFailsAlikeOnOneThreadAndOnSeveral) {
  const fs::path root = fs::temp_directory_path() / ("tracesync-scan-threads-damaged-" + std::to_string(getpid()));
  const fs::path trace = simulated_trace(root);
  const fs::path stream = trace / "channel0_2";
  ASSERT_TRUE(fs::exists(stream));
  const auto size = fs::file_size(stream);
  int failed = 0;
  // A bit flipped at a few places in one stream file, and the file cut short.
  for (const double at : {0.1, 0.35, 0.6, 0.85}) {
    const fs::path copy = root / "copy";
    fs::remove_all(copy);
    fs::copy(trace, copy, fs::copy_options::recursive);
    fs::permissions(copy / "channel0_2", fs::perms::owner_write, fs::perm_options::add);
    {
      std::fstream file(copy / "channel0_2", std::ios::in | std::ios::out | std::ios::binary);
      const auto offset = static_cast<std::streamoff>(static_cast<double>(size) * at);
      file.seekg(offset);
      char byte = 0;
      file.read(&byte, 1);
      byte = static_cast<char>(byte ^ 0x10);
      file.seekp(offset);
      file.write(&byte, 1);
    }
    const Delivery one = read_on(copy.string(), 1, 64);
    expect_same_delivery(one, read_on(copy.string(), 3, 64), "flip at " + std::to_string(at));
    fs::resize_file(copy / "channel0_2", static_cast<uintmax_t>(static_cast<double>(size) * at));
    const Delivery cut = read_on(copy.string(), 1, 64);
    EXPECT_EQ(cut.state, TraceReader::State::kFailed) << "cut at " << at;
    failed += cut.state == TraceReader::State::kFailed;
    expect_same_delivery(cut, read_on(copy.string(), 3, 64), "cut at " + std::to_string(at));
  }
  EXPECT_EQ(failed, 4);
  fs::remove_all(root);
}

TEST(ScanAhead, HandsEachStreamsPacketsOverInOrder) {
  constexpr std::size_t kStreams = 5;
  constexpr int kPackets = 200;
  std::array<int, kStreams> scanned{};  // each touched by one thread at a time
  std::atomic<int> at_once{0}, most_at_once{0};
  ScanAhead<int> ahead(kStreams, 3, 2, [&](std::size_t s, int& packet, int64_t& reached) {
    const int now = ++at_once;
    int seen = most_at_once.load();
    while (now > seen && !most_at_once.compare_exchange_weak(seen, now)) {
    }
    packet = scanned[s]++;
    reached = packet * static_cast<int64_t>(s + 1);  // streams of different densities
    --at_once;
    return packet + 1 < kPackets;
  });
  EXPECT_EQ(ahead.helpers(), 3u);
  std::array<int, kStreams> taken{};
  // The reader's order: the stream furthest behind first.
  for (int n = 0; n < kPackets * static_cast<int>(kStreams); ++n) {
    std::size_t s = 0;
    for (std::size_t t = 1; t < kStreams; ++t) {
      if (taken[t] < kPackets && (taken[s] >= kPackets || taken[t] * (t + 1) < taken[s] * (s + 1))) s = t;
    }
    EXPECT_EQ(ahead.next(s), taken[s]) << "stream " << s;
    ++taken[s];
  }
  EXPECT_LE(most_at_once.load(), 4);  // three helpers and the reader
  std::printf("at most %d packets scanned at once\n", most_at_once.load());
}

TEST(ScanAhead, AScanThatThrowsIsRethrownToTheReader) {
  ScanAhead<int> ahead(2, 2, 4, [](std::size_t s, int& packet, int64_t&) -> bool {
    if (s == 1) throw std::runtime_error("damaged");
    packet = 7;
    return true;
  });
  EXPECT_EQ(ahead.next(0), 7);
  EXPECT_THROW(ahead.next(1), std::runtime_error);
}

// While a helper scans the packet the reader wants, the reader does not
// wait idle: it scans ahead what a helper would scan next (issue 30). Here
// the helper's scan of stream 0 cannot end before the reader has scanned a
// packet of stream 1 (or 5 s have passed, which fails the test).
TEST(ScanAhead, TheReaderScansAnotherStreamWhileAHelperScansTheOneItWants) {
  const std::thread::id reader = std::this_thread::get_id();
  std::mutex mutex;
  std::condition_variable changed;
  bool helper_in_stream_0 = false, reader_scanned_stream_1 = false;
  std::array<int, 2> scanned{};
  ScanAhead<int> ahead(2, 1, 4, [&](std::size_t s, int& packet, int64_t& reached) {
    const bool by_reader = std::this_thread::get_id() == reader;
    if (s == 0 && !by_reader && scanned[0] == 0) {
      std::unique_lock lock(mutex);
      helper_in_stream_0 = true;
      changed.notify_all();
      changed.wait_for(lock, std::chrono::seconds(5), [&] { return reader_scanned_stream_1; });
    }
    if (s == 1 && by_reader) {
      const std::lock_guard lock(mutex);
      reader_scanned_stream_1 = true;
      changed.notify_all();
    }
    packet = scanned[s]++;
    reached = packet;
    return packet < 3;
  });
  {
    // The helper takes stream 0 first (both streams at the same time, the
    // first of them): the reader waits until it is inside that scan.
    std::unique_lock lock(mutex);
    ASSERT_TRUE(changed.wait_for(lock, std::chrono::seconds(5), [&] { return helper_in_stream_0; }));
  }
  EXPECT_EQ(ahead.next(0), 0);
  EXPECT_TRUE(reader_scanned_stream_1);
  for (int packet = 0; packet < 4; ++packet) EXPECT_EQ(ahead.next(1), packet);
  for (int packet = 1; packet < 4; ++packet) EXPECT_EQ(ahead.next(0), packet);
}

}  // namespace
}  // namespace tracesync::ingest::testing
