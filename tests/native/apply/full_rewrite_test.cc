// SPDX-License-Identifier: EPL-2.0
#include "apply/full_rewrite_copy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "apply/trace_events.h"
#include "support/run_command.h"

namespace tracesync::apply {
namespace {

namespace fs = std::filesystem;
using model::Quad;

// Three continuous pieces of different drifts over [first, last], shifting
// the trace by about a millisecond.
PiecewiseTransform three_pieces(int64_t first, int64_t last) {
  const int64_t m1 = first + (last - first) / 3;
  const int64_t m2 = first + 2 * (last - first) / 3;
  const Quad s1 = 1 + 20e-6Q, s2 = 1 - 30e-6Q, s3 = 1 + 10e-6Q;
  const Quad o1 = (1 - s1) * first + 1'000'000;
  const Quad o2 = (s1 - s2) * m1 + o1;
  const Quad o3 = (s2 - s3) * m2 + o2;
  return PiecewiseTransform({{first, m1, {s1, o1}, 5, 6}, {m1, m2, {s2, o2}, 6, 7}, {m2, last, {s3, o3}, 7, 8}});
}

// Every event of the rewritten trace is where the transform in pieces puts
// it (within half a cycle of rounding and the reader's 2 ns), in the same
// order, with the same name; the streams are the same.
TEST(FullRewrite, EveryEventGoesThroughItsPiece) {
  const fs::path trace = fs::path(TRACESYNC_SHARED_DIR) / "fixtures/lttng-modules-2.1-addons/scp_src";
  if (!fs::exists(trace)) GTEST_SKIP() << "shared fixture absent: " << trace;
  const auto in = testing::read_trace_events(trace.string());
  ASSERT_EQ(in.error, "");
  int64_t first = INT64_MAX, last = INT64_MIN;
  for (const auto& [stream, events] : in.streams) {
    for (const auto& e : events) {
      first = std::min(first, e.ns_from_origin);
      last = std::max(last, e.ns_from_origin);
    }
  }
  const PiecewiseTransform transform = three_pieces(first, last);
  const tracesync::testing::TempDir dir;
  ASSERT_EQ(write_full_rewrite_copy(trace, dir.file("copy"), transform), "");
  const auto out = testing::read_trace_events(dir.file("copy"));
  ASSERT_EQ(out.error, "");
  ASSERT_EQ(out.count(), in.count());
  ASSERT_EQ(out.streams.size(), in.streams.size());
  double worst = 0;
  auto copied = out.streams.begin();
  for (const auto& [stream, events] : in.streams) {
    // sink.ctf.fs numbers the streams afresh: match them in order.
    ASSERT_EQ(copied->second.size(), events.size()) << stream;
    for (std::size_t i = 0; i < events.size(); ++i) {
      ASSERT_EQ(copied->second[i].name, events[i].name);
      worst = std::max(worst, model::to_double(model::abs(static_cast<Quad>(copied->second[i].ns_from_origin) -
                                                          transform.map(events[i].ns_from_origin))));
    }
    ++copied;
  }
  std::cout << "[ rewrite  ] " << in.count() << " events in 3 pieces, worst |copy - transform| " << worst << " ns"
            << std::endl;
  EXPECT_LE(worst, 0.5 + 2);
}

TEST(FullRewrite, WhatBabeltraceRefusesIsSaid) {
  const tracesync::testing::TempDir dir;
  fs::create_directories(dir.file("empty"));
  const std::string error = write_full_rewrite_copy(dir.file("empty"), dir.file("copy"), three_pieces(0, 1000));
  EXPECT_TRUE(error.starts_with("babeltrace2 cannot open it: ")) << error;
  EXPECT_FALSE(fs::exists(dir.file("copy")));
}

}  // namespace
}  // namespace tracesync::apply

namespace tracesync::apply {
namespace {

// A time the clock cannot hold (before its origin) stops the rewrite with
// the reason, and no crash.
TEST(FullRewrite, ATimeBeforeTheClockOriginIsAnError) {
  const fs::path trace = fs::path(TRACESYNC_SHARED_DIR) / "fixtures/lttng-modules-2.1-addons/scp_src";
  if (!fs::exists(trace)) GTEST_SKIP() << "shared fixture absent: " << trace;
  const tracesync::testing::TempDir dir;
  const PiecewiseTransform back_to_1970({{0, INT64_MAX, {1, -1e18Q}, 0, 0}});
  const std::string error = write_full_rewrite_copy(trace, dir.file("copy"), back_to_1970);
  EXPECT_EQ(error, "babeltrace2 could not rewrite it: a time maps before its clock's origin (cycle values cannot be "
                   "negative)");
}

}  // namespace
}  // namespace tracesync::apply
