// SPDX-License-Identifier: EPL-2.0
#include "session/link_transform.h"

namespace tracesync::session {
namespace {

using model::Quad;

// Within this of the estimate's line (b's ns), a knot lies on it: the
// default single-line clock map evaluates the very same expression.
constexpr double kOnLine = 1e-6;

bool on_estimate_line(const hull::LinkEstimate& e, const hull::ClockMap& map) {
  if (map.size() > 2) return false;
  const hull::Line line{e.alpha, e.beta};
  for (const hull::Knot& k : map) {
    if (model::abs(line.at(k.x) - k.y) > kOnLine) return false;
  }
  return true;
}

// The estimate's line turned around, exactly, from alpha and beta as the
// report prints them: anyone can then redo the composition from the report.
model::ExactTransform exact_line(const hull::LinkEstimate& e) {
  return model::exact_b_onto_a(model::as_printed(e.alpha), model::as_printed(e.beta));
}

}  // namespace

bool uses_clock_map(const hull::LinkEstimate& estimate, const std::optional<hull::ClockMap>& map) {
  return map && !map->empty() && !on_estimate_line(estimate, *map);
}

network::PiecewiseTransform link_b_onto_a(const hull::LinkEstimate& estimate,
                                          const std::optional<hull::ClockMap>& map, const hull::TimeSpan& span) {
  if (!map || map->empty()) {
    const hull::Line forward{estimate.alpha, estimate.beta};
    return network::PiecewiseTransform({{forward.at(span.first), forward.at(span.last), exact_line(estimate), 0, 0}});
  }
  const hull::ClockMap& knots = *map;
  if (!uses_clock_map(estimate, map)) {
    return network::PiecewiseTransform(
        {{knots.front().y, knots.back().y, exact_line(estimate), knots.front().bound, knots.back().bound}});
  }
  // a onto b between knots (their y as printed, exactly), then turned around.
  std::vector<network::TransformPiece> pieces;
  for (std::size_t i = 0; i + 1 < knots.size(); ++i) {
    const hull::Knot& from = knots[i];
    const hull::Knot& to = knots[i + 1];
    pieces.push_back({static_cast<Quad>(from.x), static_cast<Quad>(to.x),
                      model::exact_chord(model::Rational(from.x), model::as_printed(from.y), model::Rational(to.x),
                                         model::as_printed(to.y)),
                      from.bound, to.bound});
  }
  return network::PiecewiseTransform(std::move(pieces)).inverse();
}

Quad link_weight(const network::PiecewiseTransform& b_onto_a) { return b_onto_a.worst_bound(); }

}  // namespace tracesync::session
