// SPDX-License-Identifier: EPL-2.0
#include "verify/exact_composition.h"

#include <algorithm>
#include <stdexcept>

namespace tracesync::verify {

using model::Rational;

ExactLine after(const ExactLine& outer, const ExactLine& inner) {
  return {outer.slope * inner.slope, outer.slope * inner.intercept + outer.intercept};
}

ExactLine inverse(const ExactLine& line) { return {1 / line.slope, -line.intercept / line.slope}; }

ExactLine chord(const Rational& x0, const Rational& y0, const Rational& x1, const Rational& y1) {
  const Rational s = (y1 - y0) / (x1 - x0);
  return {s, y0 - s * x0};
}

namespace {

// The piece holding t: the first i (at most knots.size() - 2) whose next
// knot lies after t (from t on when `right`, at or after t otherwise), by
// binary search, as knots rise on both clocks (the report's maps are strictly
// increasing; a report whose knots do not rise gets some piece, and the
// composition it gives then disagrees with the report's).
template <class Coordinate>
std::size_t piece_index(const std::vector<std::pair<Rational, Rational>>& knots, const Rational& t, bool right,
                        Coordinate c) {
  const auto inner = knots.begin() + 1;
  const auto end = knots.end() - 1;
  const auto next = std::partition_point(inner, end, [&](const std::pair<Rational, Rational>& k) {
    return right ? c(k) <= t : c(k) < t;
  });
  return static_cast<std::size_t>(next - inner);
}

}  // namespace

ExactLine LinkMap::a_onto_b_at(const Rational& x, bool right) const {
  if (knots.size() < 2) return line;
  const std::size_t i = piece_index(knots, x, right, [](const auto& k) -> const Rational& { return k.first; });
  return chord(knots[i].first, knots[i].second, knots[i + 1].first, knots[i + 1].second);
}

ExactLine LinkMap::b_onto_a_at(const Rational& y, bool right) const {
  if (knots.size() < 2) return inverse(line);
  const std::size_t i = piece_index(knots, y, right, [](const auto& k) -> const Rational& { return k.second; });
  return inverse(chord(knots[i].first, knots[i].second, knots[i + 1].first, knots[i + 1].second));
}

std::pair<Rational, Rational> LinkMap::measured_on(const std::string& d) const {
  const bool on_a = d == a;
  if (knots.size() >= 2) {
    return on_a ? std::pair{knots.front().first, knots.back().first} : std::pair{knots.front().second, knots.back().second};
  }
  return on_a ? std::pair{span_first, span_last} : std::pair{line.at(span_first), line.at(span_last)};
}

std::pair<Rational, Rational> composed_span(const Rational& first, const Rational& last, const std::string& d,
                                            const LinkMap* link) {
  if (link == nullptr) return {first, last};
  const auto [from, to] = link->measured_on(d);
  return {from < first ? from : first, to > last ? to : last};
}

ExactLine PathComposition::local(const std::string& d, const Rational& t, bool right) const {
  const auto found = steps_.find(d);
  if (found == steps_.end()) throw std::logic_error("no path step for domain " + d);
  const PathStep& step = found->second;
  if (step.next.empty()) return {};
  const LinkMap& link = *step.link;
  const ExactLine hop = link.b == d ? link.b_onto_a_at(t, right) : link.a_onto_b_at(t, right);
  const Rational u = hop.at(t);
  const PathStep& next = steps_.at(step.next);
  if (u < next.first) return after(local(step.next, next.first, true), hop);
  if (u > next.last) return after(local(step.next, next.last, false), hop);
  return after(local(step.next, u, right), hop);
}

}  // namespace tracesync::verify
