// SPDX-License-Identifier: EPL-2.0
#include "simulate/truth_check.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <sstream>

#include "model/quad.h"

namespace tracesync::simulate {
namespace {

using Json = nlohmann::json;
using model::Nanoseconds;
using model::Quad;

constexpr std::size_t kLongestSilences = 100;

std::string string_field(const Json& object, const char* key, const std::string& where) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_string()) throw TruthError(where + " has no string \"" + key + "\"");
  return it->get<std::string>();
}

int64_t integer_field(const Json& object, const char* key, const std::string& where) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_number_integer()) throw TruthError(where + " has no integer \"" + key + "\"");
  return it->get<int64_t>();
}

double number_field(const Json& object, const char* key, const std::string& where) {
  const auto it = object.find(key);
  if (it == object.end() || !it->is_number()) throw TruthError(where + " has no number \"" + key + "\"");
  return it->get<double>();
}

model::LinearTransform line_field(const Json& object, const std::string& where) {
  const auto slope = model::parse_decimal(string_field(object, "slope", where));
  const auto offset = model::parse_decimal(string_field(object, "offset", where));
  if (!slope || !offset) throw TruthError(where + ": \"slope\" or \"offset\" is not a decimal");
  return {*slope, *offset};
}

// The reference domain of every island: "islands": [{"id", "reference", ...}].
std::map<int64_t, std::string> island_references(const Json& root, const std::string& source) {
  std::map<int64_t, std::string> out;
  const auto islands = root.find("islands");
  if (islands == root.end()) return out;
  if (!islands->is_array()) throw TruthError(source + ": \"islands\" is not a list");
  for (std::size_t i = 0; i < islands->size(); ++i) {
    const std::string where = source + ": island " + std::to_string(i);
    const Json& island = (*islands)[i];
    if (!island.is_object()) throw TruthError(where + " is not an object");
    out[integer_field(island, "id", where)] = string_field(island, "reference", where);
  }
  return out;
}

// The tree's links ("in_tree"), the breaches each lists and its traffic; a
// report without links, breaches or hull points gives none.
struct TreeLink {
  std::vector<ReportBreach> breaches;
  std::optional<ReportTraffic> traffic;
};

struct TreeLinks {
  std::map<std::string, std::vector<std::string>> neighbours;
  std::map<std::pair<std::string, std::string>, TreeLink> links;  // by (a, b)
};

// Where both directions of a link have messages: from the later of the two
// directions' first messages to the earlier of their last ones, on a's clock.
// The report's hull points say it: the first and the last message of a
// direction are vertices of its hull. None when the report has no points.
std::optional<ReportTraffic> traffic_of(const Json& link, const std::string& a, const std::string& where) {
  std::optional<std::pair<Nanoseconds, Nanoseconds>> directions[2];
  const char* keys[2] = {"lower_hull_points", "upper_hull_points"};
  for (int d = 0; d < 2; ++d) {
    const auto points = link.find(keys[d]);
    if (points == link.end()) return std::nullopt;
    if (!points->is_array()) throw TruthError(where + ": \"" + keys[d] + "\" is not a list");
    for (const Json& p : *points) {
      if (!p.is_object()) throw TruthError(where + ": a point of \"" + keys[d] + "\" is not an object");
      const Nanoseconds x = integer_field(p, "x", where + " " + keys[d]);
      directions[d] = directions[d] ? std::pair{std::min(directions[d]->first, x), std::max(directions[d]->second, x)}
                                    : std::pair{x, x};
    }
    if (!directions[d]) return std::nullopt;
  }
  return ReportTraffic{a, std::max(directions[0]->first, directions[1]->first),
                       std::min(directions[0]->second, directions[1]->second)};
}

TreeLinks tree_links(const Json& root, const std::string& source) {
  TreeLinks out;
  const auto links = root.find("links");
  if (links == root.end() || !links->is_array()) return out;
  for (std::size_t i = 0; i < links->size(); ++i) {
    const std::string where = source + ": link " + std::to_string(i);
    const Json& l = (*links)[i];
    if (!l.is_object() || !l.contains("in_tree") || !l["in_tree"].is_boolean() || !l["in_tree"].get<bool>()) continue;
    const std::string a = string_field(l, "a", where);
    const std::string b = string_field(l, "b", where);
    out.neighbours[a].push_back(b);
    out.neighbours[b].push_back(a);
    TreeLink& link = out.links[{a, b}];
    link.traffic = traffic_of(l, a, where);
    const auto breaches = l.find("breaches");
    if (breaches == l.end()) continue;
    if (!breaches->is_array()) throw TruthError(where + ": \"breaches\" is not a list");
    for (const Json& breach : *breaches) {
      link.breaches.push_back(
          {a, integer_field(breach, "from_ns", where + " breach"), integer_field(breach, "to_ns", where + " breach")});
    }
  }
  return out;
}

// The tree's links on the path from `domain` to `reference`.
std::vector<const TreeLink*> links_on_path(const TreeLinks& tree, const std::string& domain,
                                           const std::string& reference) {
  std::map<std::string, std::string> parent{{reference, reference}};
  std::vector<std::string> queue{reference};
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const auto n = tree.neighbours.find(queue[i]);
    if (n == tree.neighbours.end()) continue;
    for (const std::string& next : n->second) {
      if (parent.emplace(next, queue[i]).second) queue.push_back(next);
    }
  }
  std::vector<const TreeLink*> out;
  if (!parent.count(domain)) return out;
  for (std::string d = domain; d != reference; d = parent.at(d)) {
    const std::string& up = parent.at(d);
    for (const auto& key : {std::pair{d, up}, std::pair{up, d}}) {
      const auto found = tree.links.find(key);
      if (found != tree.links.end()) out.push_back(&found->second);
    }
  }
  return out;
}

ReportTrace parse_trace(const Json& t, const std::string& where, const std::map<int64_t, std::string>& references) {
  if (!t.is_object()) throw TruthError(where + " is not an object");
  ReportTrace trace;
  trace.name = t.contains("hostname") && t["hostname"].is_string() ? t["hostname"].get<std::string>()
                                                                     : string_field(t, "name", where);
  trace.domain = string_field(t, "domain", where);
  if (const auto s = t.find("synchronized"); s != t.end() && s->is_boolean()) trace.synchronized = s->get<bool>();
  if (!trace.synchronized) return trace;
  // The island's reference domain; "reference" of a trace says whether it is it.
  if (const auto r = t.find("reference"); r != t.end() && r->is_string()) {
    trace.reference = r->get<std::string>();
  } else {
    const auto island = references.find(integer_field(t, "island", where));
    if (island == references.end()) throw TruthError(where + ": its \"island\" is not in \"islands\"");
    trace.reference = island->second;
  }
  trace.first_ns = integer_field(t, "first_ns", where);
  trace.last_ns = integer_field(t, "last_ns", where);
  const auto segments = t.find("segments");
  if (segments == t.end()) {
    // A report of before piecewise transforms: one line with one bound.
    const double bound = number_field(t, "uncertainty_ns", where);
    trace.segments.push_back({trace.first_ns, trace.last_ns, line_field(t, where), bound, bound});
    trace.top_level_only = true;
    return trace;
  }
  if (!segments->is_array() || segments->empty()) throw TruthError(where + ": \"segments\" is not a non-empty list");
  for (std::size_t i = 0; i < segments->size(); ++i) {
    const std::string what = where + " segment " + std::to_string(i);
    const Json& s = (*segments)[i];
    if (!s.is_object()) throw TruthError(what + " is not an object");
    ReportSegment segment{integer_field(s, "first_ns", what), integer_field(s, "last_ns", what), line_field(s, what),
                          number_field(s, "uncertainty_first_ns", what), number_field(s, "uncertainty_last_ns", what)};
    if (segment.last_ns < segment.first_ns) throw TruthError(what + " ends before it starts");
    trace.segments.push_back(segment);
  }
  return trace;
}

// The instants of one trace's check, sorted and distinct, inside its span.
std::vector<Nanoseconds> instants_of(const ReportTrace& trace, const TruthHost& host, const TruthHost& reference,
                                     const Truth& truth, const TruthCheckOptions& options) {
  std::vector<Nanoseconds> out;
  const Nanoseconds first = trace.first_ns;
  const Nanoseconds last = trace.last_ns;
  const auto local_of_true = [&](Quad true_time) { return model::round_to_int64(host.clock.local_at(true_time)); };
  // Evenly spread, in quad so that a long span does not lose the ends.
  const std::size_t n = std::max<std::size_t>(options.samples, 2);
  for (std::size_t i = 0; i < n; ++i) {
    const Quad f = static_cast<Quad>(i) / static_cast<Quad>(n - 1);
    out.push_back(model::round_to_int64(static_cast<Quad>(first) + f * static_cast<Quad>(last - first)));
  }
  for (const auto& s : trace.segments) {
    out.push_back(s.first_ns);
    out.push_back(s.last_ns);
  }
  // Where a clock changes rate, and a nanosecond either side.
  for (const TruthHost* h : {&host, &reference}) {
    for (const auto& piece : h->clock.pieces()) {
      const Nanoseconds at = local_of_true(static_cast<Quad>(piece.from_true_ns));
      for (const Nanoseconds t : {at - 1, at, at + 1}) out.push_back(t);
    }
  }
  for (const auto& [begin, end] : truth.gaps) {
    out.push_back(local_of_true(static_cast<Quad>(begin)));
    out.push_back(local_of_true((static_cast<Quad>(begin) + static_cast<Quad>(end)) / 2));
    out.push_back(local_of_true(static_cast<Quad>(end)));
  }
  if (truth.has_messages) {
    std::vector<Nanoseconds> own;
    for (const auto& m : truth.messages) {
      if (m.sender == host.index) own.push_back(m.send_local_ns);
      if (m.receiver == host.index && m.receive_local_ns) own.push_back(*m.receive_local_ns);
    }
    std::sort(own.begin(), own.end());
    std::vector<std::pair<Nanoseconds, Nanoseconds>> silences;  // (length, middle)
    for (std::size_t i = 1; i < own.size(); ++i) {
      silences.emplace_back(own[i] - own[i - 1], own[i - 1] + (own[i] - own[i - 1]) / 2);
    }
    const std::size_t keep = std::min(kLongestSilences, silences.size());
    std::partial_sort(silences.begin(), silences.begin() + static_cast<std::ptrdiff_t>(keep), silences.end(),
                      std::greater<>());
    for (std::size_t i = 0; i < keep; ++i) out.push_back(silences[i].second);
    out.insert(out.end(), own.begin(), own.end());
  }
  std::erase_if(out, [&](Nanoseconds t) { return t < first || t > last; });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The bound of a segment at t, linear between its ends, at any instant.
double bound_between(const ReportSegment& s, Quad t) {
  if (s.last_ns == s.first_ns) return std::max(s.uncertainty_first_ns, s.uncertainty_last_ns);
  const double f = model::to_double((t - static_cast<Quad>(s.first_ns)) / static_cast<Quad>(s.last_ns - s.first_ns));
  return s.uncertainty_first_ns + f * (s.uncertainty_last_ns - s.uncertainty_first_ns);
}

// The largest bound of a trace's segments where every link on its path has
// traffic both ways (ReportTraffic) and no host is silent (outside the
// truth's gaps, [begin, end) of true time). A bound is linear over a
// segment, so the largest is at the ends of a segment's part of a stretch.
double largest_bound_in_traffic(const ReportTrace& trace, const TruthHost& host, const Truth& truth) {
  // The path's traffic, in true time, then on the trace's own clock.
  Quad from = host.clock.true_at(static_cast<Quad>(trace.first_ns));
  Quad to = host.clock.true_at(static_cast<Quad>(trace.last_ns));
  for (const ReportTraffic& t : trace.traffic) {
    const TruthHost* a = truth.host(t.a_domain);
    if (a == nullptr) {
      throw TruthError("trace " + trace.name + ": a link's domain " + t.a_domain + " is not a host of the truth");
    }
    from = std::max(from, a->clock.true_at(static_cast<Quad>(t.first_ns)));
    to = std::min(to, a->clock.true_at(static_cast<Quad>(t.last_ns)));
  }
  std::vector<std::pair<Nanoseconds, Nanoseconds>> gaps = truth.gaps;
  std::sort(gaps.begin(), gaps.end());
  std::vector<std::pair<Quad, Quad>> stretches;
  for (const auto& [begin, end] : gaps) {
    if (static_cast<Quad>(begin) > from) stretches.emplace_back(from, std::min(to, static_cast<Quad>(begin)));
    from = std::max(from, static_cast<Quad>(end));
  }
  stretches.emplace_back(from, to);
  double largest = 0;
  for (const auto& [true_first, true_last] : stretches) {
    if (!(true_first <= true_last)) continue;
    const Quad first = host.clock.local_at(true_first);
    const Quad last = host.clock.local_at(true_last);
    for (const ReportSegment& s : trace.segments) {
      const Quad l = std::max(first, static_cast<Quad>(s.first_ns));
      const Quad h = std::min(last, static_cast<Quad>(s.last_ns));
      if (l <= h) largest = std::max({largest, bound_between(s, l), bound_between(s, h)});
    }
  }
  return largest;
}

void note_violation(TraceVerdict& v, Nanoseconds t, double error, double bound, bool in_breach) {
  const double excess = std::isfinite(bound) ? error - bound : error;
  const double worst_excess = v.violations == 0 ? -1 : v.worst_violation_error_ns - v.worst_violation_bound_ns;
  ++v.violations;
  if (in_breach) ++v.violations_in_breaches;
  if (excess > worst_excess) {
    v.worst_violation_at = t;
    v.worst_violation_error_ns = error;
    v.worst_violation_bound_ns = bound;
  }
}

TraceVerdict check_trace(const ReportTrace& trace, const Truth& truth, const TruthCheckOptions& options) {
  TraceVerdict v{.name = trace.name, .domain = trace.domain, .reference = trace.reference};
  if (!trace.synchronized) {
    v.skipped = true;
    return v;
  }
  v.segments = trace.segments.size();
  const TruthHost* host = truth.host(trace.domain);
  if (host == nullptr) throw TruthError("trace " + trace.name + ": its domain " + trace.domain + " is not a host of the truth");
  const TruthHost* reference = truth.host(trace.reference);
  if (reference == nullptr) {
    throw TruthError("trace " + trace.name + ": its reference " + trace.reference + " is not a host of the truth");
  }
  for (const auto& s : trace.segments) {
    v.largest_bound_ns = std::max({v.largest_bound_ns, s.uncertainty_first_ns, s.uncertainty_last_ns});
  }
  v.largest_bound_in_traffic_ns = largest_bound_in_traffic(trace, *host, truth);
  // The breaches on the trace's path, in true time, widened by their reach.
  std::vector<std::pair<Quad, Quad>> flagged;
  for (const ReportBreach& b : trace.breaches) {
    const TruthHost* a = truth.host(b.a_domain);
    if (a == nullptr) throw TruthError("trace " + trace.name + ": a breach's domain " + b.a_domain + " is not a host of the truth");
    flagged.emplace_back(a->clock.true_at(static_cast<Quad>(b.from_ns)) - static_cast<Quad>(kBreachReach),
                         a->clock.true_at(static_cast<Quad>(b.to_ns)) + static_cast<Quad>(kBreachReach));
  }
  for (const Nanoseconds t : instants_of(trace, *host, *reference, truth, options)) {
    const Quad true_t = host->clock.true_at(static_cast<Quad>(t));
    const bool in_breach = std::any_of(flagged.begin(), flagged.end(),
                                       [&](const std::pair<Quad, Quad>& f) { return f.first <= true_t && true_t <= f.second; });
    const Quad truth_at_t = reference->clock.local_at(true_t);
    bool covered = false;
    for (const auto& s : trace.segments) {
      if (t < s.first_ns || t > s.last_ns) continue;
      covered = true;
      ++v.instants;
      const double error = model::to_double(model::abs(s.transform.apply(t) - truth_at_t));
      const double bound = s.bound_at(t);
      if (error > v.worst_error_ns) {
        v.worst_error_ns = error;
        v.worst_error_at = t;
      }
      if (!(error <= bound + options.tolerance_ns)) note_violation(v, t, error, bound, in_breach);
    }
    if (!covered) {
      // The segments must cover the span: an instant without one has no bound.
      ++v.instants;
      note_violation(v, t, 0, -1, false);
    }
  }
  return v;
}

}  // namespace

double ReportSegment::bound_at(Nanoseconds t) const {
  if (last_ns == first_ns) return std::max(uncertainty_first_ns, uncertainty_last_ns);
  const double f = static_cast<double>(t - first_ns) / static_cast<double>(last_ns - first_ns);
  return uncertainty_first_ns + f * (uncertainty_last_ns - uncertainty_first_ns);
}

std::vector<ReportTrace> parse_report(std::string_view text, const std::string& source) {
  Json root;
  try {
    root = Json::parse(text);
  } catch (const Json::parse_error& e) {
    throw TruthError(source + ": not JSON: " + e.what());
  }
  const auto traces = root.is_object() ? root.find("traces") : root.end();
  if (!root.is_object() || traces == root.end() || !traces->is_array()) {
    throw TruthError(source + ": not a sync report ('tracesync sync --format json'): no \"traces\" list");
  }
  const std::map<int64_t, std::string> references = island_references(root, source);
  const TreeLinks tree = tree_links(root, source);
  std::vector<ReportTrace> out;
  for (std::size_t i = 0; i < traces->size(); ++i) {
    out.push_back(parse_trace((*traces)[i], source + ": trace " + std::to_string(i), references));
    ReportTrace& t = out.back();
    if (!t.synchronized) continue;
    for (const TreeLink* link : links_on_path(tree, t.domain, t.reference)) {
      t.breaches.insert(t.breaches.end(), link->breaches.begin(), link->breaches.end());
      if (link->traffic) t.traffic.push_back(*link->traffic);
    }
  }
  return out;
}

std::vector<ReportTrace> read_report(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TruthError(path + ": cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_report(text.str(), path);
}

TruthVerdict check_against_truth(const std::vector<ReportTrace>& report, const Truth& truth,
                                 const TruthCheckOptions& options) {
  TruthVerdict verdict;
  for (const auto& trace : report) {
    TraceVerdict v = check_trace(trace, truth, options);
    if (v.skipped) {
      ++verdict.skipped;
    } else {
      ++verdict.checked;
      verdict.violations += v.violations;
      verdict.violations_in_breaches += v.violations_in_breaches;
      verdict.worst_error_ns = std::max(verdict.worst_error_ns, v.worst_error_ns);
      verdict.largest_bound_ns = std::max(verdict.largest_bound_ns, v.largest_bound_ns);
      verdict.largest_bound_in_traffic_ns =
          std::max(verdict.largest_bound_in_traffic_ns, v.largest_bound_in_traffic_ns);
    }
    verdict.traces.push_back(std::move(v));
  }
  return verdict;
}

}  // namespace tracesync::simulate
