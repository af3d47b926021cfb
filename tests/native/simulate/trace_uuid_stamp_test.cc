// SPDX-License-Identifier: EPL-2.0
#include "simulate/trace_uuid_stamp.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "ctf_read_back.h"
#include "simulate/simulate.h"
#include "temp_directory.h"

namespace tracesync::simulate {
namespace {

namespace fs = std::filesystem;
using testing::TempDirectory;

class TraceUuidStamp : public ::testing::Test {
 protected:
  void SetUp() override {
    SimulationOptions o;
    o.output_dir = dir_ / "out";
    o.hosts = 2;
    o.duration_s = 0.2;
    o.message_rate = 2000;  // a few packets per stream
    o.cpus_per_host = 2;
    summary_ = run(o);
    trace_ = summary_.hosts[1].trace_path;
  }

  // A copy of the trace to damage.
  std::string copy() {
    const std::string target = dir_ / "copy";
    fs::copy(trace_, target, fs::copy_options::recursive);
    return target;
  }

  static void expect_error(const std::string& trace, const std::string& fragment) {
    try {
      stamp_trace_uuid(trace, Uuid{});
      FAIL() << "no error for " << fragment;
    } catch (const SimulationError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  }

  TempDirectory dir_;
  SimulationSummary summary_;
  std::string trace_;
};

TEST_F(TraceUuidStamp, ReplacesTheTraceUuidEverywhere) {
  const Uuid uuid{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0x4d, 0xef, 0x80, 1, 2, 3, 4, 5, 6, 7};
  // run() stamped the trace already; stamping again only succeeds when every
  // packet header carries the metadata's UUID (each is checked), so twice
  // more shows that a stamp reaches every packet.
  stamp_trace_uuid(trace_, uuid);
  stamp_trace_uuid(trace_, uuid);
  const testing::ReadBack rb = testing::read_back(trace_);
  ASSERT_EQ(rb.error, "");
  EXPECT_EQ(rb.trace_uuid, "12345678-9abc-4def-8001-020304050607");
  EXPECT_EQ(rb.events.size(), summary_.hosts[1].events);
  EXPECT_EQ(rb.clock_uuid, summary_.hosts[1].domain);  // the clock's UUID is another one, left alone
}

TEST_F(TraceUuidStamp, RefusesMetadataOfAnotherLayout) {
  const std::string trace = copy();
  std::ofstream(trace + "/metadata", std::ios::trunc) << "/* CTF 1.8 */\ntrace { uuid = \"x\"; };\n";
  expect_error(trace, trace + "/metadata: not the packet layout sink.ctf.fs 2.0 writes");
}

TEST_F(TraceUuidStamp, RefusesATruncatedStream) {
  const std::string trace = copy();
  const fs::path stream = fs::path(trace) / "channel0_0";
  fs::resize_file(stream, fs::file_size(stream) / 2);
  expect_error(trace, "channel0_0: packet ");
}

TEST_F(TraceUuidStamp, RefusesAPacketOfAnotherTrace) {
  const std::string trace = copy();
  {
    std::fstream stream(trace + "/channel0_1", std::ios::in | std::ios::out | std::ios::binary);
    stream.seekp(4);
    stream.write("sixteen bytes!!!", 16);
  }
  expect_error(trace, "channel0_1: packet 0: packet without the magic number and trace UUID");
}

TEST(SimulateProgress, ReportsGrowingCountsUpToTheTotal) {
  TempDirectory dir;
  SimulationOptions o;
  o.output_dir = dir / "out";
  o.hosts = 3;
  o.duration_s = 1;
  o.message_rate = 20'000;
  std::vector<SimulationProgress> calls;
  const SimulationSummary summary = run(o, [&](const SimulationProgress& p) {
    calls.push_back(p);
    return true;
  });
  ASSERT_GT(calls.size(), 4U);
  for (std::size_t i = 1; i < calls.size(); ++i) {
    EXPECT_GE(calls[i].events_written, calls[i - 1].events_written);
    EXPECT_GE(calls[i].host, calls[i - 1].host);
  }
  EXPECT_EQ(calls.back().events_written, summary.events);
  EXPECT_EQ(calls.back().host, 2U);
  // The estimate is the expectation of a random count: close, not exact.
  EXPECT_NEAR(static_cast<double>(calls.back().events_expected), static_cast<double>(summary.events),
              0.05 * static_cast<double>(summary.events));
}

}  // namespace
}  // namespace tracesync::simulate
