// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/rational.h"
#include "verify/exact_composition.h"

namespace tracesync::verify {

// A knot of a link's bound: at x on the link's a clock (y on b's), the
// link's bound is `bound` ns.
struct BoundKnot {
  model::Rational x, y, bound;
};

// The bounds of the domains' transforms, re-derived exactly from the links'
// bounds as the report prints them, by the rule the transforms are composed
// by (docs/verify.md): a link's bound is linear between its knots and, beyond
// them, grows from the end knot's; a domain's bound is its link's bound plus
// its parent's at the instant the link maps it to; and beyond a domain's
// span its bound grows likewise from the span's end. The reference's bound
// is 0 on its span and, its transform being the identity, beyond it.
//
// Growth beyond a map's span (network::PiecewiseTransform): `rate_limit`
// (R, ns per ns) plus the continued line's distance from slope 1, or none
// when it is 0 (--clock-stability 0). A report whose certificate states no
// rate limit came from an engine that grew every continued map, the
// reference's identity too, by the stability alone: `legacy_growth`.
class TraceBounds {
 public:
  TraceBounds(std::map<std::string, PathStep> steps, std::map<const LinkMap*, std::vector<BoundKnot>> knots,
              model::Rational rate_limit, std::optional<model::Rational> legacy_growth = std::nullopt)
      : steps_(std::move(steps)), knots_(std::move(knots)), rate_limit_(std::move(rate_limit)),
        legacy_growth_(std::move(legacy_growth)) {}

  // Domain d's bound at instant t of its clock; nullopt when a link of its
  // path has no bound.
  std::optional<model::Rational> at(const std::string& d, const model::Rational& t) const;

 private:
  // Domain d's bound at t and the slope of its transform there (of the
  // piece continued beyond its span).
  struct Reach {
    model::Rational bound;
    model::Rational slope;
  };
  std::optional<Reach> reach(const std::string& d, const model::Rational& t) const;
  // How fast a bound grows beyond a span, continuing a line of this slope.
  model::Rational growth(const model::Rational& slope) const;
  model::Rational link_bound(const std::vector<BoundKnot>& knots, bool on_a, const model::Rational& t,
                             const model::Rational& end_slope) const;

  std::map<std::string, PathStep> steps_;
  std::map<const LinkMap*, std::vector<BoundKnot>> knots_;
  model::Rational rate_limit_;
  std::optional<model::Rational> legacy_growth_;
};

}  // namespace tracesync::verify
