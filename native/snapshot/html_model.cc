// SPDX-License-Identifier: EPL-2.0
#include "snapshot/html_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

namespace tracesync::snapshot::html {

model::Quad exact_value(const v1::Decimal& d) { return model::parse_decimal(d.exact()).value_or(d.approx()); }

std::string human_duration(double ns) {
  if (!std::isfinite(ns)) return "unbounded";
  const double magnitude = std::fabs(ns);
  const char* unit = "ns";
  double value = ns;
  if (magnitude >= 1e9) {
    value = ns / 1e9, unit = "s";
  } else if (magnitude >= 1e6) {
    value = ns / 1e6, unit = "ms";
  } else if (magnitude >= 1e3) {
    value = ns / 1e3, unit = "us";
  }
  // Three significant digits are what a person compares.
  const double a = std::fabs(value);
  const int decimals = a >= 100 || value == std::floor(value) ? 0 : a >= 10 ? 1 : 2;
  char text[64];
  std::snprintf(text, sizeof text, "%.*f %s", decimals, value, unit);
  return text;
}

std::string quality_word(v1::Quality q) { return q == v1::QUALITY_UNSPECIFIED ? "UNKNOWN" : v1::Quality_Name(q); }

std::string quality_meaning(v1::Quality q) {
  switch (q) {
    case v1::ACCURATE: return "bounded both ways by messages in both directions";
    case v1::APPROXIMATE: return "an estimate only (no exact bound)";
    case v1::INCOMPLETE: return "messages in one direction only: unbounded";
    case v1::ABSENT: return "no messages";
    case v1::FAIL: return "the messages contradict each other (no line fits them)";
    default: return "unknown";
  }
}

std::vector<TracePiece> trace_pieces(const v1::Trace& t) {
  std::vector<TracePiece> pieces;
  const auto piece = [](int64_t first, int64_t last, model::Quad slope, model::Quad offset, double u0, double u1) {
    TracePiece p;
    p.first_ns = first;
    p.last_ns = last;
    p.slope = slope;
    p.offset = offset;
    p.drift_ppm = model::to_double((slope - 1) * 1000000);
    // (slope - 1) * t + offset in quad: t ~ 1.7e18 would lose 256 ns in double.
    p.shift_ns = model::to_double((slope - 1) * static_cast<model::Quad>(first) + offset);
    p.uncertainty_first_ns = u0;
    p.uncertainty_last_ns = u1;
    return p;
  };
  for (const v1::Segment& s : t.segments()) {
    pieces.push_back(piece(s.first_ns(), s.last_ns(), exact_value(s.slope()), exact_value(s.offset()),
                           s.uncertainty_first_ns(), s.uncertainty_last_ns()));
  }
  if (pieces.empty()) {
    pieces.push_back(piece(t.first_ns(), t.last_ns(), exact_value(t.slope()), exact_value(t.offset()), t.uncertainty_ns(),
                           t.uncertainty_ns()));
  }
  return pieces;
}

std::vector<RelativePoint> bound_curve(const std::vector<TracePiece>& pieces) {
  std::vector<RelativePoint> curve;
  if (pieces.empty()) return curve;
  const int64_t origin = pieces.front().first_ns;
  for (const TracePiece& p : pieces) {
    // Differences of int64 timestamps of one trace: exact, then one rounding.
    curve.push_back({static_cast<double>(p.first_ns - origin), p.uncertainty_first_ns});
    curve.push_back({static_cast<double>(p.last_ns - origin), p.uncertainty_last_ns});
  }
  return curve;
}

std::vector<SyncState> sync_states(const v1::Snapshot& s) {
  std::vector<SyncState> states(static_cast<std::size_t>(s.traces_size()));
  const bool answered = std::any_of(s.traces().begin(), s.traces().end(), [](const v1::Trace& t) {
    return t.synchronized() || !t.unsynchronized_reason().empty();
  });
  if (answered) {
    for (int i = 0; i < s.traces_size(); ++i) {
      const v1::Trace& t = s.traces(i);
      states[i] = {t.synchronized(), t.synchronized() ? "" : t.unsynchronized_reason()};
      if (!t.synchronized() && states[i].reason.empty()) states[i].reason = "not synchronized (no reason given)";
    }
    return states;
  }
  std::map<uint32_t, int> traces_in;
  for (const v1::Trace& t : s.traces()) ++traces_in[t.island()];
  uint32_t main_island = 0;
  int most = -1;
  for (const auto& [island, count] : traces_in) {  // ascending ids: ties keep the smallest
    if (count > most) main_island = island, most = count;
  }
  for (int i = 0; i < s.traces_size(); ++i) {
    const bool in_main = s.traces(i).island() == main_island;
    states[i] = {in_main, in_main ? "" : "outside the main island: no chain of messages to its reference"};
  }
  return states;
}

RelativePoint LinkFrame::relative(int64_t x, int64_t y) const {
  const model::Quad estimate = alpha_ * static_cast<model::Quad>(x) + beta_;
  // x - origin can exceed int64 only for spans of 292 years: do it in quad too.
  return {model::to_double(static_cast<model::Quad>(x) - static_cast<model::Quad>(origin_)),
          model::to_double(static_cast<model::Quad>(y) - estimate)};
}

RelativePoint LinkFrame::on_line(model::Quad slope, model::Quad intercept, int64_t x) const {
  const model::Quad qx = static_cast<model::Quad>(x);
  return {model::to_double(qx - static_cast<model::Quad>(origin_)), model::to_double((slope - alpha_) * qx + (intercept - beta_))};
}

RelativeSegment LinkFrame::line(const v1::Line& l, int64_t from_x, int64_t to_x) const {
  const model::Quad slope = exact_value(l.slope());
  const model::Quad intercept = exact_value(l.intercept());
  return {on_line(slope, intercept, from_x), on_line(slope, intercept, to_x)};
}

namespace {

template <typename Detail>
LinkPlotPiece plot_piece(const LinkFrame& frame, const Detail& d, int64_t first, int64_t last, model::Quad alpha,
                         model::Quad beta) {
  LinkPlotPiece p;
  p.first_x = frame.on_line(alpha, beta, first).x_ns;
  p.last_x = frame.on_line(alpha, beta, last).x_ns;
  if (d.has_lmin()) p.lmin = frame.line(d.lmin(), first, last);
  if (d.has_lmax()) p.lmax = frame.line(d.lmax(), first, last);
  p.estimate = {frame.on_line(alpha, beta, first), frame.on_line(alpha, beta, last)};
  return p;
}

void widen(Range& r, double v, bool& empty) {
  if (empty) {
    r = {v, v};
    empty = false;
  } else {
    r.lo = std::min(r.lo, v), r.hi = std::max(r.hi, v);
  }
}

}  // namespace

LinkPlot link_plot(const v1::Link& link, const v1::LinkDetail& detail) {
  LinkPlot plot;
  plot.origin_ns = link.span_first_ns();
  const model::Quad alpha = exact_value(link.alpha());
  const model::Quad beta = exact_value(link.beta());
  const LinkFrame frame(plot.origin_ns, alpha, beta);
  const auto add_points = [&](const auto& lower, const auto& upper) {
    for (const v1::Point& p : lower) plot.lower.push_back(frame.relative(p.x(), p.y()));
    for (const v1::Point& p : upper) plot.upper.push_back(frame.relative(p.x(), p.y()));
  };
  if (detail.segments_size() == 0) {
    add_points(detail.lower_hull_points(), detail.upper_hull_points());
    plot.pieces.push_back(plot_piece(frame, detail, link.span_first_ns(), link.span_last_ns(), alpha, beta));
  } else {
    for (const v1::LinkSegment& s : detail.segments()) {
      add_points(s.lower_hull_points(), s.upper_hull_points());
      plot.pieces.push_back(
          plot_piece(frame, s, s.first_ns(), s.last_ns(), exact_value(s.alpha()), exact_value(s.beta())));
      if (plot.pieces.size() > 1) plot.boundaries.push_back(plot.pieces.back().first_x);
    }
  }
  plot.full_x = {0, static_cast<double>(model::to_double(static_cast<model::Quad>(link.span_last_ns()) -
                                                          static_cast<model::Quad>(link.span_first_ns())))};
  for (const LinkPlotPiece& p : plot.pieces) {
    plot.full_x.lo = std::min(plot.full_x.lo, p.first_x);
    plot.full_x.hi = std::max(plot.full_x.hi, p.last_x);
  }
  bool empty = true;
  Range vertices;
  for (const RelativePoint& p : plot.lower) widen(vertices, p.x_ns, empty);
  for (const RelativePoint& p : plot.upper) widen(vertices, p.x_ns, empty);
  if (empty) {
    plot.zoom_x = plot.full_x;
  } else {
    // A margin of a tenth of the vertices' spread (at least 1 us) on each side.
    const double margin = std::max((vertices.hi - vertices.lo) / 10, 1000.0);
    plot.zoom_x = {std::max(plot.full_x.lo, vertices.lo - margin), std::min(plot.full_x.hi, vertices.hi + margin)};
    if (plot.zoom_x.hi <= plot.zoom_x.lo) plot.zoom_x = {vertices.lo - margin, vertices.hi + margin};
  }
  return plot;
}

Range y_range(const LinkPlot& plot, Range x) {
  Range r;
  bool empty = true;
  const auto in_x = [&](double v) { return v >= x.lo && v <= x.hi; };
  for (const RelativePoint& p : plot.lower) {
    if (in_x(p.x_ns)) widen(r, p.y_ns, empty);
  }
  for (const RelativePoint& p : plot.upper) {
    if (in_x(p.x_ns)) widen(r, p.y_ns, empty);
  }
  // Lines: their values at the ends of the part of them inside x.
  const auto add_line = [&](const RelativeSegment& s) {
    const double lo = std::max(x.lo, s.from.x_ns);
    const double hi = std::min(x.hi, s.to.x_ns);
    if (lo > hi) return;
    const double dx = s.to.x_ns - s.from.x_ns;
    const auto at = [&](double v) { return dx == 0 ? s.from.y_ns : s.from.y_ns + (s.to.y_ns - s.from.y_ns) * (v - s.from.x_ns) / dx; };
    widen(r, at(lo), empty);
    widen(r, at(hi), empty);
  };
  for (const LinkPlotPiece& p : plot.pieces) {
    add_line(p.estimate);
    if (p.lmin) add_line(*p.lmin);
    if (p.lmax) add_line(*p.lmax);
  }
  if (empty || r.hi - r.lo < 1) {
    const double mid = empty ? 0 : (r.lo + r.hi) / 2;
    r = {mid - 1, mid + 1};
  }
  return r;
}

namespace {

// A direction's counts moved onto the chart's bins [first, last].
std::vector<uint64_t> on_chart(const google::protobuf::RepeatedField<uint64_t>& counts, int from_bin, int first, int last) {
  std::vector<uint64_t> out(static_cast<std::size_t>(last - first + 1), 0);
  for (int i = 0; i < counts.size(); ++i) out[static_cast<std::size_t>(from_bin + i - first)] = counts.Get(i);
  return out;
}

}  // namespace

LatencyChart latency_chart(const v1::LatencyProof& proof) {
  LatencyChart chart;
  for (const v1::LatencyDirection* d : {&proof.a_to_b(), &proof.b_to_a()}) {
    const int count = std::max(d->before_size(), d->after_size());
    if (count == 0) continue;
    chart.first_bin = std::min(chart.first_bin, d->first_bin());
    chart.last_bin = std::max(chart.last_bin, d->first_bin() + count - 1);
  }
  const auto bars = [&](const v1::LatencyDirection& d) {
    LatencyBars b;
    b.before = on_chart(d.before(), d.first_bin(), chart.first_bin, chart.last_bin);
    if (proof.synchronized()) b.after = on_chart(d.after(), d.first_bin(), chart.first_bin, chart.last_bin);
    return b;
  };
  chart.a_to_b = bars(proof.a_to_b());
  chart.b_to_a = bars(proof.b_to_a());
  return chart;
}

std::optional<v1::LatencyProof> latency_proof(const v1::Link& link) {
  v1::LinkDetail detail;
  if (!detail.ParseFromString(link.detail()) || !detail.has_proof()) return std::nullopt;
  return detail.proof();
}

ReceiveBeforeSend receive_before_send(const v1::LatencyProof& p) {
  return {p.a_to_b().receive_before_send_before() + p.b_to_a().receive_before_send_before(),
          p.a_to_b().receive_before_send_after() + p.b_to_a().receive_before_send_after()};
}

std::optional<CausalityCounts> causality_counts(const v1::Snapshot& s) {
  CausalityCounts c;
  for (const v1::Link& link : s.links()) {
    const std::optional<v1::LatencyProof> proof = latency_proof(link);
    if (!proof) continue;
    ++c.links;
    const uint64_t messages = proof->a_to_b().messages() + proof->b_to_a().messages();
    c.messages += messages;
    if (!proof->synchronized()) c.messages_between_islands += messages;
    const ReceiveBeforeSend r = receive_before_send(*proof);
    c.total.before += r.before;
    c.total.after += r.after;
    if (link.in_tree() && link.quality() == v1::ACCURATE) c.after_on_accurate_tree_links += r.after;
    if (r.after > 0) ++c.links_after;
  }
  if (c.links == 0) return std::nullopt;
  return c;
}

}  // namespace tracesync::snapshot::html
