// SPDX-License-Identifier: EPL-2.0
#include "apply/full_rewrite_copy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "apply/every_kind_trace.h"
#include "apply/trace_events.h"
#include "apply/tsdl_of.h"
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
// order, with the same name and fields; the streams and the trace IR are
// the same.
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
    // The copy keeps the stream ids.
    ASSERT_EQ(copied->first, stream);
    ASSERT_EQ(copied->second.size(), events.size()) << stream;
    for (std::size_t i = 0; i < events.size(); ++i) {
      ASSERT_EQ(copied->second[i].name, events[i].name);
      ASSERT_EQ(copied->second[i].fields, events[i].fields);
      worst = std::max(worst, model::to_double(model::abs(static_cast<Quad>(copied->second[i].ns_from_origin) -
                                                          transform.map(events[i].ns_from_origin))));
    }
    ++copied;
  }
  std::cout << "[ rewrite  ] " << in.count() << " events in 3 pieces, worst |copy - transform| " << worst << " ns"
            << std::endl;
  EXPECT_LE(worst, 0.5 + 2);
  // The copy's IR is the original's: environment, clock, classes, fields.
  std::string unsupported;
  const std::string original_tsdl = testing::tsdl_of(trace.string(), &unsupported);
  ASSERT_EQ(unsupported, "");
  EXPECT_EQ(testing::tsdl_of(dir.file("copy"), &unsupported), original_tsdl);
  EXPECT_NE(original_tsdl.find("\ttracer_name = \"lttng-modules\";\n"), std::string::npos);
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

namespace tracesync::apply {
namespace {

// Every field class kind src.ctf.fs makes goes through the copy: the same
// events with every field equal (packet contexts, contexts, payloads), at
// transform(original), the discarded events counted, and the copy's IR
// the same as the original's (its TSDL is the same text).
TEST(FullRewrite, EveryKindOfFieldRoundTrips) {
  const tracesync::testing::TempDir dir;
  testing::write_every_kind_trace(dir.file("every"));
  const auto in = testing::read_trace_events(dir.file("every"));
  ASSERT_EQ(in.error, "");
  ASSERT_EQ(in.count(), 5u);
  const int64_t first = in.streams.begin()->second.front().ns_from_origin;
  const PiecewiseTransform transform = three_pieces(first, first + 6000);
  ASSERT_EQ(write_full_rewrite_copy(dir.file("every"), dir.file("copy"), transform), "");
  const auto out = testing::read_trace_events(dir.file("copy"));
  ASSERT_EQ(out.error, "");
  ASSERT_EQ(out.streams.size(), 1u);
  const auto& original = in.streams.begin()->second;
  const auto& copied = out.streams.at(in.streams.begin()->first);
  ASSERT_EQ(copied.size(), original.size());
  for (std::size_t i = 0; i < original.size(); ++i) {
    EXPECT_EQ(copied[i].name, original[i].name);
    EXPECT_EQ(copied[i].fields, original[i].fields);
    EXPECT_LE(model::to_double(model::abs(static_cast<Quad>(copied[i].ns_from_origin) -
                                          transform.map(original[i].ns_from_origin))),
              0.5 + 2);
  }
  EXPECT_NE(original[1].fields.find("network_header=ipv6:{saddr=[32 33 "), std::string::npos) << original[1].fields;
  EXPECT_EQ(in.discarded_events, 3u);
  EXPECT_EQ(out.discarded_events, in.discarded_events);
  std::string unsupported;
  const std::string tsdl = testing::tsdl_of(dir.file("every"), &unsupported);
  EXPECT_EQ(unsupported, "");
  EXPECT_EQ(testing::tsdl_of(dir.file("copy"), &unsupported), tsdl);
  EXPECT_TRUE(fs::exists(dir.file("copy/stream_a")));
}

// What the writer cannot write is refused before anything is written,
// naming it; no crash, no copy.
TEST(FullRewrite, WhatTheWriterCannotWriteIsRefusedBeforeWriting) {
  const tracesync::testing::TempDir dir;
  // A sequence whose length is in the same array element: the IR's field
  // path goes through "the current element", which the writer does not name.
  testing::write_every_kind_trace(dir.file("items"), "\t\tstruct { uint8_t _n; uint8_t _v[_n]; } _items[2];\n");
  ASSERT_EQ(testing::read_trace_events(dir.file("items")).error, "");
  const std::string error = write_full_rewrite_copy(dir.file("items"), dir.file("copy"),
                                                  three_pieces(1'600'000'000'000'000'000, 1'600'000'001'000'000'000));
  EXPECT_EQ(error, "could not rewrite it: tracesync's CTF writer does not support event class 'extra': a length "
                   "or selector field inside an array element");
  EXPECT_FALSE(fs::exists(dir.file("copy")));
}

}  // namespace
}  // namespace tracesync::apply
