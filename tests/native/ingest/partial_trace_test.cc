// SPDX-License-Identifier: EPL-2.0
// A trace damaged part way gives the sink exactly what the intact trace cut
// at one time would: no event of a stream read further than the damaged one
// (64 bytes of 0xFF once turned a link from ACCURATE at 41 us into
// APPROXIMATE at 200 ms: a retransmission became the kept first send).
// The scanner delivers all that babeltrace2 delivers: reading packet by
// packet, it once cut a trace damaged in an early packet of one stream
// before delivering anything, where babeltrace2 delivered a prefix.

#include <gtest/gtest.h>

#include <algorithm>
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

using RecordingSink = testing::SortedEventSink;

using Reading = testing::SortedReading;
using testing::read_sorted;

bool same(const match::PacketEvent& a, const match::PacketEvent& b) {
  return !RecordingSink::earlier(a, b) && !RecordingSink::earlier(b, a);
}

class PartialTrace : public ::testing::TestWithParam<bool> {};

TEST_P(PartialTrace, WhatWasReadIsTheIntactTraceCutAtOneTime) {
  const simulate::testing::TempDirectory dir;
  simulate::SimulationOptions options;
  options.output_dir = dir / "experiment";
  options.hosts = 2;
  options.cpus_per_host = 4;
  options.duration_s = 20;
  options.message_rate = 400;
  options.seed = 5;
  const std::string trace = simulate::run(options).hosts.at(0).trace_path;
  const bool in_process = GetParam();
  const Reading intact = read_sorted(trace, in_process, ReaderChoice::kBabeltrace2);
  ASSERT_EQ(intact.report.status, TraceStatus::kComplete);

  int damaged_readings = 0;
  for (const std::string stream : {"channel0_1", "channel0_2"}) {
    for (const double where : {0.02, 0.3, 0.6}) {
      // A copy of the trace with 64 bytes of 0xFF at `where` in one stream
      // (0.02: in its first packets, before the other streams' first ends).
      const fs::path copy = dir.path() / ("copy-" + stream + std::to_string(where));
      fs::copy(trace, copy, fs::copy_options::recursive);
      const auto size = fs::file_size(copy / stream);
      std::fstream file(copy / stream, std::ios::in | std::ios::out | std::ios::binary);
      file.seekp(static_cast<std::streamoff>(static_cast<double>(size) * where));
      file.write(std::string(64, '\xFF').data(), 64);
      file.close();

      const Reading oracle = read_sorted(copy.string(), in_process, ReaderChoice::kBabeltrace2);
      for (const ReaderChoice reader : {ReaderChoice::kBabeltrace2, ReaderChoice::kScanner}) {
        const Reading damaged =
            reader == ReaderChoice::kBabeltrace2 ? oracle : read_sorted(copy.string(), in_process, reader);
        const std::string case_name = stream + " at " + std::to_string(where) + ", " + std::string(to_string(reader));
        EXPECT_EQ(damaged.report.status, oracle.report.status) << case_name;
        if (damaged.report.status == TraceStatus::kComplete) continue;  // the bytes landed where nothing checks them
        ++damaged_readings;
        ASSERT_FALSE(damaged.events.empty()) << case_name;
        ASSERT_LT(damaged.events.size(), intact.events.size()) << case_name;
        // Exactly the intact trace's events up to the last one given.
        const model::Nanoseconds cut = damaged.events.back().time;
        const auto end = std::upper_bound(intact.events.begin(), intact.events.end(), cut,
                                          [](model::Nanoseconds t, const match::PacketEvent& e) { return t < e.time; });
        const auto prefix = static_cast<std::size_t>(end - intact.events.begin());
        EXPECT_EQ(damaged.events.size(), prefix) << case_name;
        // The 64 bytes may have landed in an event that was still decoded
        // (garbage in its fields) before the damage was noticed: a couple of
        // events may differ, no more.
        std::size_t differing = 0;
        for (std::size_t i = 0; i < std::min(prefix, damaged.events.size()); ++i) {
          if (!same(damaged.events[i], intact.events[i])) ++differing;
        }
        EXPECT_LE(differing, 2u) << case_name;
        // The scanner delivers at least what babeltrace2 delivers, garbage
        // included: babeltrace2 cuts where its batches of a few events had
        // brought the other streams, the scanner at the damage itself.
        ASSERT_GE(damaged.events.size(), oracle.events.size()) << case_name;
        for (std::size_t i = 0; i < oracle.events.size(); ++i) {
          EXPECT_TRUE(same(damaged.events[i], oracle.events[i])) << case_name << ": event " << i;
        }
      }
    }
  }
  EXPECT_GT(damaged_readings, 0) << "no damage was noticed: the test proves nothing";
}

INSTANTIATE_TEST_SUITE_P(InProcessAndInReadingProcesses, PartialTrace, ::testing::Bool(),
                         [](const auto& test) { return test.param ? "InProcess" : "ReadingProcesses"; });

}  // namespace
}  // namespace tracesync::ingest
