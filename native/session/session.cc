// SPDX-License-Identifier: EPL-2.0
#include "session/session.h"

#include <algorithm>
#include <limits>
#include <set>

#include "hull/clock_stability.h"
#include "hull/piecewise_hull_estimator.h"
#include "hull/quality.h"
#include "network/best_bound_paths.h"
#include "session/breach_problems.h"
#include "session/contradiction_problems.h"
#include "session/domain_transforms.h"
#include "session/human_figures.h"
#include "session/link_report.h"
#include "session/link_transform.h"
#include "session/main_island.h"
#include "session/matching_report.h"
#include "snapshot/decimal.h"
#include "snapshot/exact_names.h"
#include "snapshot/utf8.h"

namespace tracesync::session {
namespace {

bool same_pieces(const std::vector<network::ReportedPiece>& x, const std::vector<network::ReportedPiece>& y) {
  return std::equal(x.begin(), x.end(), y.begin(), y.end(), [](const auto& p, const auto& q) {
    return p.first == q.first && p.last == q.last && p.exact == q.exact &&
           p.bound_first == q.bound_first && p.bound_last == q.bound_last;
  });
}

v1::Segment segment_report(const network::ReportedPiece& piece) {
  v1::Segment out;
  out.set_first_ns(piece.first);
  out.set_last_ns(piece.last);
  *out.mutable_slope() = snapshot::rounded_decimal_message(piece.exact.slope);
  *out.mutable_offset() = snapshot::rounded_decimal_message(piece.exact.offset);
  out.set_uncertainty_first_ns(model::to_double(piece.bound_first));
  out.set_uncertainty_last_ns(model::to_double(piece.bound_last));
  return out;
}

// Adds the link's latency proof to its detail: after synchronization
// through the transforms of its ends when they share a reference.
void add_latency_proof(v1::Link& out, const Link& link, const network::BestBoundPaths& paths,
                       const std::vector<network::PiecewiseTransform>& transforms) {
  const bool one_island = paths.reference[link.a] == paths.reference[link.b];
  v1::LinkDetail detail;
  detail.ParseFromString(out.detail());
  *detail.mutable_proof() =
      one_island ? link.evidence.proof(&transforms[link.a], &transforms[link.b]) : link.evidence.proof(nullptr, nullptr);
  detail.SerializeToString(out.mutable_detail());
}

}  // namespace

Session::Session(SessionOptions options)
    : options_(std::move(options)),
      links_(options_.estimator, options_.make_estimator),
      network_(network::make_network(options_.network)) {}

DomainIndex Session::register_domain(const std::string& id, const std::string& hostname) {
  bool created = false;
  const DomainIndex d = domains_.intern(id, hostname, &created);
  if (created) {
    const network::Vertex v = network_->add_vertex(id);
    (void)v;  // vertices and domains are numbered alike
    for (const std::string& name : options_.forced_references) {
      if (names_domain(name, d)) network_->force_reference(d);
    }
  }
  return d;
}

bool Session::names_domain(const std::string& name, DomainIndex domain) const {
  // A name that is not UTF-8 may also be given as the readable text the
  // reports show (Java cannot even hold its bytes).
  const auto names = [&](const std::string& bytes) {
    return bytes == name || (!snapshot::is_utf8(bytes) && snapshot::readable_text(bytes) == name);
  };
  if (names(domains_[domain].id) || names(domains_[domain].hostname)) return true;
  return std::any_of(traces_.begin(), traces_.end(), [&](const TraceRecord& t) {
    return t.domain == domain && (names(t.description.name) || names(t.description.path));
  });
}

std::vector<std::string> Session::unresolved_references() const {
  std::vector<std::string> out;
  for (const std::string& name : options_.forced_references) {
    bool found = false;
    for (DomainIndex d = 0; d < domains_.size() && !found; ++d) found = names_domain(name, d);
    if (!found) out.push_back(name);
  }
  return out;
}

TraceIndex Session::add_trace(const TraceDescription& trace) {
  ++revision_;
  const auto index = static_cast<TraceIndex>(traces_.size());
  traces_.push_back(TraceRecord{trace, 0, std::nullopt, std::nullopt, 0, std::nullopt, {}, {}});
  // Register the domain after the trace, so a --reference naming the trace resolves.
  traces_.back().domain = register_domain(trace.domain, trace.hostname);
  const DomainIndex d = traces_.back().domain;
  for (const std::string& name : options_.forced_references) {
    if (trace.name == name || trace.path == name) network_->force_reference(d);
  }
  return index;
}

TraceIndex Session::add_host(const std::string& name) {
  const auto [it, inserted] = hosts_.try_emplace(name, 0);
  if (inserted) it->second = add_trace({name, "", name, name});
  return it->second;
}

void Session::add_host_message(const std::string& sender, model::Nanoseconds send, const std::string& receiver,
                               model::Nanoseconds receive) {
  add_trace_message(add_host(sender), send, add_host(receiver), receive);
}

void Session::add_trace_message(TraceIndex sender, model::Nanoseconds send, TraceIndex receiver,
                                model::Nanoseconds receive) {
  add_message(traces_[sender].domain, send, traces_[receiver].domain, receive);
}

void Session::add_message(DomainIndex sender, model::Nanoseconds send, DomainIndex receiver,
                          model::Nanoseconds receive) {
  ++revision_;
  if (sender == receiver) {
    ++same_domain_messages_;  // DESIGN.md: ignored
    return;
  }
  ++messages_;
  domains_[sender].observe(send);
  domains_[receiver].observe(receive);
  bool sender_is_a = false;
  Link& link = links_.between(domains_, sender, receiver, &sender_is_a);
  const hull::LinkMessage message =
      sender_is_a ? hull::LinkMessage::a_to_b(send, receive) : hull::LinkMessage::b_to_a(send, receive);
  add_link_point(link, message);
}

void Session::add_link_point(Link& link, const hull::LinkMessage& message) {
  // The network learns of the change at the next snapshot: estimators like
  // linreg change with every message, and only snapshots read the network.
  link.estimator->add(message);
  // Matching promises nothing beyond the horizon: behind the link's newest
  // message less the horizon, no message is still to come (late if one is).
  if (match_horizon_ > 0) {
    link.newest_x = link.newest_x ? std::max(*link.newest_x, message.point.x) : message.point.x;
    // (Saturated: a trace's times may sit at the bottom of the 64 bits.)
    model::Nanoseconds frontier;
    if (__builtin_sub_overflow(*link.newest_x, match_horizon_, &frontier)) {
      frontier = std::numeric_limits<model::Nanoseconds>::min();
    }
    link.estimator->settle(frontier);
  }
  if (options_.keep_latency_evidence) {
    if (options_.latency_evidence_on_disk && link.evidence.messages() == 0) link.evidence.keep_on_disk();
    link.evidence.add(message);
  }
  ++link.version;
  if (history_) {
    const hull::TimeSpan span = report_span(domains_[link.a]);
    std::vector<hull::LinkSegment> segments;
    if (segment_history_) segments = link.estimator->segments(span);
    v1::Link state = link_report(domains_, link, link.estimator->estimate(),
                                 link.estimator->offset_uncertainty(span), false, false,
                                 segment_history_ ? &segments : nullptr);
    snapshot::carry_exact_names(state);
    history_(messages_, state);
    if (segment_history_ && segments.size() != link.history_segments) {
      std::vector<v1::LinkSegment> reported;
      for (const hull::LinkSegment& segment : segments) reported.push_back(link_segment_report(segment));
      segment_history_(messages_, state, link.history_segments, reported);
      link.history_segments = static_cast<uint32_t>(segments.size());
    }
  }
}

void Session::add_signal_pair(TraceIndex on_one, model::Nanoseconds one, TraceIndex on_other, model::Nanoseconds other,
                              model::Nanoseconds pair_jitter) {
  const DomainIndex d_one = traces_[on_one].domain, d_other = traces_[on_other].domain;
  if (d_one == d_other) return;
  ++revision_;
  domains_[d_one].observe(one);
  domains_[d_other].observe(other);
  bool one_is_a = false;
  Link& link = links_.between(domains_, d_one, d_other, &one_is_a);
  const model::Nanoseconds x = one_is_a ? one : other;  // on a's clock
  const model::Nanoseconds y = one_is_a ? other : one;  // on b's
  // b's clock at a's record is within pair_jitter of y: the clock line
  // passes on or below (x, y + j) and on or above (x, y - j).
  add_link_point(link, {hull::Direction::kAtoB, {x, y + pair_jitter}});
  add_link_point(link, {hull::Direction::kBtoA, {x, y - pair_jitter}});
}

std::optional<std::pair<model::Nanoseconds, model::Nanoseconds>> Session::message_offset(TraceIndex one,
                                                                                         TraceIndex other,
                                                                                         model::Nanoseconds at) {
  Link* link = links_.find(traces_[one].domain, traces_[other].domain);
  if (link == nullptr) return std::nullopt;
  const hull::LinkEstimate e = link->estimator->estimate();
  if (e.quality != hull::Quality::kAccurate || !(e.alpha > 0)) return std::nullopt;
  const bool one_is_a = link->a == traces_[one].domain;
  // On a's clock: at itself, or where b's `at` maps to.
  const model::Quad x = one_is_a ? model::Quad(at) : (model::Quad(at) - e.beta) / e.alpha;
  const auto on_a = static_cast<model::Nanoseconds>(model::to_double(x));
  const auto doubt = link->estimator->offset_uncertainty({on_a, on_a});
  if (!doubt || !(*doubt < model::Quad(1e15))) return std::nullopt;
  const model::Quad y = e.alpha * x + e.beta;
  const model::Quad offset = one_is_a ? y - x : x - y;
  // On b's clock the doubt is *doubt; on a's, *doubt / alpha: allow both, and a nanosecond of rounding.
  const model::Quad allowance = std::max(*doubt, *doubt / e.alpha) + model::Quad(2);
  return std::pair(static_cast<model::Nanoseconds>(model::to_double(offset)),
                   static_cast<model::Nanoseconds>(model::to_double(allowance)) + 1);
}

void Session::add_link_signal(TraceIndex one, TraceIndex other, v1::LinkSignal signal) {
  const DomainIndex d_one = traces_[one].domain, d_other = traces_[other].domain;
  if (d_one == d_other) return;
  ++revision_;
  bool one_is_a = false;
  Link& link = links_.between(domains_, d_one, d_other, &one_is_a);
  if (!one_is_a) {
    const uint64_t unpaired_a = signal.unpaired_a();
    signal.set_unpaired_a(signal.unpaired_b());
    signal.set_unpaired_b(unpaired_a);
  }
  // A signal told again (`tracesync live`, result after result) replaces its entry.
  const auto same = std::find_if(link.signals.begin(), link.signals.end(),
                                 [&](const v1::LinkSignal& s) { return s.name() == signal.name(); });
  if (same != link.signals.end()) {
    *same = std::move(signal);
  } else {
    link.signals.push_back(std::move(signal));
  }
  ++link.version;
}

const Link::Computed& Session::refresh(Link& link) {
  const hull::TimeSpan span = report_span(domains_[link.a]);
  if (link.computed && link.computed->version == link.version && link.computed->span == span) return *link.computed;
  // (Computed{}: clang 14 cannot default-construct a nested class with
  // member initializers through optional::emplace().)
  Link::Computed& c = link.computed.emplace(Link::Computed{});
  c.version = link.version;
  c.span = span;
  c.estimate = link.estimator->estimate();
  c.uncertainty = link.estimator->offset_uncertainty(span);
  c.segments = link.estimator->segments(span);
  c.b_onto_a.reset();
  c.clock_map.reset();
  // A clock cannot run backwards or stop: an estimate with alpha <= 0 (only
  // absurd input gives one) relates nothing, whatever its quality.
  const hull::LinkEstimate& e = c.estimate;
  const bool sane = e.alpha > 0 && model::to_double(e.alpha) < 1e300;
  if (!hull::usable(e.quality) || !sane) {
    if (link.in_network) network_->remove_edge(link.a, link.b);
    link.in_network = false;
  } else {
    std::optional<hull::ClockMap> map = link.estimator->clock_map(span);
    c.b_onto_a = link_b_onto_a(e, map, span);
    if (uses_clock_map(e, map)) c.clock_map = std::move(map);
    c.weight = link_weight(*c.b_onto_a);
    network_->set_edge(link.a, link.b,
                       {model::to_double(e.accuracy.value_or(0)), e.b_onto_a(), model::to_double(c.uncertainty.value_or(0))});
    link.in_network = true;
  }
  return c;
}

void Session::finish() {
  links_.for_each_mutable([&](Link& link) {
    if (link.estimator->finish()) {
      ++revision_;
      ++link.version;
    }
  });
}

void Session::set_trace_extent(TraceIndex trace, model::Nanoseconds first, model::Nanoseconds last, uint64_t events) {
  ++revision_;
  TraceRecord& t = traces_[trace];
  t.first = first;
  t.last = last;
  t.events = events;
  domains_[t.domain].observe(first);
  domains_[t.domain].observe(last);
}

void Session::set_trace_network_events(TraceIndex trace, uint64_t network_events) {
  ++revision_;
  traces_[trace].network_events = network_events;
}

void Session::set_trace_reader(TraceIndex trace, std::string reader, std::string why) {
  ++revision_;
  traces_[trace].reader = std::move(reader);
  traces_[trace].reader_reason = std::move(why);
}

void Session::add_link_matching(const std::string& one, const std::string& other,
                                const match::MatchStatistics& statistics) {
  ++revision_;
  const auto x = domains_.find(one);
  const auto y = domains_.find(other);
  if (!x || !y || *x == *y) return;
  bool a_first = false;
  Link& link = links_.between(domains_, *x, *y, &a_first);
  link.matching += statistics;  // a link read in several runs adds up
  link.has_matching = true;
  ++link.version;
}

void Session::add_matching_totals(const match::MatchStatistics& totals) {
  ++revision_;
  matching_totals_ += totals;
  has_matching_ = true;
}

void Session::reset_matching() {
  ++revision_;
  matching_totals_ = {};
  has_matching_ = false;
  kind_totals_.clear();
  links_.for_each_mutable([](Link& link) {
    if (link.has_matching) ++link.version;
    link.matching = {};
    link.has_matching = false;
    link.matches_by_kind.clear();
  });
}

void Session::set_message_kinds(std::vector<v1::MessageKind> kinds) {
  ++revision_;
  message_kinds_ = std::move(kinds);
}

void Session::set_probe_ports(std::vector<uint16_t> ports) {
  ++revision_;
  probe_ports_ = std::move(ports);
}

void Session::add_kind_matching(match::MessageKind kind, const match::MatchStatistics& statistics) {
  ++revision_;
  if (kind_totals_.size() <= kind) kind_totals_.resize(std::size_t{kind} + 1);
  kind_totals_[kind] += statistics;
}

void Session::add_link_kind_matches(const std::string& one, const std::string& other, match::MessageKind kind,
                                    uint64_t matches) {
  ++revision_;
  const auto x = domains_.find(one);
  const auto y = domains_.find(other);
  if (!x || !y || *x == *y || matches == 0) return;
  bool a_first = false;
  // Not in the link's computed report (that depends on its messages only):
  // snapshot() adds it.
  links_.between(domains_, *x, *y, &a_first).matches_by_kind[kind] += matches;
}

std::string Session::kind_name(match::MessageKind kind) const {
  if (kind == match::kTcpKind) return "tcp";
  if (kind <= message_kinds_.size()) return message_kinds_[kind - 1u].name();
  return "kind " + std::to_string(kind);
}

void Session::set_matching_options(const std::string& key, model::Nanoseconds horizon, unsigned jobs) {
  ++revision_;
  match_key_ = key;
  match_horizon_ = horizon;
  jobs_ = jobs;
}

void Session::set_reading_program(std::string program, model::Nanoseconds open_timeout,
                                  std::string in_process_reason) {
  ++revision_;
  reading_program_ = std::move(program);
  in_process_reason_ = std::move(in_process_reason);
  open_timeout_ = open_timeout;
}

void Session::set_domain_overrides(std::map<std::string, std::string> overrides) {
  ++revision_;
  domain_overrides_ = std::move(overrides);
}

void Session::add_problem(v1::Problem problem) {
  ++revision_;
  problems_.push_back(std::move(problem));
}

model::Quad Session::growth() const {
  // Beyond a map's span no message checks the stability assumption, so a
  // continued map's bound grows by the rate limit (PiecewiseTransform), as a
  // link's own map does beyond its ends; the same in both models, so linear
  // clocks give the same report whichever is chosen. --clock-stability 0
  // gives the single line's own bounds (the linear premise: no growth).
  if (options_.estimator.clock_stability_ppm == 0) return 0;
  return static_cast<model::Quad>(hull::ClockStability::kMaxRateErrorPpm) / 1'000'000;
}

v1::Snapshot Session::snapshot() { return make_snapshot(false); }

v1::Snapshot Session::last_snapshot() { return make_snapshot(true); }

v1::Snapshot Session::make_snapshot(bool last_one) {
  // Bring the network up to date with every link that changed, or whose
  // span grew (uncertainties grow with the spans they cover). No message
  // comes after the last one: each estimator may finish in place what it
  // otherwise finishes on a copy to answer.
  links_.for_each_mutable([&](Link& link) {
    if (last_one) link.estimator->end_input();
    refresh(link);
  });

  v1::Snapshot s;
  s.set_format_version(1);
  s.set_messages(messages_);
  s.set_complete(problems_.empty());

  v1::EngineOptions* o = s.mutable_options();
  o->set_algorithm(options_.estimator.algorithm);
  o->set_window_ns(options_.estimator.window);
  o->set_confidence(options_.estimator.confidence);
  o->set_network(std::string(network::to_string(options_.network)));
  for (const auto& r : options_.forced_references) o->add_forced_references(r);
  o->set_match_key(match_key_);
  for (const v1::MessageKind& kind : message_kinds_) *o->add_message_kinds() = kind;
  o->set_match_horizon_ns(match_horizon_);
  o->set_jobs(jobs_);
  for (const uint16_t port : probe_ports_) o->add_probe_ports(port);
  o->set_reading_program(reading_program_);
  o->set_in_process_reason(in_process_reason_);
  o->set_open_timeout_ns(open_timeout_);
  o->set_clock_model(std::string(hull::to_string(options_.estimator.clock_model)));
  o->set_clock_stability_ppm(options_.estimator.clock_stability_ppm);
  if (options_.estimator.algorithm == "hull" && options_.estimator.clock_model == hull::ClockModel::kPiecewise &&
      !options_.make_estimator) {
    o->set_link_budget(options_.estimator.link_budget.value_or(hull::PiecewiseHullEstimator::kKeepAtMost));
  }
  for (const auto& [trace, domain] : domain_overrides_) (*o->mutable_domain_overrides())[trace] = domain;

  // Every domain's best-bound path to its island's reference.
  std::vector<std::string> ids;
  std::vector<bool> forced;
  for (DomainIndex d = 0; d < domains_.size(); ++d) {
    ids.push_back(domains_[d].id);
    forced.push_back(std::any_of(options_.forced_references.begin(), options_.forced_references.end(),
                                 [&](const std::string& name) { return names_domain(name, d); }));
  }
  std::vector<network::BoundEdge> edges;
  links_.for_each_mutable([&](Link& link) {
    if (link.in_network) edges.push_back({link.a, link.b, link.computed->weight});
  });
  const network::BestBoundPaths paths = network::best_bound_paths(ids, edges, forced);
  const model::Quad growth = this->growth();
  const std::vector<network::PiecewiseTransform> transforms =
      compose_domain_transforms(domains_, links_, paths, growth);

  // Islands, numbered by the smallest domain id they hold.
  std::map<network::Vertex, std::set<std::string>> by_reference;
  for (DomainIndex d = 0; d < domains_.size(); ++d) by_reference[paths.reference[d]].insert(domains_[d].id);
  std::vector<std::pair<std::string, network::Vertex>> order;
  for (const auto& [reference, ids_of_island] : by_reference) order.push_back({*ids_of_island.begin(), reference});
  std::sort(order.begin(), order.end());
  std::map<network::Vertex, uint32_t> island_of_reference;
  for (const auto& [smallest, reference] : order) {
    const auto id = static_cast<uint32_t>(island_of_reference.size());
    island_of_reference[reference] = id;
    v1::Island* island = s.add_islands();
    island->set_id(id);
    island->set_reference(domains_[reference].id);
    island->set_forced(forced[reference]);
    for (const std::string& id_text : by_reference[reference]) island->add_domains(id_text);
  }

  std::vector<TraceIndex> traces(traces_.size());
  for (TraceIndex i = 0; i < traces_.size(); ++i) traces[i] = i;
  std::sort(traces.begin(), traces.end(), [&](TraceIndex x, TraceIndex y) {
    return traces_[x].description.name < traces_[y].description.name;
  });
  if (trace_reports_.size() < traces_.size()) trace_reports_.resize(traces_.size());
  for (const TraceIndex index : traces) {
    const TraceRecord* t = &traces_[index];
    v1::Trace* out = s.add_traces();
    out->set_name(t->description.name);
    out->set_path(t->description.path);
    out->set_hostname(domains_[t->domain].hostname);
    out->set_domain(domains_[t->domain].id);
    const network::Vertex reference = paths.reference[t->domain];
    out->set_island(island_of_reference.at(reference));
    out->set_reference(reference == t->domain);
    const Domain& d = domains_[t->domain];
    const model::Nanoseconds first = t->first.value_or(d.first.value_or(0));
    const model::Nanoseconds last = std::max(first, t->last.value_or(d.last.value_or(0)));
    std::vector<network::ReportedPiece> pieces = transforms[t->domain].reported(first, last, growth);
    std::optional<TraceTransformReport>& cached = trace_reports_[index];
    if (!cached || !same_pieces(cached->pieces, pieces)) {
      const network::SingleLine line = network::best_single_line(pieces);
      cached = TraceTransformReport{std::move(pieces),
                                    line.exact ? snapshot::rounded_decimal_message(line.exact->slope)
                                               : snapshot::to_decimal_message(line.map.slope),
                                    line.exact ? snapshot::rounded_decimal_message(line.exact->offset)
                                               : snapshot::to_decimal_message(line.map.offset),
                                    model::to_double(line.bound), {}};
      for (const network::ReportedPiece& p : cached->pieces) cached->segments.push_back(segment_report(p));
    }
    *out->mutable_slope() = cached->slope;
    *out->mutable_offset() = cached->offset;
    out->set_uncertainty_ns(cached->uncertainty_ns);
    if (last_one) {
      // A day's bending trace has a segment per knot of its path's maps.
      out->mutable_segments()->Reserve(static_cast<int>(cached->segments.size()));
      for (v1::Segment& segment : cached->segments) *out->add_segments() = std::move(segment);
      cached.reset();
    } else {
      for (const v1::Segment& segment : cached->segments) *out->add_segments() = segment;
    }
    out->set_first_ns(first);
    out->set_last_ns(last);
    out->set_events(t->events);
    if (t->network_events) out->set_network_events(*t->network_events);
    out->set_reader(t->reader);
    out->set_reader_reason(t->reader_reason);
  }

  // Links made APPROXIMATE or FAIL by contradicting messages name them.
  std::vector<v1::Problem> link_problems;
  const auto link_end = [&](DomainIndex d) {
    LinkEnd end{domains_[d].hostname, {}};
    for (const TraceRecord& t : traces_) {
      if (t.domain == d) end.traces.push_back(t.description.path.empty() ? t.description.name : t.description.path);
    }
    std::sort(end.traces.begin(), end.traces.end());  // whatever order the traces opened in
    return end;
  };
  links_.for_each_in_order(domains_, [&](Link& link) {
    Link::Computed& c = *link.computed;
    const bool in_tree = link.in_network && paths.on_paths(link.a, link.b);
    if (!c.report || c.report_in_tree != in_tree) {
      c.report = link_report(domains_, link, c.estimate, c.uncertainty, in_tree, true, &c.segments,
                             c.clock_map ? &*c.clock_map : nullptr);
      c.report_in_tree = in_tree;
    }
    v1::Link* out = s.add_links();
    if (last_one) {
      *out = std::move(*c.report);  // its detail holds the link's whole map
      c.report.reset();
    } else {
      *out = *c.report;
    }
    for (const v1::LinkSignal& signal : link.signals) *out->add_signals() = signal;
    if (!message_kinds_.empty()) {
      for (const auto& [kind, matches] : link.matches_by_kind) {
        v1::KindMessages* k = out->add_message_kinds();
        k->set_kind(kind);
        k->set_name(kind_name(kind));
        k->set_matches(matches);
      }
    }
    if (options_.keep_latency_evidence) add_latency_proof(*out, link, paths, transforms);
    if (out->quality() == v1::APPROXIMATE || out->quality() == v1::FAIL) {
      for (v1::Problem& p : contradiction_problems(v1::Quality_Name(out->quality()), link_end(link.a), link_end(link.b),
                                                   link.estimator->contradictions())) {
        link_problems.push_back(std::move(p));
      }
      // A FAIL link is not used: its contradictions above say why.
      if (out->quality() == v1::APPROXIMATE) {
        for (v1::Problem& p : breach_problems(link_end(link.a), link_end(link.b),
                                              options_.estimator.clock_stability_ppm, link.estimator->breaches())) {
          link_problems.push_back(std::move(p));
        }
      }
    }
  });

  v1::MatchingStatistics totals = matching_report(matching_totals_);
  if (!has_matching_) totals.set_matches(messages_);  // a match stream: every message was matched
  totals.set_same_domain(totals.same_domain() + same_domain_messages_);
  *s.mutable_matching() = totals;
  if (!message_kinds_.empty()) {
    for (std::size_t kind = 0; kind <= message_kinds_.size(); ++kind) {
      v1::KindMatching* k = s.add_matching_by_kind();
      k->set_kind(static_cast<uint32_t>(kind));
      k->set_name(kind_name(static_cast<match::MessageKind>(kind)));
      *k->mutable_matching() =
          matching_report(kind < kind_totals_.size() ? kind_totals_[kind] : match::MatchStatistics{});
    }
  }
  for (const v1::Problem& p : problems_) *s.add_problems() = p;
  for (v1::Problem& p : link_problems) *s.add_problems() = std::move(p);
  add_human_figures(s);
  mark_main_island(s);
  // Last: the steps above match names by their bytes.
  snapshot::carry_exact_names(s);
  return s;
}

}  // namespace tracesync::session
