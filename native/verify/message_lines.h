// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/rational.h"

namespace tracesync::verify {

// A message of link (a, b) as a point: x on a's clock, y on b's. An a -> b
// message (sent on a at x, received on b at y) must lie on or above every
// line that can be the clocks' relation (it is received after it is sent);
// a b -> a message (sent on b at y, received on a at x) on or below.
struct MessagePoint {
  int64_t x = 0;
  int64_t y = 0;
};

// y = slope * x + intercept, exactly.
struct ExactLine {
  model::Rational slope = 1;
  model::Rational intercept = 0;
  model::Rational at(const model::Rational& x) const { return slope * x + intercept; }
};

// The two lines of extreme slope that every message allows (Lmin, Lmax),
// from the messages alone: a slope s is allowed exactly when, for every
// b -> a message u and a -> b message l, s * (l.x - u.x) <= l.y - u.y. So
// alpha_max is the least (l.y - u.y) / (l.x - u.x) over pairs with u.x <
// l.x, alpha_min the greatest over pairs with l.x < u.x, and each line is
// the one through its pair.
struct ExtremeLines {
  ExactLine lmin, lmax;
  std::pair<std::size_t, std::size_t> lmin_pair;  // (a -> b index, b -> a index)
  std::pair<std::size_t, std::size_t> lmax_pair;
};

// nullopt with `why` when the messages allow no line, or do not bound the
// slope on both sides.
std::optional<ExtremeLines> extreme_lines(const std::vector<MessagePoint>& a_to_b,
                                          const std::vector<MessagePoint>& b_to_a, std::string* why);

// The line through a -> b message l and b -> a message u (l.x != u.x).
ExactLine line_through(const MessagePoint& l, const MessagePoint& u);

// The first message on the wrong side of `line`, described; empty when none.
std::string first_on_wrong_side(const ExactLine& line, const std::vector<MessagePoint>& a_to_b,
                                const std::vector<MessagePoint>& b_to_a);

// The least and greatest value at x over every line the messages allow
// (a non-empty, bounded set of lines): the extremes of a linear function
// over the convex set of allowed (slope, intercept) lie at its corners,
// each the line through two messages; every such line is tried.
std::pair<model::Rational, model::Rational> allowed_range_at(int64_t x, const std::vector<MessagePoint>& a_to_b,
                                                             const std::vector<MessagePoint>& b_to_a);

}  // namespace tracesync::verify
