// SPDX-License-Identifier: EPL-2.0
#pragma once

// The numbers the HTML report draws, computed apart from the page so that
// they can be tested: human units, each trace's pieces and bound over time,
// and each link's plot in coordinates relative to an origin and to the
// link's estimate. Relative coordinates are computed exactly (int64 and quad
// arithmetic) before they become doubles, so that 1.7e18 ns timestamps,
// whose doubles are 256 ns apart, still plot to the nanosecond.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/quad.h"
#include "snapshot/tracesync.pb.h"

namespace tracesync::snapshot::html {

// "850 ns", "12.3 us", "4.56 ms", "1.23 s"; "unbounded" for infinities/NaN.
std::string human_duration(double ns);

// A quality in words, readable without colour: "ACCURATE", "FAIL", ...
std::string quality_word(v1::Quality quality);
// What the quality means, for a tooltip and the legend.
std::string quality_meaning(v1::Quality quality);

struct RelativePoint {
  double x_ns;  // time since the plot's origin
  double y_ns;  // for links: distance above the estimate; for traces: the bound
};

// A closed interval of a plot axis.
struct Range {
  double lo = 0;
  double hi = 0;
};

// --- Traces ------------------------------------------------------------------

// One piece of a trace's transform, for reading: t_ref = slope * t + offset.
struct TracePiece {
  int64_t first_ns = 0;
  int64_t last_ns = 0;
  model::Quad slope = 1;
  model::Quad offset = 0;
  double drift_ppm = 0;           // (slope - 1) * 1e6
  double shift_ns = 0;            // t_ref - t at first_ns
  double uncertainty_first_ns = 0;
  double uncertainty_last_ns = 0;
};

// The trace's pieces; an old snapshot without segments gives one piece from
// the single line and its bound.
std::vector<TracePiece> trace_pieces(const v1::Trace& trace);

// The bound over time through the pieces' ends, x relative to the trace's
// first piece's start.
std::vector<RelativePoint> bound_curve(const std::vector<TracePiece>& pieces);

// Whether the trace is synchronized: the snapshot's own answer when it gives
// one (any trace synchronized or with a reason); otherwise (snapshots made
// before that field) membership of the main island, the island with the
// most traces, ties to the smallest id.
struct SyncState {
  bool synchronized = false;
  std::string reason;  // empty when synchronized
};
std::vector<SyncState> sync_states(const v1::Snapshot& snapshot);

// --- Links -------------------------------------------------------------------

// A line's two ends in relative coordinates.
struct RelativeSegment {
  RelativePoint from;
  RelativePoint to;
};

// One stretch of a link (a LinkSegment, or the whole link when it has none).
struct LinkPlotPiece {
  double first_x = 0;  // relative to the origin
  double last_x = 0;
  std::optional<RelativeSegment> lmin;
  std::optional<RelativeSegment> lmax;
  RelativeSegment estimate;  // the piece's own estimate (alpha, beta)
};

// Everything one link's plot draws. x: a's clock minus `origin_ns`;
// y: b's clock minus the link's estimate alpha * x + beta at that x.
struct LinkPlot {
  int64_t origin_ns = 0;
  std::vector<RelativePoint> lower;  // a -> b hull vertices (lie above the truth)
  std::vector<RelativePoint> upper;  // b -> a hull vertices (lie below the truth)
  std::vector<LinkPlotPiece> pieces;
  std::vector<double> boundaries;  // x of the starts of pieces after the first
  Range full_x;  // the link's whole span
  Range zoom_x;  // where the hull vertices are, padded; full_x when there are none
};

// The exact frame: x - origin in integers, y - (alpha * x + beta) in quad.
class LinkFrame {
 public:
  LinkFrame(int64_t origin_ns, model::Quad alpha, model::Quad beta) : origin_(origin_ns), alpha_(alpha), beta_(beta) {}
  RelativePoint relative(int64_t x, int64_t y) const;
  // y = slope * x + intercept at x, relative.
  RelativePoint on_line(model::Quad slope, model::Quad intercept, int64_t x) const;
  RelativeSegment line(const v1::Line& line, int64_t from_x, int64_t to_x) const;

 private:
  int64_t origin_;
  model::Quad alpha_;
  model::Quad beta_;
};

LinkPlot link_plot(const v1::Link& link, const v1::LinkDetail& detail);

// The y range a plot needs to show every point and line end within `x`.
Range y_range(const LinkPlot& plot, Range x);

model::Quad exact_value(const v1::Decimal& d);

// --- The proof ---------------------------------------------------------------

// One direction's histograms, before and after synchronization, over the
// chart's bins (after is empty when the ends have no common time base).
struct LatencyBars {
  std::vector<uint64_t> before;
  std::vector<uint64_t> after;
};

// A link's latency histograms over one run of bins (snapshot/latency_bins.h),
// the same for both directions, before and after, so that they compare:
// the run that holds every latency of both and bin 0.
struct LatencyChart {
  int first_bin = 0;
  int last_bin = 0;
  LatencyBars a_to_b;
  LatencyBars b_to_a;
};
LatencyChart latency_chart(const v1::LatencyProof& proof);

// Messages received before they were sent, over both directions of a link.
struct ReceiveBeforeSend {
  uint64_t before = 0;  // on the traces' own clocks
  uint64_t after = 0;   // after synchronization (0 without a common time base)
};
ReceiveBeforeSend receive_before_send(const v1::LatencyProof& proof);

// The same over every link with a proof. After synchronization there must
// be none on an ACCURATE link of a tree: its transform comes from its own
// messages. Off the trees (their ends synchronized through other links,
// within those links' bounds), or on an APPROXIMATE link (whose messages
// contradict every line), some may remain.
struct CausalityCounts {
  int links = 0;  // links with a proof
  uint64_t messages = 0;
  uint64_t messages_between_islands = 0;  // with no "after": no common time base
  ReceiveBeforeSend total;
  uint64_t after_on_accurate_tree_links = 0;  // should be 0
  int links_after = 0;                        // links with some after
};
// Nothing when no link has a proof (a snapshot made for another format).
std::optional<CausalityCounts> causality_counts(const v1::Snapshot& snapshot);

// A link's proof, when its snapshot was made with one.
std::optional<v1::LatencyProof> latency_proof(const v1::Link& link);

}  // namespace tracesync::snapshot::html
