// SPDX-License-Identifier: EPL-2.0
#include "session/link_report.h"

#include "session/matching_report.h"
#include "snapshot/decimal.h"

namespace tracesync::session {
namespace {

using snapshot::to_decimal_message;

v1::Quality to_proto(hull::Quality q) {
  switch (q) {
    case hull::Quality::kAbsent: return v1::ABSENT;
    case hull::Quality::kIncomplete: return v1::INCOMPLETE;
    case hull::Quality::kAccurate: return v1::ACCURATE;
    case hull::Quality::kApproximate: return v1::APPROXIMATE;
    case hull::Quality::kFail: return v1::FAIL;
  }
  return v1::QUALITY_UNSPECIFIED;
}

void fill_line(v1::Line* out, const hull::Line& line) {
  *out->mutable_slope() = to_decimal_message(line.slope);
  *out->mutable_intercept() = to_decimal_message(line.intercept);
}

void fill_points(const std::vector<model::Point>& points, google::protobuf::RepeatedPtrField<v1::Point>* out) {
  for (const model::Point& p : points) {
    v1::Point* q = out->Add();
    q->set_x(p.x);
    q->set_y(p.y);
  }
}

}  // namespace

v1::LinkSegment link_segment_report(const hull::LinkSegment& segment) {
  v1::LinkSegment out;
  const hull::LinkEstimate& e = segment.estimate;
  out.set_first_ns(segment.span.first);
  out.set_last_ns(segment.span.last);
  out.set_quality(to_proto(e.quality));
  *out.mutable_alpha() = to_decimal_message(e.alpha);
  *out.mutable_beta() = to_decimal_message(e.beta);
  if (e.lmin) fill_line(out.mutable_lmin(), *e.lmin);
  if (e.lmax) fill_line(out.mutable_lmax(), *e.lmax);
  if (segment.uncertainty_first) out.set_uncertainty_first_ns(model::to_double(*segment.uncertainty_first));
  if (segment.uncertainty_last) out.set_uncertainty_last_ns(model::to_double(*segment.uncertainty_last));
  out.set_lower_messages(e.counters.lower_messages);
  out.set_upper_messages(e.counters.upper_messages);
  fill_points(segment.hull.lower, out.mutable_lower_hull_points());
  fill_points(segment.hull.upper, out.mutable_upper_hull_points());
  return out;
}

hull::TimeSpan report_span(const Domain& a) { return {a.first.value_or(0), a.last.value_or(0)}; }

v1::Link link_report(const DomainTable& domains, const Link& link, const hull::LinkEstimate& e,
                     const std::optional<model::Quad>& uncertainty, bool in_tree, bool detail,
                     const std::vector<hull::LinkSegment>* segments, const hull::ClockMap* clock_map) {
  v1::Link out;
  out.set_a(domains[link.a].id);
  out.set_b(domains[link.b].id);
  out.set_quality(to_proto(e.quality));
  *out.mutable_alpha() = to_decimal_message(e.alpha);
  *out.mutable_beta() = to_decimal_message(e.beta);
  if (e.accuracy) *out.mutable_accuracy() = to_decimal_message(*e.accuracy);
  out.set_messages(e.counters.messages);
  out.set_accurate_messages(e.counters.accurate_messages);
  out.set_lower_hull(e.counters.lower_hull);
  out.set_upper_hull(e.counters.upper_hull);
  out.set_contradictions(e.counters.contradictions);
  out.set_lower_messages(e.counters.lower_messages);
  out.set_upper_messages(e.counters.upper_messages);
  out.set_late_messages(e.counters.late_messages);
  out.set_in_tree(in_tree);
  const hull::TimeSpan span = report_span(domains[link.a]);
  out.set_span_first_ns(span.first);
  out.set_span_last_ns(span.last);
  if (uncertainty) out.set_uncertainty_ns(model::to_double(*uncertainty));
  if (segments) out.set_segments(static_cast<uint32_t>(segments->size()));
  if (!detail) return out;

  v1::LinkDetail d;
  if (e.lmin) fill_line(d.mutable_lmin(), *e.lmin);
  if (e.lmax) fill_line(d.mutable_lmax(), *e.lmax);
  const hull::HullPoints points = link.estimator->hull_points();
  fill_points(points.lower, d.mutable_lower_hull_points());
  fill_points(points.upper, d.mutable_upper_hull_points());
  if (segments) {
    for (const hull::LinkSegment& segment : *segments) *d.add_segments() = link_segment_report(segment);
  }
  if (link.has_matching) *d.mutable_matching() = matching_report(link.matching);
  if (e.regression) {
    const hull::RegressionStatistics& r = *e.regression;
    v1::Regression* p = d.mutable_regression();
    p->set_origin_ns(r.origin);
    p->set_exchanges(r.exchanges);
    p->set_used_exchanges(r.used_exchanges);
    p->set_confidence(r.confidence);
    *p->mutable_drift() = to_decimal_message(r.drift);
    *p->mutable_offset_at_origin() = to_decimal_message(r.offset_at_origin);
    *p->mutable_residual_stddev() = to_decimal_message(r.residual_stddev);
    *p->mutable_e_ij() = to_decimal_message(r.e_ij);
    *p->mutable_e_d0() = to_decimal_message(r.e_d0);
  }
  if (clock_map) {
    for (const hull::Knot& k : *clock_map) {
      v1::ClockKnot* knot = d.add_clock_map();
      knot->set_x_ns(k.x);
      *knot->mutable_y() = snapshot::to_decimal_message(k.y);
      knot->set_bound_ns(model::to_double(k.bound));
    }
  }
  for (const hull::Breach& b : link.estimator->breaches()) {
    v1::Breach* breach = d.add_breaches();
    breach->set_from_ns(b.span.first);
    breach->set_to_ns(b.span.last);
    breach->set_needed_ppm(b.needed_ppm);
  }
  d.SerializeToString(out.mutable_detail());
  return out;
}

}  // namespace tracesync::session
