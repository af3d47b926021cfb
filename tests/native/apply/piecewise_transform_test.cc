// SPDX-License-Identifier: EPL-2.0
#include "apply/piecewise_transform.h"

#include <gtest/gtest.h>

#include "snapshot/decimal.h"

namespace tracesync::apply {
namespace {

v1::Segment segment(int64_t first, int64_t last, model::Quad slope, model::Quad offset) {
  v1::Segment s;
  s.set_first_ns(first);
  s.set_last_ns(last);
  *s.mutable_slope() = snapshot::to_decimal_message(slope);
  *s.mutable_offset() = snapshot::to_decimal_message(offset);
  s.set_uncertainty_first_ns(10);
  s.set_uncertainty_last_ns(30);
  return s;
}

TEST(PiecewiseTransform, NoSegmentsIsTheTopLevelLine) {
  v1::Trace trace;
  trace.set_name("host0/kernel");
  trace.set_first_ns(1'000);
  trace.set_last_ns(9'000);
  *trace.mutable_slope() = snapshot::to_decimal_message(1.0001Q);
  *trace.mutable_offset() = snapshot::to_decimal_message(-50);
  trace.set_uncertainty_ns(42);
  std::string error;
  const PiecewiseTransform t = PiecewiseTransform::from_trace(trace, &error);
  ASSERT_EQ(error, "");
  ASSERT_TRUE(t.is_linear());
  EXPECT_EQ(t.pieces()[0].first_ns, 1'000);
  EXPECT_EQ(t.pieces()[0].last_ns, 9'000);
  EXPECT_EQ(model::round_to_int64(t.map(5'000)), 4'951);
  EXPECT_EQ(t.worst_uncertainty_ns(), 42);
}

TEST(PiecewiseTransform, PiecesAreUsedInTheirSpans) {
  v1::Trace trace;
  trace.set_name("t");
  *trace.add_segments() = segment(0, 100, 1, 5);
  *trace.add_segments() = segment(100, 200, 2, -95);  // continuous at 100: 105
  std::string error;
  const PiecewiseTransform t = PiecewiseTransform::from_trace(trace, &error);
  ASSERT_EQ(error, "");
  EXPECT_FALSE(t.is_linear());
  EXPECT_EQ(model::round_to_int64(t.map(50)), 55);
  EXPECT_EQ(model::round_to_int64(t.map(100)), 105);
  EXPECT_EQ(model::round_to_int64(t.map(150)), 205);
  EXPECT_EQ(model::round_to_int64(t.map(300)), 505);  // beyond the span: the last piece
  EXPECT_EQ(t.worst_uncertainty_ns(), 30);
}

TEST(PiecewiseTransform, BadPiecesAreNamed) {
  v1::Trace trace;
  trace.set_name("t");
  *trace.add_segments() = segment(0, 100, 1, 5);
  *trace.add_segments() = segment(50, 200, 1, 5);
  std::string error;
  PiecewiseTransform::from_trace(trace, &error);
  EXPECT_EQ(error, "trace t: piece 1 [50, 200] is out of time order");
  v1::Trace bad;
  bad.set_name("u");
  bad.mutable_slope()->set_exact("one");
  bad.mutable_offset()->set_exact("0");
  PiecewiseTransform::from_trace(bad, &error);
  EXPECT_EQ(error, "trace u: its transform (slope 'one', offset '0') is not a usable line");
}

}  // namespace
}  // namespace tracesync::apply
