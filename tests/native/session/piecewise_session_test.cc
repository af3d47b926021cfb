// SPDX-License-Identifier: EPL-2.0
// A session whose links bend: a fake estimator hands out clock maps of many
// knots, and the traces' transforms must be those maps composed along the
// best-bound paths, in pieces that cover each trace's span, with bounds
// that add up.

#include <gtest/gtest.h>

#include "session/session.h"

namespace tracesync::session {
namespace {

using model::Quad;

constexpr model::Nanoseconds kStart = 1'700'000'000'000'000'000;
constexpr model::Nanoseconds kLength = 3'600'000'000'000;  // 1 h

// A true map of a's clock onto b's, piecewise linear between knots.
struct Truth {
  std::vector<model::Nanoseconds> x;
  std::vector<Quad> y;

  Quad at(Quad t) const {
    std::size_t i = 0;
    while (i + 2 < x.size() && t > static_cast<Quad>(x[i + 1])) ++i;
    const Quad slope = (y[i + 1] - y[i]) / static_cast<Quad>(x[i + 1] - x[i]);
    return y[i] + slope * (t - static_cast<Quad>(x[i]));
  }
  Quad inverse_at(Quad u) const {
    Quad lo = static_cast<Quad>(x.front()) - 1e13Q, hi = static_cast<Quad>(x.back()) + 1e13Q;
    for (int i = 0; i < 200; ++i) {
      const Quad mid = (lo + hi) / 2;
      (at(mid) < u ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
  }
};

// Knows the truth and claims it within `bound`, in `pieces` segments.
class BendingEstimator final : public hull::LinkEstimator {
 public:
  BendingEstimator(Truth truth, Quad bound) : truth_(std::move(truth)), bound_(bound) {}

  std::string_view algorithm() const override { return "bending"; }
  bool add(const hull::LinkMessage&) override {
    ++messages_;
    return true;
  }
  hull::LinkEstimate estimate() const override {
    hull::LinkEstimate e;
    e.quality = hull::Quality::kAccurate;
    const Quad x0 = static_cast<Quad>(truth_.x.front()), x1 = static_cast<Quad>(truth_.x.back());
    e.alpha = (truth_.y.back() - truth_.y.front()) / (x1 - x0);
    e.beta = truth_.y.front() - e.alpha * x0;
    e.accuracy = 1e-6Q;
    e.counters.messages = messages_;
    return e;
  }
  std::optional<Quad> offset_uncertainty(const hull::TimeSpan&) const override { return bound_; }
  hull::HullPoints hull_points() const override { return {}; }
  std::vector<hull::LinkSegment> segments(const hull::TimeSpan& span) const override {
    std::vector<hull::LinkSegment> out;
    const std::size_t count = 1 + std::min<std::size_t>(messages_ / 20, truth_.x.size() - 2);
    for (std::size_t i = 0; i < count; ++i) {
      hull::LinkSegment s;
      s.span = {i == 0 ? span.first : truth_.x[i], i + 1 == count ? span.last : truth_.x[i + 1]};
      s.estimate = estimate();
      s.uncertainty_first = s.uncertainty_last = bound_;
      out.push_back(s);
    }
    return out;
  }
  std::optional<hull::ClockMap> clock_map(const hull::TimeSpan& span) const override {
    hull::ClockMap map{{span.first, truth_.at(static_cast<Quad>(span.first)), bound_}};
    for (const model::Nanoseconds x : truth_.x) {
      if (x > span.first && x < span.last) map.push_back({x, truth_.at(static_cast<Quad>(x)), bound_});
    }
    map.push_back({span.last, truth_.at(static_cast<Quad>(span.last)), bound_});
    return map;
  }

 private:
  Truth truth_;
  Quad bound_;
  uint64_t messages_ = 0;
};

// Four bends over the hour, a few ppm each, around a 2 ms offset.
Truth bending(Quad offset, Quad ppm) {
  Truth t;
  Quad y = static_cast<Quad>(kStart) + offset;
  for (int i = 0; i <= 5; ++i) {
    const model::Nanoseconds x = kStart + kLength / 5 * i;
    if (i > 0) y += (1 + ppm * 1e-6Q * (i % 2 ? 1 : -1)) * static_cast<Quad>(kLength / 5);
    t.x.push_back(x);
    t.y.push_back(y);
  }
  return t;
}

// a-b and b-c bend; a-c is direct but loose: the best paths go through b.
struct Fixture {
  Truth ab = bending(2e6Q, 3);
  Truth bc = bending(-7e5Q, 5);
  Truth ac;
  Session session;

  explicit Fixture(SessionOptions options = {}) : session(with_fakes(std::move(options))) {
    ac = bending(0, 0);  // never used: too loose
    for (int k = 0; k <= 100; ++k) {
      const model::Nanoseconds x = kStart + kLength / 100 * k;
      session.add_host_message("a", x, "b", model::round_to_int64(ab.at(static_cast<Quad>(x))) + 50);
      session.add_host_message("b", x, "c", model::round_to_int64(bc.at(static_cast<Quad>(x))) + 50);
      session.add_host_message("a", x, "c", x + 1000);
    }
  }

  SessionOptions with_fakes(SessionOptions options) {
    int made = 0;
    options.make_estimator = [this, made]() mutable -> std::unique_ptr<hull::LinkEstimator> {
      // Links are made in the order of first messages: a-b, b-c, a-c.
      switch (made++) {
        case 0: return std::make_unique<BendingEstimator>(ab, 100);
        case 1: return std::make_unique<BendingEstimator>(bc, 40);
        default: return std::make_unique<BendingEstimator>(ac, 1e6Q);
      }
    };
    return options;
  }
};

const v1::Trace& trace(const v1::Snapshot& s, const std::string& name) {
  for (const v1::Trace& t : s.traces()) {
    if (t.name() == name) return t;
  }
  throw std::runtime_error("no trace " + name);
}

Quad decimal(const v1::Decimal& d) { return *model::parse_decimal(d.exact()); }

// The reported map and bound at t.
std::pair<Quad, double> reported_at(const v1::Trace& t, model::Nanoseconds x) {
  for (const v1::Segment& s : t.segments()) {
    if (x > s.last_ns() && &s != &t.segments(t.segments_size() - 1)) continue;
    const Quad value = decimal(s.slope()) * static_cast<Quad>(x) + decimal(s.offset());
    const double f = static_cast<double>(x - s.first_ns()) / static_cast<double>(s.last_ns() - s.first_ns());
    return {value, s.uncertainty_first_ns() + (s.uncertainty_last_ns() - s.uncertainty_first_ns()) * f};
  }
  throw std::runtime_error("no segment");
}

void expect_covering_segments(const v1::Trace& t) {
  ASSERT_GT(t.segments_size(), 0);
  EXPECT_EQ(t.segments(0).first_ns(), t.first_ns());
  EXPECT_EQ(t.segments(t.segments_size() - 1).last_ns(), t.last_ns());
  for (int i = 1; i < t.segments_size(); ++i) EXPECT_EQ(t.segments(i).first_ns(), t.segments(i - 1).last_ns());
}

TEST(PiecewiseSession, TransformsComposeTheLinksMapsAlongTheBestBoundPaths) {
  Fixture f;
  const v1::Snapshot s = f.session.snapshot();
  ASSERT_EQ(s.islands_size(), 1);
  EXPECT_EQ(s.islands(0).reference(), "b");  // the centre: largest bound 100, not 140 or 1e6
  const v1::Trace& a = trace(s, "a");
  const v1::Trace& b = trace(s, "b");
  const v1::Trace& c = trace(s, "c");
  for (const v1::Trace* t : {&a, &b, &c}) expect_covering_segments(*t);
  EXPECT_EQ(b.segments_size(), 1);
  EXPECT_GE(a.segments_size(), 5);  // the five pieces of a-b's map
  EXPECT_GE(c.segments_size(), 5);
  for (const v1::Link& link : s.links()) {
    EXPECT_EQ(link.in_tree(), link.b() != "c" || link.a() != "a") << link.a() << "-" << link.b();
  }
  for (int i = 0; i <= 1000; ++i) {
    const model::Nanoseconds x = kStart + kLength / 1000 * i;
    const auto [on_a, bound_a] = reported_at(a, x);
    EXPECT_LE(model::abs(on_a - f.ab.at(static_cast<Quad>(x))), 1e-3Q) << i;
    // 100, and near the bends the chord allowance (the slope change over 1 ns).
    EXPECT_GE(bound_a, 100);
    EXPECT_LE(bound_a, 100 + 1e-4);
    // c's time maps back through b-c's map.
    const auto [on_c, bound_c] = reported_at(c, x);
    EXPECT_LE(model::abs(on_c - f.bc.inverse_at(static_cast<Quad>(x))), 1e-3Q) << i;
    EXPECT_GE(bound_c, 40);
    EXPECT_LE(bound_c, 40 + 1e-4);
    // The single line over the whole span is honest about the bends.
    const Quad line = decimal(a.slope()) * static_cast<Quad>(x) + decimal(a.offset());
    EXPECT_LE(model::to_double(model::abs(line - f.ab.at(static_cast<Quad>(x)))) + 100, a.uncertainty_ns() + 1e-6);
  }
  EXPECT_GT(a.uncertainty_ns(), 100);  // the bends cost the single line something
}

TEST(PiecewiseSession, SegmentsSurviveTheProtobufRoundTrip) {
  Fixture f;
  const v1::Snapshot s = f.session.snapshot();
  v1::Snapshot copy;
  ASSERT_TRUE(copy.ParseFromString(s.SerializeAsString()));
  ASSERT_EQ(copy.traces_size(), s.traces_size());
  for (int i = 0; i < s.traces_size(); ++i) {
    ASSERT_EQ(copy.traces(i).segments_size(), s.traces(i).segments_size());
    for (int j = 0; j < s.traces(i).segments_size(); ++j) {
      const v1::Segment& x = s.traces(i).segments(j);
      const v1::Segment& y = copy.traces(i).segments(j);
      EXPECT_EQ(x.first_ns(), y.first_ns());
      EXPECT_EQ(x.last_ns(), y.last_ns());
      EXPECT_EQ(x.slope().exact(), y.slope().exact());
      EXPECT_EQ(x.offset().exact(), y.offset().exact());
      EXPECT_EQ(x.uncertainty_first_ns(), y.uncertainty_first_ns());
      EXPECT_EQ(x.uncertainty_last_ns(), y.uncertainty_last_ns());
    }
  }
  // Link segments travel in the detail.
  for (const v1::Link& link : copy.links()) {
    v1::LinkDetail detail;
    ASSERT_TRUE(detail.ParseFromString(link.detail()));
    EXPECT_EQ(static_cast<uint32_t>(detail.segments_size()), link.segments());
    EXPECT_EQ(link.segments(), 5u);  // all five pieces of each fake map, after 101 messages
  }
}

TEST(PiecewiseSession, ForcedReferenceComposesTwoLinksWithBoundsAddingUp) {
  SessionOptions options;
  options.estimator.clock_stability_ppm = 0;  // the bounds below add up with no growth past the spans
  options.forced_references = {"a"};
  Fixture f(options);
  const v1::Snapshot s = f.session.snapshot();
  const v1::Trace& c = trace(s, "c");
  expect_covering_segments(c);
  EXPECT_EQ(s.islands(0).reference(), "a");
  for (int i = 0; i <= 1000; ++i) {
    const model::Nanoseconds x = kStart + kLength / 1000 * i;
    const auto [on_c, bound_c] = reported_at(c, x);
    // c onto b, then b onto a.
    const Quad expected = f.ab.inverse_at(f.bc.inverse_at(static_cast<Quad>(x)));
    EXPECT_LE(model::abs(on_c - expected), 1e-3Q) << i;
    EXPECT_GE(bound_c, 140 - 1e-6);
    EXPECT_LE(bound_c, 140 + 1e-3);  // plus at most the 1 ns chord allowance terms
  }
}

TEST(PiecewiseSession, HistoryShowsSegmentsOpeningAndClosing) {
  Fixture f;  // the messages are already in; replay with an observer
  Session s(f.with_fakes({}));
  std::vector<std::pair<uint32_t, std::size_t>> changes;
  s.set_history_observer([](uint64_t, const v1::Link&) {});
  s.set_segment_observer([&](uint64_t, const v1::Link& link, uint32_t previous,
                             const std::vector<v1::LinkSegment>& segments) {
    if (link.a() == "a" && link.b() == "b") changes.push_back({previous, segments.size()});
    for (std::size_t i = 1; i < segments.size(); ++i) EXPECT_EQ(segments[i].first_ns(), segments[i - 1].last_ns());
  });
  for (int k = 0; k <= 100; ++k) {
    const model::Nanoseconds x = kStart + kLength / 100 * k;
    s.add_host_message("a", x, "b", x + 10);
  }
  // One more segment every 20 messages, up to the five pieces.
  EXPECT_EQ(changes, (std::vector<std::pair<uint32_t, std::size_t>>{{1, 2}, {2, 3}, {3, 4}, {4, 5}}));
}

TEST(PiecewiseSession, ALinearLinkGivesOneSegmentEqualToTheTrace) {
  SessionOptions options;
  options.estimator.clock_stability_ppm = 0;  // no growth past the link's span: one piece, equal bounds
  Session s(options);
  s.add_host_message("a", 0, "b", 10);
  s.add_host_message("b", 55, "a", 50);
  s.add_host_message("a", 100, "b", 110);
  const v1::Snapshot snapshot = s.snapshot();
  for (const v1::Trace& t : snapshot.traces()) {
    ASSERT_EQ(t.segments_size(), 1);
    EXPECT_EQ(t.segments(0).slope().exact(), t.slope().exact());
    EXPECT_EQ(t.segments(0).offset().exact(), t.offset().exact());
    EXPECT_EQ(t.segments(0).uncertainty_first_ns(), t.uncertainty_ns());
    EXPECT_EQ(t.segments(0).uncertainty_last_ns(), t.uncertainty_ns());
    EXPECT_EQ(t.segments(0).first_ns(), t.first_ns());
    EXPECT_EQ(t.segments(0).last_ns(), t.last_ns());
  }
  EXPECT_EQ(snapshot.links(0).segments(), 1u);
  EXPECT_EQ(snapshot.options().clock_model(), "piecewise");
}

// sync takes one snapshot and moves the session's caches into it
// (last_snapshot): the same snapshot as snapshot(), before and after, and
// a snapshot after it recomputes what it moved out.
TEST(PiecewiseSession, TheLastSnapshotIsTheSnapshot) {
  Fixture f;
  const std::string before = f.session.snapshot().SerializeAsString();
  const v1::Snapshot last = f.session.last_snapshot();
  EXPECT_GE(trace(last, "a").segments_size(), 5);
  EXPECT_EQ(last.SerializeAsString(), before);
  EXPECT_EQ(f.session.snapshot().SerializeAsString(), before);
  EXPECT_EQ(f.session.last_snapshot().SerializeAsString(), before);
}

}  // namespace
}  // namespace tracesync::session
