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
// bounds as the report prints them and the clock-stability allowance, by
// the rule the transforms are composed by (docs/verify.md): a link's bound
// is linear between its knots and grows by `growth` (the allowance, ppm /
// 1e6 ns per ns) beyond them; a domain's bound is its link's bound plus its
// parent's at the instant the link maps it to; and beyond a domain's span
// its bound grows likewise from the span's end. The reference's bound is 0
// on its span.
class TraceBounds {
 public:
  TraceBounds(std::map<std::string, PathStep> steps, std::map<const LinkMap*, std::vector<BoundKnot>> knots,
              model::Rational growth)
      : steps_(std::move(steps)), knots_(std::move(knots)), growth_(std::move(growth)) {}

  // Domain d's bound at instant t of its clock; nullopt when a link of its
  // path has no bound.
  std::optional<model::Rational> at(const std::string& d, const model::Rational& t) const;

 private:
  model::Rational link_bound(const std::vector<BoundKnot>& knots, bool on_a, const model::Rational& t) const;

  std::map<std::string, PathStep> steps_;
  std::map<const LinkMap*, std::vector<BoundKnot>> knots_;
  model::Rational growth_;
};

}  // namespace tracesync::verify
