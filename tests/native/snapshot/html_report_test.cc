// SPDX-License-Identifier: EPL-2.0
#include "snapshot/html_report.h"

#include <gtest/gtest.h>

#include <optional>
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

// A direction of a proof: `before` and `after` from `first_bin` on.
v1::LatencyDirection direction(uint64_t messages, uint64_t negative_before, uint64_t negative_after, int first_bin,
                               std::vector<uint64_t> before, std::vector<uint64_t> after) {
  v1::LatencyDirection d;
  d.set_messages(messages);
  d.set_receive_before_send_before(negative_before);
  d.set_receive_before_send_after(negative_after);
  d.set_min_before_ns(-4'950'000);
  d.set_max_before_ns(5'050'000);
  d.set_min_after_ns(50'000);
  d.set_max_after_ns(50'000);
  d.set_first_bin(first_bin);
  for (const uint64_t c : before) d.add_before(c);
  for (const uint64_t c : after) d.add_after(c);
  return d;
}

// two_islands() with a proof on its link: 3 a->b messages in bins 1 and 2
// before, 0 and 1 after; 4 b->a in bin -2 before (received before sent),
// bin 2 after, or `after_b_to_a` of them still negative (bin -1).
v1::Snapshot with_proof(uint64_t after_b_to_a = 0) {
  v1::Snapshot s = two_islands();
  v1::LinkDetail detail;
  detail.ParseFromString(s.links(0).detail());
  v1::LatencyProof* p = detail.mutable_proof();
  p->set_synchronized(true);
  *p->mutable_a_to_b() = direction(3, 0, 0, 0, {0, 1, 2}, {1, 2, 0});
  *p->mutable_b_to_a() = direction(4, 4, after_b_to_a, -2, {4, 0, 0, 0, 0},
                                   {0, after_b_to_a, 0, 0, 4 - after_b_to_a});
  s.mutable_links(0)->set_detail(detail.SerializeAsString());
  return s;
}

TEST(HtmlModel, LatencyChartPutsBothDirectionsOnOneRunOfBins) {
  const v1::Snapshot s = with_proof();
  const std::optional<v1::LatencyProof> proof = html::latency_proof(s.links(0));
  ASSERT_TRUE(proof.has_value());
  const html::LatencyChart chart = html::latency_chart(*proof);
  EXPECT_EQ(chart.first_bin, -2);
  EXPECT_EQ(chart.last_bin, 2);
  EXPECT_EQ(chart.a_to_b.before, (std::vector<uint64_t>{0, 0, 0, 1, 2}));
  EXPECT_EQ(chart.a_to_b.after, (std::vector<uint64_t>{0, 0, 1, 2, 0}));
  EXPECT_EQ(chart.b_to_a.before, (std::vector<uint64_t>{4, 0, 0, 0, 0}));
  EXPECT_EQ(chart.b_to_a.after, (std::vector<uint64_t>{0, 0, 0, 0, 4}));
  // Without a common time base there is no "after".
  v1::LatencyProof apart = *proof;
  apart.set_synchronized(false);
  apart.mutable_a_to_b()->clear_after();
  apart.mutable_b_to_a()->clear_after();
  const html::LatencyChart unsynchronized = html::latency_chart(apart);
  EXPECT_EQ(unsynchronized.first_bin, -2);
  EXPECT_TRUE(unsynchronized.a_to_b.after.empty());
  EXPECT_EQ(unsynchronized.b_to_a.before.size(), 5u);
}

TEST(HtmlModel, CausalityCountsAddUpAndTellAccurateTreeLinksApart) {
  EXPECT_FALSE(html::causality_counts(two_islands()).has_value());  // made without proofs
  v1::Snapshot s = with_proof(3);
  // A second link, off the tree, with one message received before sent after.
  *s.add_links() = with_proof(1).links(0);
  s.mutable_links(1)->set_in_tree(false);
  const std::optional<html::CausalityCounts> c = html::causality_counts(s);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->links, 2);
  EXPECT_EQ(c->messages, 14u);
  EXPECT_EQ(c->messages_between_islands, 0u);
  EXPECT_EQ(c->total.before, 8u);
  EXPECT_EQ(c->total.after, 4u);
  EXPECT_EQ(c->after_on_accurate_tree_links, 3u);
  EXPECT_EQ(c->links_after, 2);
  // An APPROXIMATE link of the tree may keep some: its messages contradict every line.
  s.mutable_links(0)->set_quality(v1::APPROXIMATE);
  EXPECT_EQ(html::causality_counts(s)->after_on_accurate_tree_links, 0u);
}

TEST(HtmlReport, ShowsEachLinksProof) {
  const std::string page = to_html(with_proof());
  for (const char* id : {"causality", "after-count", "proof-0", "proof-0-verdict", "latency-0-ab", "latency-0-ba",
                         "latency-bins"}) {
    EXPECT_NE(page.find("id=\"" + std::string(id) + "\""), std::string::npos) << id;
  }
  EXPECT_NE(page.find("<strong>4</strong> of 7 message(s) were received before they were sent"), std::string::npos);
  EXPECT_NE(page.find("<strong id=\"after-count\">0</strong>"), std::string::npos);
  EXPECT_NE(page.find("received before sent: 4 before, 0 after"), std::string::npos);  // in the link's summary
  EXPECT_NE(page.find("<strong>none after</strong>"), std::string::npos);
  // The histograms' non-empty bins as (offset, count) pairs, drawn when opened.
  EXPECT_NE(page.find("data-bars='{\"f\":-2,\"n\":5,\"b\":[3,1,4,2],\"a\":[2,1,3,2],\"s\":1}'"), std::string::npos);
  EXPECT_NE(page.find("data-bars='{\"f\":-2,\"n\":5,\"b\":[0,4],\"a\":[4,4],\"s\":1}'"), std::string::npos);
  // The bins in words, once.
  EXPECT_NE(page.find("\"1 us to 1.26 us\""), std::string::npos);
  EXPECT_NE(page.find("\"less than 1 ns either way\""), std::string::npos);
  // A report made without proofs says nothing of them.
  const std::string without = to_html(two_islands());
  EXPECT_EQ(without.find("id=\"causality\""), std::string::npos);
  EXPECT_EQ(without.find("id=\"latency-bins\""), std::string::npos);
  EXPECT_EQ(without.find("id=\"proof-0\""), std::string::npos);
}

TEST(HtmlReport, SaysPlainlyWhenMessagesAreStillReceivedBeforeSent) {
  // On an ACCURATE link of the tree: that should not happen, and the page says so.
  const std::string tree = to_html(with_proof(3));
  EXPECT_NE(tree.find("<strong id=\"after-count\">3</strong>"), std::string::npos);
  EXPECT_NE(tree.find("id=\"causality-on-trees\">3 of them on ACCURATE links of the trees"), std::string::npos);
  EXPECT_NE(tree.find("3 after, on an ACCURATE link of the tree"), std::string::npos);
  EXPECT_NE(tree.find("<span class=\"warn\">3 after</span>"), std::string::npos);
  EXPECT_NE(tree.find("receive-before-send"), std::string::npos);  // what the filter finds
  // Off the tree: possible, shown, explained.
  v1::Snapshot off = with_proof(2);
  off.mutable_links(0)->set_in_tree(false);
  const std::string page = to_html(off);
  EXPECT_NE(page.find("None on the ACCURATE links of the trees"), std::string::npos);
  EXPECT_NE(page.find("the link is not in the tree"), std::string::npos);
  EXPECT_NE(page.find("<span class=\"warn\">2 after</span>"), std::string::npos);
  // APPROXIMATE, in the tree: possible too, and why.
  v1::Snapshot approximate = with_proof(1);
  approximate.mutable_links(0)->set_quality(v1::APPROXIMATE);
  approximate.mutable_links(0)->set_contradictions(2);
  const std::string approximate_page = to_html(approximate);
  EXPECT_NE(approximate_page.find("None on the ACCURATE links of the trees"), std::string::npos);
  EXPECT_NE(approximate_page.find("the link is APPROXIMATE, some of its messages contradict every line (2 "
                                  "contradiction(s))"),
            std::string::npos);
  // No common time base: no "after" at all.
  v1::Snapshot apart = with_proof();
  v1::LinkDetail detail;
  detail.ParseFromString(apart.links(0).detail());
  detail.mutable_proof()->set_synchronized(false);
  apart.mutable_links(0)->set_detail(detail.SerializeAsString());
  const std::string apart_page = to_html(apart);
  EXPECT_NE(apart_page.find("are in different islands, with no common time base"), std::string::npos);
  EXPECT_NE(apart_page.find("received before sent: 4 before, no common time base</summary>"), std::string::npos);
  // The summary does not count those messages as fine after synchronization.
  EXPECT_NE(apart_page.find("<strong id=\"after-count\">0</strong> of the 0 on links within an island (the other 7 "
                            "are on links between islands, with no common time base)"),
            std::string::npos);
}

TEST(HtmlReport, RequestsNothingFromOutside) {
  const std::string page = to_html(with_proof());  // the proof's drawing script included
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
