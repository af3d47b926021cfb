// SPDX-License-Identifier: EPL-2.0
#include "verify/trace_bounds.h"

#include <algorithm>

namespace tracesync::verify {

using model::Rational;

using model::magnitude;

std::optional<Rational> TraceBounds::at(const std::string& d, const Rational& t) const {
  const std::optional<Reach> r = reach(d, t);
  if (!r) return std::nullopt;
  return r->bound;
}

Rational TraceBounds::growth(const Rational& slope) const {
  if (legacy_growth_) return *legacy_growth_;
  if (rate_limit_ == 0) return 0;
  return rate_limit_ + magnitude(slope - 1);
}

std::optional<TraceBounds::Reach> TraceBounds::reach(const std::string& d, const Rational& t) const {
  const PathStep& step = steps_.at(d);
  const Rational inside = t < step.first ? step.first : t > step.last ? step.last : t;
  const Rational distance = t < inside ? inside - t : t - inside;
  if (step.next.empty()) return Reach{legacy_growth_ ? *legacy_growth_ * distance : Rational(0), Rational(1)};
  const auto knots = knots_.find(step.link);
  if (knots == knots_.end() || knots->second.empty()) return std::nullopt;
  const bool d_is_a = step.link->a == d;
  const ExactLine hop = d_is_a ? step.link->a_onto_b_at(inside, true) : step.link->b_onto_a_at(inside, true);
  const std::optional<Reach> rest = reach(step.next, hop.at(inside));
  if (!rest) return std::nullopt;
  const Rational slope = rest->slope * hop.slope;
  return Reach{growth(slope) * distance + link_bound(knots->second, d_is_a, inside, hop.slope) + rest->bound, slope};
}

Rational TraceBounds::link_bound(const std::vector<BoundKnot>& knots, bool on_a, const Rational& t,
                                 const Rational& end_slope) const {
  const auto c = [&](const BoundKnot& k) { return on_a ? k.x : k.y; };
  if (t <= c(knots.front())) return knots.front().bound + growth(end_slope) * (c(knots.front()) - t);
  if (t >= c(knots.back())) return knots.back().bound + growth(end_slope) * (t - c(knots.back()));
  // The first knot at or after t (one exists: t is inside), found by
  // binary search as the knots rise; the piece ends there.
  const auto next = std::partition_point(knots.begin() + 1, knots.end(), [&](const BoundKnot& k) { return c(k) < t; });
  const BoundKnot& k0 = *(next - 1);
  const BoundKnot& k1 = *next;
  return k0.bound + (k1.bound - k0.bound) * (t - c(k0)) / (c(k1) - c(k0));
}

}  // namespace tracesync::verify
