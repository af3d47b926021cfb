// SPDX-License-Identifier: EPL-2.0
// The JSON report's writer as it was before s38 (43b7875's
// native/snapshot/json_report.cc, its to_json only, renamed): it builds
// the whole document as one nlohmann value and dumps it. Kept here, and
// only here, as the oracle the streaming writer is compared with byte for
// byte (json_stream_test.cc). Do not change it with the report: a change
// to the report's format changes both, and this file says what the
// streaming writer must still write for everything else.
#include "json_report_reference.h"

#include <nlohmann/json.hpp>

#include "snapshot/exact_names.h"
#include "snapshot/json_names.h"
#include "snapshot/link_evidence_summary.h"

namespace tracesync::snapshot::reference {
namespace {

using nlohmann::ordered_json;

ordered_json quality_name(v1::Quality q) {
  const std::string& name = v1::Quality_Name(q);
  return q == v1::QUALITY_UNSPECIFIED ? ordered_json("UNKNOWN") : ordered_json(name);
}

// `key_too_long`: with application message kinds (it counts their events
// only); `probe_matches`: with `--probe-port` (docs/probe.md).
ordered_json matching_json(const v1::MatchingStatistics& m, bool key_too_long, bool probe_matches) {
  ordered_json j = {{"sends", m.sends()},
          {"receives", m.receives()},
          {"matches", m.matches()},
          {"retransmissions", m.retransmissions()},
          {"duplicates", m.duplicates()},
          {"unmatched_sends", m.unmatched_sends()},
          {"unmatched_receives", m.unmatched_receives()},
          {"expired", m.expired()},
          {"unknown_layout", m.unknown_layout()},
          {"same_domain", m.same_domain()},
          {"non_tcp", m.non_tcp()}};
  if (key_too_long) j["key_too_long"] = m.key_too_long();
  if (probe_matches) j["probe_matches"] = m.probe_matches();
  return j;
}

ordered_json line_json(const v1::Line& line) {
  return {{"slope", line.slope().exact()}, {"intercept", line.intercept().exact()}};
}

ordered_json link_state_json(const v1::Link& link) {
  ordered_json j;
  put_name(j, "a", exact_name(link.a(), link.a_raw()));
  put_name(j, "b", exact_name(link.b(), link.b_raw()));
  j["quality"] = quality_name(link.quality());
  j["alpha"] = link.alpha().exact();
  j["beta"] = link.beta().exact();
  j["accuracy"] = link.has_accuracy() ? ordered_json(link.accuracy().exact()) : ordered_json(nullptr);
  j["messages"] = link.messages();
  j["accurate_messages"] = link.accurate_messages();
  j["lower_hull"] = link.lower_hull();
  j["upper_hull"] = link.upper_hull();
  j["contradictions"] = link.contradictions();
  return j;
}

ordered_json optional_number(bool present, double value) {
  return present ? ordered_json(value) : ordered_json(nullptr);
}

ordered_json link_segment_json(const v1::LinkSegment& segment) {
  ordered_json j;
  j["first_ns"] = segment.first_ns();
  j["last_ns"] = segment.last_ns();
  j["quality"] = quality_name(segment.quality());
  j["alpha"] = segment.alpha().exact();
  j["beta"] = segment.beta().exact();
  j["lmin"] = segment.has_lmin() ? line_json(segment.lmin()) : ordered_json(nullptr);
  j["lmax"] = segment.has_lmax() ? line_json(segment.lmax()) : ordered_json(nullptr);
  j["uncertainty_first_ns"] = optional_number(segment.has_uncertainty_first_ns(), segment.uncertainty_first_ns());
  j["uncertainty_last_ns"] = optional_number(segment.has_uncertainty_last_ns(), segment.uncertainty_last_ns());
  j["lower_messages"] = segment.lower_messages();
  j["upper_messages"] = segment.upper_messages();
  return j;
}

ordered_json trace_segment_json(const v1::Segment& segment) {
  return {{"first_ns", segment.first_ns()},
          {"last_ns", segment.last_ns()},
          {"slope", segment.slope().exact()},
          {"offset", segment.offset().exact()},
          {"uncertainty_first_ns", segment.uncertainty_first_ns()},
          {"uncertainty_last_ns", segment.uncertainty_last_ns()}};
}

ordered_json points_json(const google::protobuf::RepeatedPtrField<v1::Point>& points) {
  ordered_json list = ordered_json::array();
  for (const v1::Point& p : points) list.push_back({{"x", p.x()}, {"y", p.y()}});
  return list;
}

// What the link rests on (docs/json.md, "Evidence"); additive: signals
// and other evidence join this object.
ordered_json evidence_json(const v1::Link& link, const v1::EngineOptions& options) {
  const LinkEvidenceSummary evidence = link_evidence_summary(link, options);
  ordered_json messages = ordered_json::array();
  for (const LinkEvidenceSummary::Kind& k : evidence.messages) {
    messages.push_back({{"kind", readable_json(k.name)}, {"messages", k.messages}});
  }
  return {{"messages", std::move(messages)}, {"probe_messages", evidence.probe_messages}};
}

ordered_json link_json(const v1::Link& link, const v1::EngineOptions& options) {
  ordered_json j = link_state_json(link);
  put_name(j, "a_hostname", exact_name(link.a_hostname(), link.a_hostname_raw()));
  put_name(j, "b_hostname", exact_name(link.b_hostname(), link.b_hostname_raw()));
  j["in_tree"] = link.in_tree();
  j["uncertainty_ns"] = link.has_uncertainty_ns() ? ordered_json(link.uncertainty_ns()) : ordered_json(nullptr);
  j["span_ns"] = {link.span_first_ns(), link.span_last_ns()};
  j["lower_messages"] = link.lower_messages();
  j["upper_messages"] = link.upper_messages();
  if (link.late_messages() > 0) j["late_messages"] = link.late_messages();
  v1::LinkDetail detail;
  detail.ParseFromString(link.detail());
  if (detail.has_lmin()) j["lmin"] = line_json(detail.lmin());
  if (detail.has_lmax()) j["lmax"] = line_json(detail.lmax());
  j["lower_hull_points"] = points_json(detail.lower_hull_points());
  j["upper_hull_points"] = points_json(detail.upper_hull_points());
  if (detail.has_regression()) {
    const v1::Regression& r = detail.regression();
    j["regression"] = {{"origin_ns", r.origin_ns()},
                       {"exchanges", r.exchanges()},
                       {"used_exchanges", r.used_exchanges()},
                       {"confidence", r.confidence()},
                       {"drift", r.drift().exact()},
                       {"offset_at_origin", r.offset_at_origin().exact()},
                       {"E_r", r.residual_stddev().exact()},
                       {"E_ij", r.e_ij().exact()},
                       {"E_D0", r.e_d0().exact()}};
  }
  if (detail.has_matching()) {
    j["matching"] = matching_json(detail.matching(), false, options.probe_ports_size() > 0);
  }
  if (link.message_kinds_size() > 0) {
    ordered_json kinds = ordered_json::array();
    for (const v1::KindMessages& k : link.message_kinds()) {
      kinds.push_back({{"kind", k.kind()}, {"name", readable_json(k.name())}, {"matches", k.matches()}});
    }
    j["message_kinds"] = std::move(kinds);
  }
  j["evidence"] = evidence_json(link, options);
  if (link.signals_size() > 0) {
    // What the link rests on beyond messages (docs/signals.md).
    ordered_json signals = ordered_json::array();
    for (const v1::LinkSignal& s : link.signals()) {
      signals.push_back({{"name", readable_json(s.name())},
                         {"pairs", s.pairs()},
                         {"unpaired_a", s.unpaired_a()},
                         {"unpaired_b", s.unpaired_b()},
                         {"ambiguous", s.ambiguous()},
                         {"not_aligned", s.not_aligned()},
                         {"cuts", s.cuts()},
                         {"aligned_by", s.aligned_by()},
                         {"pair_jitter_ns", s.pair_jitter_ns()}});
    }
    j["evidence"]["signals"] = std::move(signals);
  }
  ordered_json segments = ordered_json::array();
  for (const v1::LinkSegment& segment : detail.segments()) segments.push_back(link_segment_json(segment));
  j["segments"] = std::move(segments);
  if (detail.clock_map_size() > 0) {
    ordered_json knots = ordered_json::array();
    for (const v1::ClockKnot& k : detail.clock_map()) {
      knots.push_back({{"x_ns", k.x_ns()}, {"y", k.y().exact()}, {"bound_ns", k.bound_ns()}});
    }
    j["clock_map"] = std::move(knots);
  }
  if (detail.breaches_size() > 0) {
    ordered_json breaches = ordered_json::array();
    for (const v1::Breach& b : detail.breaches()) {
      breaches.push_back({{"from_ns", b.from_ns()}, {"to_ns", b.to_ns()}, {"needed_ppm", b.needed_ppm()}});
    }
    j["breaches"] = std::move(breaches);
  }
  return j;
}

}  // namespace

std::string to_json(const v1::Snapshot& s, int indent) {
  ordered_json root;
  root["format"] = "tracesync-sync/1";
  root["complete"] = s.complete();
  const v1::EngineOptions& o = s.options();
  ordered_json options = {{"algorithm", o.algorithm()}, {"network", o.network()}};
  if (o.algorithm().starts_with("window")) options["window_ns"] = o.window_ns();
  if (o.algorithm() == "linreg") options["confidence"] = o.confidence();
  options["clock_model"] = o.clock_model();
  options["clock_stability_ppm"] = o.clock_stability_ppm();
  if (o.has_link_budget()) options["link_budget"] = o.link_budget();  // s38, beside the streamed writer
  put_names(options, "forced_references", o.forced_references(), o.forced_references_raw());
  if (!o.match_key().empty()) {
    options["match_key"] = o.match_key();
    options["match_horizon_ns"] = o.match_horizon_ns();
    options["jobs"] = o.jobs();
    put_name(options, "reading_program", exact_name(o.reading_program(), o.reading_program_raw()));
    if (!o.in_process_reason().empty()) options["in_process_reason"] = readable_json(o.in_process_reason());
    options["open_timeout_ns"] = o.open_timeout_ns();
  }
  if (o.message_kinds_size() > 0) {
    ordered_json kinds = ordered_json::array();
    for (const v1::MessageKind& k : o.message_kinds()) {
      ordered_json key = ordered_json::array();
      for (const std::string& field : k.key()) key.push_back(readable_json(field));
      kinds.push_back({{"kind", k.kind()},
                       {"name", readable_json(k.name())},
                       {"send_event", readable_json(k.send_event())},
                       {"receive_event", readable_json(k.receive_event())},
                       {"key", std::move(key)},
                       {"spec", readable_json(k.spec())}});
    }
    options["message_kinds"] = std::move(kinds);
  }
  if (o.probe_ports_size() > 0) {
    options["probe_ports"] = ordered_json::array();
    for (const uint32_t port : o.probe_ports()) options["probe_ports"].push_back(port);
  }
  root["options"] = options;

  ordered_json traces = ordered_json::array();
  for (const v1::Trace& t : s.traces()) {
    ordered_json j;
    put_name(j, "name", exact_name(t.name(), t.name_raw()));
    if (!t.path().empty()) put_name(j, "path", exact_name(t.path(), t.path_raw()));
    put_name(j, "hostname", exact_name(t.hostname(), t.hostname_raw()));
    put_name(j, "domain", exact_name(t.domain(), t.domain_raw()));
    j["island"] = t.island();
    j["reference"] = t.reference();
    j["synchronized"] = t.synchronized();
    if (!t.synchronized()) j["unsynchronized_reason"] = readable_json(t.unsynchronized_reason());
    j["slope"] = t.slope().exact();
    j["offset"] = t.offset().exact();
    // Outside the main island the figures are relative to nothing the rest
    // shares: null, so that no script takes them for a synchronization.
    const auto figure = [&](double value) { return t.synchronized() ? ordered_json(value) : ordered_json(nullptr); };
    j["uncertainty_ns"] = figure(t.uncertainty_ns());
    j["drift_ppm"] = figure(t.drift_ppm());
    j["shift_ns"] = figure(t.shift_ns());
    j["first_ns"] = t.first_ns();
    j["last_ns"] = t.last_ns();
    ordered_json segments = ordered_json::array();
    for (const v1::Segment& segment : t.segments()) segments.push_back(trace_segment_json(segment));
    j["segments"] = std::move(segments);
    if (!t.path().empty()) j["events"] = t.events();
    if (t.has_network_events()) j["network_events"] = t.network_events();
    if (!t.reader().empty()) {
      j["reader"] = t.reader();
      j["reader_reason"] = readable_json(t.reader_reason());
    }
    traces.push_back(std::move(j));
  }
  root["traces"] = std::move(traces);

  ordered_json links = ordered_json::array();
  for (const v1::Link& link : s.links()) links.push_back(link_json(link, s.options()));
  root["links"] = std::move(links);

  ordered_json islands = ordered_json::array();
  for (const v1::Island& island : s.islands()) {
    ordered_json j = {{"id", island.id()}};
    put_name(j, "reference", exact_name(island.reference(), island.reference_raw()));
    j["forced"] = island.forced();
    put_names(j, "domains", island.domains(), island.domains_raw());
    islands.push_back(std::move(j));
  }
  root["islands"] = std::move(islands);
  root["messages"] = s.messages();
  const bool app_kinds = o.message_kinds_size() > 0;
  const bool probe_ports = o.probe_ports_size() > 0;
  if (s.has_matching()) root["matching"] = matching_json(s.matching(), app_kinds, probe_ports);
  if (app_kinds) {
    ordered_json kinds = ordered_json::array();
    for (const v1::KindMatching& k : s.matching_by_kind()) {
      kinds.push_back({{"kind", k.kind()}, {"name", readable_json(k.name())}, {"matching", matching_json(k.matching(), true, probe_ports && k.kind() == 0)}});
    }
    root["matching_by_kind"] = std::move(kinds);
  }

  ordered_json problems = ordered_json::array();
  for (const v1::Problem& p : s.problems()) {
    ordered_json j;
    put_name(j, "source", exact_name(p.source(), p.source_raw()));
    if (p.line() != 0) j["line"] = p.line();
    j["message"] = readable_json(p.message());
    j["skipped"] = p.skipped();
    problems.push_back(std::move(j));
  }
  root["problems"] = std::move(problems);
  return root.dump(indent) + "\n";
}

}  // namespace tracesync::snapshot::reference
