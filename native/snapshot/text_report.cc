// SPDX-License-Identifier: EPL-2.0
#include "snapshot/text_report.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>
#include <vector>

#include "base/natural_order.h"
#include "model/quad.h"
#include "snapshot/people_order.h"

namespace tracesync::snapshot {
namespace {

model::Quad value_of(const v1::Decimal& d) { return model::parse_decimal(d.exact()).value_or(d.approx()); }

// Slopes differ from 1 by parts per million: show enough digits to see it.
std::string slope_text(const v1::Decimal& d) { return model::to_decimal(value_of(d), 19); }
std::string offset_text(const v1::Decimal& d) { return model::to_fixed(value_of(d), 3); }
std::string accuracy_text(const v1::Link& link) {
  return link.has_accuracy() ? model::to_scientific(value_of(link.accuracy()), 3) : "-";
}
// A duration for people: the largest unit that keeps it above 1, with the unit.
std::string duration_text(double ns, bool sign = false) {
  const double size = ns < 0 ? -ns : ns;
  const auto [scale, unit, decimals] = size >= 1e9   ? std::tuple{1e9, " s", 6}
                                       : size >= 1e6 ? std::tuple{1e6, " ms", 3}
                                       : size >= 1e3 ? std::tuple{1e3, " us", 3}
                                                     : std::tuple{1.0, " ns", 1};
  std::ostringstream out;
  out.precision(decimals);
  if (sign) out << std::showpos;
  out << std::fixed << ns / scale << unit;
  return out.str();
}
std::string ppm_text(double ppm) {
  std::ostringstream out;
  out.precision(3);
  out << std::showpos << std::fixed << ppm << " ppm";
  return out.str();
}
std::string bound_text(bool has, double ns) {
  if (!has) return "unbounded";
  return ns == 0 ? "exact" : "+/- " + duration_text(ns);
}
// slope - 1 in ppm, from the exact slope.
double drift_ppm(const v1::Decimal& slope) { return static_cast<double>((value_of(slope) - 1) * 1'000'000); }

std::string quality_text(v1::Quality q) { return q == v1::QUALITY_UNSPECIFIED ? "UNKNOWN" : v1::Quality_Name(q); }

// A table whose columns are as wide as their widest cell.
class Table {
 public:
  explicit Table(std::vector<std::string> header) { rows_.push_back(std::move(header)); }
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void print(std::ostream& out) const {
    std::vector<std::size_t> width(rows_.front().size(), 0);
    for (const auto& row : rows_) {
      for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
    }
    for (const auto& row : rows_) {
      out << "  ";
      for (std::size_t i = 0; i < row.size(); ++i) {
        out << row[i];
        if (i + 1 < row.size()) out << std::string(width[i] - row[i].size() + 2, ' ');
      }
      out << "\n";
    }
  }

 private:
  std::vector<std::vector<std::string>> rows_;
};

// Domains are keyed by id (a clock UUID for real traces) but shown by hostname.
class DomainNames {
 public:
  explicit DomainNames(const v1::Snapshot& s) {
    for (const v1::Trace& t : s.traces()) hostname_.emplace(t.domain(), t.hostname());
  }
  std::string operator()(const std::string& id) const {
    const auto it = hostname_.find(id);
    return it == hostname_.end() || it->second.empty() ? id : it->second;
  }

 private:
  std::map<std::string, std::string> hostname_;
};

struct TreeEdge {
  std::string to;
  const v1::Link* link;
};

void draw_subtree(std::ostream& out, const std::string& node, const std::string& parent,
                  const std::map<std::string, std::vector<TreeEdge>>& edges, const std::string& prefix,
                  const DomainNames& name) {
  const auto it = edges.find(node);
  if (it == edges.end()) return;
  std::vector<const TreeEdge*> children;
  for (const TreeEdge& e : it->second) {
    if (e.to != parent) children.push_back(&e);
  }
  std::stable_sort(children.begin(), children.end(),
                   [&](const TreeEdge* x, const TreeEdge* y) { return base::natural_less(name(x->to), name(y->to)); });
  for (std::size_t i = 0; i < children.size(); ++i) {
    const bool last = i + 1 == children.size();
    const v1::Link& l = *children[i]->link;
    out << prefix << (last ? "`-- " : "|-- ") << name(children[i]->to) << "  (" << quality_text(l.quality())
        << ", drift " << ppm_text(drift_ppm(l.alpha())) << ", " << bound_text(l.has_uncertainty_ns(), l.uncertainty_ns())
        << ")\n";
    draw_subtree(out, children[i]->to, node, edges, prefix + (last ? "    " : "|   "), name);
  }
}

}  // namespace

std::string to_text(const v1::Snapshot& s) {
  std::ostringstream out;
  const DomainNames name(s);
  out << "tracesync: " << s.traces_size() << " trace(s), " << s.links_size() << " link(s), " << s.islands_size()
      << " island(s), " << s.messages() << " message(s), algorithm " << s.options().algorithm() << ", network "
      << s.options().network() << (s.complete() ? "" : "  [INCOMPLETE INPUT]") << "\n";

  if (s.traces_size() == 1) out << "\nOnly one trace: there is nothing to synchronize it with.\n";

  out << "\nTraces (t_ref = slope * t + offset; shift = t_ref - t at the trace's first event)\n";
  Table traces({"NAME", "HOST", "DOMAIN", "ISLAND", "STATUS", "DRIFT", "SHIFT", "BOUND", "PIECES", "SLOPE",
                "OFFSET (ns)"});
  const std::vector<int> trace_order = traces_for_people(s);
  for (const int k : trace_order) {
    const v1::Trace& t = s.traces(k);
    const std::string status = !t.synchronized() ? "not synchronized" : t.reference() ? "reference" : "synchronized";
    const std::string pieces = std::to_string(std::max(1, t.segments_size()));
    if (t.synchronized()) {
      traces.add({t.name(), t.hostname(), t.domain(), std::to_string(t.island()), status, ppm_text(t.drift_ppm()),
                  duration_text(t.shift_ns(), true), bound_text(true, t.uncertainty_ns()), pieces, slope_text(t.slope()),
                  offset_text(t.offset())});
    } else {
      traces.add({t.name(), t.hostname(), t.domain(), std::to_string(t.island()), status, "-", "-", "-", "-", "-", "-"});
    }
  }
  traces.print(out);
  for (const int k : trace_order) {
    const v1::Trace& t = s.traces(k);
    if (!t.synchronized() || t.segments_size() < 2) continue;
    out << "  " << t.name() << " in " << t.segments_size() << " pieces (in time order):\n";
    for (int i = 0; i < t.segments_size(); ++i) {
      const v1::Segment& p = t.segments(i);
      out << "    " << i + 1 << ". from " << duration_text(static_cast<double>(p.first_ns() - t.first_ns()))
          << " to " << duration_text(static_cast<double>(p.last_ns() - t.first_ns()))
          << " after its first event: drift " << ppm_text(drift_ppm(p.slope())) << ", worst bound "
          << bound_text(true, std::max(p.uncertainty_first_ns(), p.uncertainty_last_ns())) << "\n";
    }
  }
  for (const int k : trace_order) {
    const v1::Trace& t = s.traces(k);
    if (t.synchronized()) continue;
    out << "  NOT SYNCHRONIZED with the rest: " << t.name() << ": " << t.unsynchronized_reason() << "\n";
  }
  // Which CTF reader read the traces and why: one line a reader and reason.
  std::vector<std::pair<std::string, std::vector<std::string>>> readers;
  for (const int k : trace_order) {
    const v1::Trace& t = s.traces(k);
    if (t.reader().empty()) continue;
    const std::string how = t.reader() + " (" + t.reader_reason() + ")";
    auto same = std::find_if(readers.begin(), readers.end(), [&](const auto& r) { return r.first == how; });
    if (same == readers.end()) same = readers.insert(readers.end(), {how, {}});
    same->second.push_back(t.name());
  }
  for (const auto& [how, names] : readers) {
    out << "  read by " << how << ": ";
    for (std::size_t i = 0; i < names.size(); ++i) out << (i == 0 ? "" : ", ") << names[i];
    out << "\n";
  }

  out << "\nLinks (b = alpha * a + beta; offset = b - a at the link's first message)\n";
  Table links({"A", "B", "QUALITY", "DRIFT", "OFFSET", "BOUND", "MESSAGES", "ACCURATE", "HULL L/U", "CONTRADICTIONS",
               "TREE", "ALPHA", "BETA (ns)", "ACCURACY"});
  const auto host_and_id = [](const std::string& hostname, const std::string& id) {
    return hostname.empty() || hostname == id ? id : hostname + " (" + id + ")";
  };
  for (const int k : links_for_people(s)) {
    const v1::Link& l = s.links(k);
    const bool has_line = l.quality() != v1::ABSENT && l.quality() != v1::FAIL;
    const model::Quad x = static_cast<model::Quad>(l.span_first_ns());
    const double offset = static_cast<double>((value_of(l.alpha()) - 1) * x + value_of(l.beta()));
    links.add({host_and_id(l.a_hostname(), l.a()), host_and_id(l.b_hostname(), l.b()), quality_text(l.quality()),
               has_line ? ppm_text(drift_ppm(l.alpha())) : "-", has_line ? duration_text(offset, true) : "-",
               bound_text(l.has_uncertainty_ns(), l.uncertainty_ns()), std::to_string(l.messages()),
               std::to_string(l.accurate_messages()),
               std::to_string(l.lower_hull()) + "/" + std::to_string(l.upper_hull()), std::to_string(l.contradictions()),
               l.in_tree() ? "yes" : "no", slope_text(l.alpha()), offset_text(l.beta()), accuracy_text(l)});
  }
  links.print(out);

  std::map<std::string, std::vector<TreeEdge>> edges;
  for (const v1::Link& l : s.links()) {
    if (!l.in_tree()) continue;
    edges[l.a()].push_back({l.b(), &l});
    edges[l.b()].push_back({l.a(), &l});
  }
  uint32_t main_island = 0;
  for (const v1::Trace& t : s.traces()) {
    if (t.synchronized()) main_island = t.island();
  }
  out << "\nIslands (spanning trees from their references)\n";
  for (const v1::Island& island : s.islands()) {
    out << "  island " << island.id() << ": " << island.domains_size() << " domain(s), reference "
        << name(island.reference()) << (island.forced() ? " (forced)" : "")
        << (island.id() == main_island ? ", the main island" : ", NOT SYNCHRONIZED with the main island") << "\n";
    out << "    " << name(island.reference()) << "\n";
    draw_subtree(out, island.reference(), "", edges, "    ", name);
  }

  if (s.has_matching() && s.matching().sends() == 0 && s.matching().receives() == 0 && s.matching().matches() > 0) {
    // A match stream: the messages came matched, nothing was paired here.
    const v1::MatchingStatistics& m = s.matching();
    out << "\nMatching: none (a match stream): " << m.matches() << " matched messages read";
    if (m.same_domain() > 0) out << ", and " << m.same_domain() << " within one domain, ignored";
    out << "\n";
  } else if (s.has_matching()) {
    const v1::MatchingStatistics& m = s.matching();
    out << "\nMatching: " << m.sends() << " sends, " << m.receives() << " receives, " << m.matches() << " matches, "
        << m.retransmissions() << " retransmissions, " << m.duplicates() << " duplicates, " << m.unmatched_sends()
        << " unmatched sends, " << m.unmatched_receives() << " unmatched receives, " << m.expired() << " expired, "
        << m.unknown_layout() << " of unknown layout, " << m.same_domain() << " within one domain, " << m.non_tcp()
        << " not TCP\n";
    // Application message kinds (--messages): the same per kind.
    for (const v1::KindMatching& k : s.matching_by_kind()) {
      const v1::MatchingStatistics& km = k.matching();
      out << "  kind " << k.kind() << " (" << k.name() << "): " << km.sends() << " sends, " << km.receives()
          << " receives, " << km.matches() << " matches, " << km.retransmissions() << " retransmissions, "
          << km.duplicates() << " duplicates, " << km.unmatched_sends() << " unmatched sends, "
          << km.unmatched_receives() << " unmatched receives, " << km.expired() << " expired, "
          << km.unknown_layout() << " without a key, " << km.key_too_long() << " with a key too long\n";
    }
  }
  for (const v1::Problem& p : s.problems()) {
    out << "\nProblem: " << p.source();
    if (p.line() != 0) out << ":" << p.line();
    out << ": " << p.message() << (p.skipped() ? " (skipped)" : "") << "\n";
  }
  return out.str();
}

std::string history_text_line(uint64_t message, const v1::Link& l) {
  std::ostringstream out;
  if (message == 1) out << "MESSAGE  A  B  QUALITY  ALPHA  BETA  ACCURACY  MESSAGES  ACCURATE\n";
  out << message << "  " << l.a() << "  " << l.b() << "  " << quality_text(l.quality()) << "  "
      << slope_text(l.alpha()) << "  " << offset_text(l.beta()) << "  " << accuracy_text(l) << "  " << l.messages()
      << "  " << l.accurate_messages() << "\n";
  return out.str();
}

}  // namespace tracesync::snapshot
