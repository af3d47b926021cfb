// SPDX-License-Identifier: EPL-2.0
#include "e2e/exact_composition.h"

#include <boost/multiprecision/cpp_int.hpp>

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "model/rational.h"

namespace tracesync::testing {
namespace {

using model::Rational;
using nlohmann::json;

Rational number(const json& text) {
  const auto r = model::parse_rational(text.get<std::string>());
  if (!r) throw std::runtime_error("not a decimal: " + text.dump());
  return *r;
}

// y = slope * x + offset.
struct Line {
  Rational slope = 1;
  Rational offset = 0;
  Rational at(const Rational& x) const { return slope * x + offset; }
  Line inverse() const { return {1 / slope, -offset / slope}; }
  Line after(const Line& inner) const { return {slope * inner.slope, slope * inner.offset + offset}; }
};

Line chord(const Rational& x0, const Rational& y0, const Rational& x1, const Rational& y1) {
  const Rational s = (y1 - y0) / (x1 - x0);
  return {s, y0 - s * x0};
}

// A link's map of a onto b: its line, or its clock map's chords with the
// end ones continued.
struct LinkMap {
  std::string a, b;
  std::vector<std::pair<Rational, Rational>> knots;  // (x on a, y on b); empty: the line
  Line line;
  Rational span_first, span_last;  // span_ns, on a

  // Where the map holds on d's clock (d is a or b): its knots' ends, or the
  // link's span (its image on b).
  std::pair<Rational, Rational> measured_on(const std::string& d) const {
    if (knots.size() >= 2) {
      return d == a ? std::pair{knots.front().first, knots.back().first}
                    : std::pair{knots.front().second, knots.back().second};
    }
    return d == a ? std::pair{span_first, span_last} : std::pair{line.at(span_first), line.at(span_last)};
  }

  // The chord i (knots i, i + 1) holding v on the coordinate `at` reads: the
  // inner knots at or before v (before v unless `right`), found by binary
  // search since the knots rise (a scan per segment made the test quadratic).
  template <class At>
  std::size_t piece_holding(const Rational& v, bool right, At at) const {
    const auto inner = knots.begin() + 1;
    const auto end = knots.end() - 1;
    return static_cast<std::size_t>(
        std::partition_point(inner, end, [&](const auto& k) { return right ? at(k) <= v : at(k) < v; }) - inner);
  }

  // The piece of a onto b holding x (from x on when x is a knot: `right`).
  Line a_onto_b_at(const Rational& x, bool right) const {
    if (knots.size() < 2) return line;
    const std::size_t i = piece_holding(x, right, [](const auto& k) -> const Rational& { return k.first; });
    return chord(knots[i].first, knots[i].second, knots[i + 1].first, knots[i + 1].second);
  }
  // The piece of b onto a holding y.
  Line b_onto_a_at(const Rational& y, bool right) const {
    if (knots.size() < 2) return line.inverse();
    const std::size_t i = piece_holding(y, right, [](const auto& k) -> const Rational& { return k.second; });
    return chord(knots[i].first, knots[i].second, knots[i + 1].first, knots[i + 1].second).inverse();
  }
};

struct Domain {
  Rational first, last;  // the span its transform is composed over
  std::optional<std::string> parent;
  const LinkMap* link = nullptr;  // to the parent
};

class Recomputation {
 public:
  explicit Recomputation(const json& report) {
    for (const json& l : report["links"]) {
      LinkMap m{l["a"].get<std::string>(), l["b"].get<std::string>(), {}, {number(l["alpha"]), number(l["beta"])},
                Rational(l["span_ns"][0].get<int64_t>()), Rational(l["span_ns"][1].get<int64_t>())};
      if (l.contains("clock_map")) {
        for (const json& k : l["clock_map"]) m.knots.push_back({Rational(k["x_ns"].get<int64_t>()), number(k["y"])});
      }
      links_.push_back(m);
      if (l["in_tree"].get<bool>()) tree_.push_back(&links_.back());
      spans_[m.a] = {Rational(l["span_ns"][0].get<int64_t>()), Rational(l["span_ns"][1].get<int64_t>())};
    }
    for (const json& t : report["traces"]) {
      const std::string d = t["domain"];
      const Rational f(t["first_ns"].get<int64_t>()), l(t["last_ns"].get<int64_t>());
      if (!spans_.count(d)) {
        trace_spans_[d] = trace_spans_.count(d) ? std::pair{std::min(trace_spans_[d].first, f), std::max(trace_spans_[d].second, l)}
                                                : std::pair{f, l};
      }
    }
    for (const auto& [d, s] : trace_spans_) spans_[d] = s;
    for (const json& island : report["islands"]) {
      const std::string reference = island["reference"];
      // Breadth first from the reference through the tree's links.
      domains_[reference] = Domain{spans_[reference].first, spans_[reference].second, std::nullopt, nullptr};
      std::deque<std::string> queue{reference};
      while (!queue.empty()) {
        const std::string d = queue.front();
        queue.pop_front();
        for (const LinkMap* link : tree_) {
          const std::string other = link->a == d ? link->b : link->b == d ? link->a : std::string();
          if (other.empty() || domains_.count(other)) continue;
          // A domain's transform covers its traces and all of its link's
          // map on its clock: a child's image there meets the map itself.
          const auto [from, to] = link->measured_on(other);
          domains_[other] = Domain{std::min(spans_[other].first, from), std::max(spans_[other].second, to), d, link};
          queue.push_back(other);
        }
      }
    }
  }

  bool knows(const std::string& domain) const { return domains_.count(domain) > 0; }

  // The line of domain d's exact transform near t (the piece from t on when
  // `right`).
  Line local(const std::string& d, const Rational& t, bool right) const {
    const Domain& domain = domains_.at(d);
    if (!domain.parent) return {};
    const LinkMap& link = *domain.link;
    const Line step = link.b == d ? link.b_onto_a_at(t, right) : link.a_onto_b_at(t, right);
    const Rational u = step.at(t);
    const Domain& parent = domains_.at(*domain.parent);
    // Beyond the parent's span its transform continues its end pieces.
    Line outer;
    if (u < parent.first) {
      outer = local(*domain.parent, parent.first, true);
    } else if (u > parent.last) {
      outer = local(*domain.parent, parent.last, false);
    } else {
      outer = local(*domain.parent, u, right);
    }
    return outer.after(step);
  }

 private:
  std::deque<LinkMap> links_;
  std::vector<const LinkMap*> tree_;
  std::map<std::string, std::pair<Rational, Rational>> spans_, trace_spans_;
  std::map<std::string, Domain> domains_;
};

}  // namespace

CompositionCheck recompute_trace_transforms(const json& report) {
  CompositionCheck out;
  const Recomputation r(report);
  for (const json& t : report["traces"]) {
    const std::string name = t["name"];
    if (!t["synchronized"].get<bool>()) continue;
    const std::string d = t["domain"];
    if (!r.knows(d)) {
      out.disagreements.push_back(name + ": its domain is in no island's tree");
      continue;
    }
    const json& segments = t["segments"];
    for (std::size_t i = 0; i < segments.size(); ++i) {
      const json& s = segments[i];
      const Rational f(s["first_ns"].get<int64_t>()), l(s["last_ns"].get<int64_t>());
      Line expected;
      if (f == l) {
        expected = r.local(d, f, true);  // a point: the piece there
      } else {
        const Rational vf = r.local(d, f, true).at(f);
        const Rational vl = r.local(d, l, false).at(l);
        expected = chord(f, vf, l, vl);
      }
      ++out.segments_checked;
      const std::string slope = model::rounded_decimal(expected.slope);
      const std::string offset = model::rounded_decimal(expected.offset);
      if (slope != s["slope"].get<std::string>() || offset != s["offset"].get<std::string>()) {
        out.disagreements.push_back(name + " segment " + std::to_string(i) + ": reported slope " +
                                    s["slope"].get<std::string>() + " offset " + s["offset"].get<std::string>() +
                                    ", exact composition " + slope + " " + offset);
      }
    }
    // One segment: the trace's own line is that segment's.
    if (segments.size() == 1 &&
        (t["slope"] != segments[0]["slope"] || t["offset"] != segments[0]["offset"])) {
      out.disagreements.push_back(name + ": its line differs from its only segment's");
    }
  }
  return out;
}

}  // namespace tracesync::testing
