// SPDX-License-Identifier: EPL-2.0
#include "snapshot/html_report.h"

#include <gtest/gtest.h>

#include <regex>

#include "snapshot/decimal.h"
#include "snapshot/html_model.h"

namespace tracesync::snapshot {
namespace {

constexpr int64_t kEpoch = 1'700'000'000'000'000'000;  // 1.7e18 ns: doubles are 256 ns apart here

v1::Decimal exact(const char* text) {
  v1::Decimal d;
  d.set_exact(text);
  d.set_approx(std::stod(text));
  return d;
}

v1::Point point(int64_t x, int64_t y) {
  v1::Point p;
  p.set_x(x);
  p.set_y(y);
  return p;
}

// b = a + 12345.5 exactly; the messages 1.5 ns either side of it.
v1::Link epoch_link(v1::LinkDetail& detail) {
  v1::Link link;
  link.set_a("a");
  link.set_b("b");
  link.set_quality(v1::ACCURATE);
  *link.mutable_alpha() = exact("1");
  *link.mutable_beta() = exact("12345.5");
  link.set_span_first_ns(kEpoch);
  link.set_span_last_ns(kEpoch + 10'000'000'000);  // 10 s
  link.set_uncertainty_ns(3);
  *detail.add_lower_hull_points() = point(kEpoch + 2'000'000'000, kEpoch + 2'000'000'000 + 12347);
  *detail.add_lower_hull_points() = point(kEpoch + 2'000'100'000, kEpoch + 2'000'100'000 + 12348);
  *detail.add_upper_hull_points() = point(kEpoch + 2'000'050'001, kEpoch + 2'000'050'001 + 12344);
  detail.mutable_lmin()->mutable_slope()->CopyFrom(exact("1"));
  detail.mutable_lmin()->mutable_intercept()->CopyFrom(exact("12346.5"));
  detail.mutable_lmax()->mutable_slope()->CopyFrom(exact("1"));
  detail.mutable_lmax()->mutable_intercept()->CopyFrom(exact("12344.5"));
  link.set_detail(detail.SerializeAsString());
  return link;
}

TEST(HtmlModel, HumanDurations) {
  EXPECT_EQ(html::human_duration(0), "0 ns");
  EXPECT_EQ(html::human_duration(850), "850 ns");
  EXPECT_EQ(html::human_duration(1.5), "1.50 ns");
  EXPECT_EQ(html::human_duration(12'345), "12.3 us");
  EXPECT_EQ(html::human_duration(4'560'000), "4.56 ms");
  EXPECT_EQ(html::human_duration(1'234'000'000), "1.23 s");
  EXPECT_EQ(html::human_duration(-2'500), "-2.50 us");
  EXPECT_EQ(html::human_duration(std::numeric_limits<double>::infinity()), "unbounded");
}

TEST(HtmlModel, LinkCoordinatesAreExactAtEpochTimestamps) {
  v1::LinkDetail detail;
  const v1::Link link = epoch_link(detail);
  const html::LinkPlot plot = html::link_plot(link, detail);
  ASSERT_EQ(plot.lower.size(), 2u);
  ASSERT_EQ(plot.upper.size(), 1u);
  // In doubles, kEpoch + 2e9 + 12347 - (kEpoch + 2e9 + 12345.5) would be a
  // multiple of 256; relative coordinates keep the half nanosecond.
  EXPECT_EQ(plot.lower[0].x_ns, 2'000'000'000.0);
  EXPECT_EQ(plot.lower[0].y_ns, 1.5);
  EXPECT_EQ(plot.lower[1].x_ns, 2'000'100'000.0);
  EXPECT_EQ(plot.lower[1].y_ns, 2.5);
  EXPECT_EQ(plot.upper[0].x_ns, 2'000'050'001.0);
  EXPECT_EQ(plot.upper[0].y_ns, -1.5);
  ASSERT_EQ(plot.pieces.size(), 1u);
  ASSERT_TRUE(plot.pieces[0].lmin.has_value());
  EXPECT_EQ(plot.pieces[0].lmin->from.y_ns, 1.0);
  EXPECT_EQ(plot.pieces[0].lmax->to.y_ns, -1.0);
  EXPECT_EQ(plot.pieces[0].estimate.from.y_ns, 0.0);
  EXPECT_EQ(plot.full_x.lo, 0.0);
  EXPECT_EQ(plot.full_x.hi, 10'000'000'000.0);
}

TEST(HtmlModel, ZoomsToTheHullVertices) {
  v1::LinkDetail detail;
  const html::LinkPlot plot = html::link_plot(epoch_link(detail), detail);
  // Vertices span 100 us of the 10 s: the zoom is them plus 10 us each side.
  EXPECT_DOUBLE_EQ(plot.zoom_x.lo, 2'000'000'000.0 - 10'000);
  EXPECT_DOUBLE_EQ(plot.zoom_x.hi, 2'000'100'000.0 + 10'000);
  const html::Range y = html::y_range(plot, plot.zoom_x);
  EXPECT_EQ(y.lo, -1.5);
  EXPECT_EQ(y.hi, 2.5);
}

TEST(HtmlModel, SegmentsGiveBoundaries) {
  v1::LinkDetail detail;
  v1::Link link = epoch_link(detail);
  for (int k = 0; k < 3; ++k) {
    v1::LinkSegment* s = detail.add_segments();
    s->set_first_ns(kEpoch + k * 3'000'000'000LL);
    s->set_last_ns(kEpoch + (k + 1) * 3'000'000'000LL);
    *s->mutable_alpha() = exact("1");
    *s->mutable_beta() = exact("12345.5");
    *s->add_lower_hull_points() = point(s->first_ns() + 5, s->first_ns() + 5 + 12346);
  }
  const html::LinkPlot plot = html::link_plot(link, detail);
  EXPECT_EQ(plot.pieces.size(), 3u);
  EXPECT_EQ(plot.lower.size(), 3u);  // the segments' vertices, not the top level's
  ASSERT_EQ(plot.boundaries.size(), 2u);
  EXPECT_EQ(plot.boundaries[0], 3'000'000'000.0);
  EXPECT_EQ(plot.boundaries[1], 6'000'000'000.0);
  EXPECT_EQ(plot.lower[2].y_ns, 0.5);
}

TEST(HtmlModel, TracePiecesFallBackToTheSingleLine) {
  v1::Trace t;
  t.set_first_ns(kEpoch);
  t.set_last_ns(kEpoch + 1'000);
  *t.mutable_slope() = exact("1.000001");
  *t.mutable_offset() = exact("-1700000000000000000");
  t.set_uncertainty_ns(40);
  const std::vector<html::TracePiece> pieces = html::trace_pieces(t);
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_NEAR(pieces[0].drift_ppm, 1.0, 1e-9);
  // (1e-6 * 1.7e18) - 1.7e18 in quad, not in double.
  EXPECT_EQ(pieces[0].shift_ns, 1.7e12 - 1.7e18);
  const auto curve = html::bound_curve(pieces);
  ASSERT_EQ(curve.size(), 2u);
  EXPECT_EQ(curve[1].x_ns, 1'000.0);
  EXPECT_EQ(curve[1].y_ns, 40.0);
}

v1::Snapshot two_islands() {
  v1::Snapshot s;
  s.set_complete(true);
  for (const char* host : {"alpha", "beta", "gamma"}) {
    v1::Trace* t = s.add_traces();
    t->set_name(std::string(host) + "-kernel");
    t->set_hostname(host);
    t->set_domain(host);
    t->set_island(std::string(host) == "gamma" ? 1 : 0);
    t->set_reference(std::string(host) != "beta");
    *t->mutable_slope() = exact("1");
    *t->mutable_offset() = exact("0");
    t->set_uncertainty_ns(std::string(host) == "beta" ? 2'500 : 0);
  }
  v1::LinkDetail detail;
  v1::Link* l = s.add_links();
  *l = epoch_link(detail);
  l->set_a("alpha");
  l->set_b("beta");
  l->set_in_tree(true);
  v1::Island* i0 = s.add_islands();
  i0->set_id(0);
  i0->set_reference("alpha");
  i0->add_domains("alpha");
  i0->add_domains("beta");
  v1::Island* i1 = s.add_islands();
  i1->set_id(1);
  i1->set_reference("gamma");
  i1->add_domains("gamma");
  v1::Problem* p = s.add_problems();
  p->set_source("/traces/delta");
  p->set_message("no metadata <file>");
  p->set_skipped(true);
  return s;
}

TEST(HtmlModel, OldSnapshotsAreSynchronizedByTheMainIsland) {
  const std::vector<html::SyncState> states = html::sync_states(two_islands());
  ASSERT_EQ(states.size(), 3u);
  EXPECT_TRUE(states[0].synchronized);
  EXPECT_TRUE(states[1].synchronized);
  EXPECT_FALSE(states[2].synchronized);
  EXPECT_NE(states[2].reason.find("main island"), std::string::npos);
}

TEST(HtmlModel, TheSnapshotsOwnAnswerWins) {
  v1::Snapshot s = two_islands();
  s.mutable_traces(0)->set_synchronized(true);
  s.mutable_traces(2)->set_unsynchronized_reason("no messages with the other hosts");
  const std::vector<html::SyncState> states = html::sync_states(s);
  EXPECT_TRUE(states[0].synchronized);
  EXPECT_FALSE(states[1].synchronized);  // neither synchronized nor given a reason: not claimed
  EXPECT_EQ(states[2].reason, "no messages with the other hosts");
}

TEST(HtmlReport, SaysWhatWasAndWasNotSynchronized) {
  const std::string page = to_html(two_islands());
  EXPECT_NE(page.find("2 of 3 trace(s) synchronized"), std::string::npos);
  EXPECT_NE(page.find("\u00b12.50 us"), std::string::npos);  // the worst bound, in human units
  EXPECT_NE(page.find("id=\"not-synchronized\""), std::string::npos);
  EXPECT_NE(page.find("gamma-kernel"), std::string::npos);
  EXPECT_NE(page.find("no metadata &lt;file&gt;"), std::string::npos);  // escaped
  EXPECT_NE(page.find("(skipped)"), std::string::npos);
  EXPECT_NE(page.find("ACCURATE, \u00b13 ns"), std::string::npos);  // the link labelled in words
  for (const char* id : {"summary", "network-svg", "trace-list", "link-list", "link-0", "plot-0-zoom", "plot-0-whole",
                         "bound-0", "matching", "options"}) {
    EXPECT_NE(page.find("id=\"" + std::string(id) + "\""), std::string::npos) << id;
  }
}

TEST(HtmlReport, SaysWhenALinkFails) {
  v1::Snapshot s = two_islands();
  s.mutable_links(0)->set_quality(v1::FAIL);
  s.mutable_links(0)->set_contradictions(4);
  const std::string page = to_html(s);
  EXPECT_NE(page.find("id=\"failed-links\""), std::string::npos);
  EXPECT_NE(page.find("4 contradiction(s)"), std::string::npos);
  EXPECT_NE(page.find("verdict bad"), std::string::npos);
}

TEST(HtmlReport, RequestsNothingFromOutside) {
  const std::string page = to_html(two_islands());
  EXPECT_EQ(page.find("http://"), std::string::npos);
  EXPECT_EQ(page.find("https://"), std::string::npos);
  EXPECT_EQ(page.find("src="), std::string::npos);
  EXPECT_EQ(page.find("@import"), std::string::npos);
  EXPECT_EQ(page.find("url("), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  // Every href is a fragment of the page itself.
  const std::regex href("href=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), href); it != std::sregex_iterator(); ++it) {
    EXPECT_EQ((*it)[1].str().rfind('#', 0), 0u) << (*it)[1].str();
  }
}

}  // namespace
}  // namespace tracesync::snapshot
