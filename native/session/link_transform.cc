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

}  // namespace

network::PiecewiseTransform link_b_onto_a(const hull::LinkEstimate& estimate,
                                          const std::optional<hull::ClockMap>& map, const hull::TimeSpan& span) {
  const model::LinearTransform line = estimate.b_onto_a();
  if (!map || map->empty()) {
    const hull::Line forward{estimate.alpha, estimate.beta};
    return network::PiecewiseTransform({{forward.at(span.first), forward.at(span.last), line, 0, 0}});
  }
  const hull::ClockMap& knots = *map;
  if (on_estimate_line(estimate, knots)) {
    return network::PiecewiseTransform(
        {{knots.front().y, knots.back().y, line, knots.front().bound, knots.back().bound}});
  }
  // a onto b between knots, then turned around.
  std::vector<network::TransformPiece> pieces;
  for (std::size_t i = 0; i + 1 < knots.size(); ++i) {
    const hull::Knot& from = knots[i];
    const hull::Knot& to = knots[i + 1];
    const Quad slope = (to.y - from.y) / static_cast<Quad>(to.x - from.x);
    pieces.push_back({static_cast<Quad>(from.x), static_cast<Quad>(to.x),
                      model::LinearTransform{slope, from.y - slope * static_cast<Quad>(from.x)}, from.bound, to.bound});
  }
  return network::PiecewiseTransform(std::move(pieces)).inverse();
}

Quad link_weight(const network::PiecewiseTransform& b_onto_a) { return b_onto_a.worst_bound(); }

}  // namespace tracesync::session
