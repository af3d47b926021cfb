// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/rational.h"
#include "verify/message_lines.h"

namespace tracesync::verify {

// One link's map of a's clock onto b's, as the report defines it: its line
// (alpha, beta) or, when the report lists one, its clock map (knots, linear
// between them, the end pieces continued).
struct LinkMap {
  std::string a, b;
  ExactLine line;
  std::vector<std::pair<model::Rational, model::Rational>> knots;  // (x on a, y on b)
  model::Rational span_first, span_last;  // the link's span (span_ns), on a

  // Where the map was measured, on domain d's clock (d is a or b): its
  // knots' ends, or for a line the link's span (its image on b).
  std::pair<model::Rational, model::Rational> measured_on(const std::string& d) const;

  // The piece holding t (from t on when `right`), a onto b or b onto a.
  ExactLine a_onto_b_at(const model::Rational& x, bool right) const;
  ExactLine b_onto_a_at(const model::Rational& y, bool right) const;
};

// A domain's place in its island: the span its transform is composed over
// (its traces' span and, when it has a next step, where its link's map was
// measured on its clock: composed_span) and the link to the next domain of
// its path (none for the reference).
struct PathStep {
  model::Rational first, last;
  std::string next;             // empty: the reference
  const LinkMap* link = nullptr;
};

// The span a domain's transform is composed over, as the engine composes it
// (network::composed_onto_parent): its traces' span [first, last] and, on a
// path, all of its link's map on its clock, so that a child's image outside
// its traces meets the map's own pieces and bounds there.
std::pair<model::Rational, model::Rational> composed_span(const model::Rational& first, const model::Rational& last,
                                                           const std::string& d, const LinkMap* link);

// Composes transforms exactly along paths: a domain's transform is its link
// onto the next domain of its path, then that domain's transform, continued
// beyond that domain's span by its end pieces (as the engine composes them:
// docs/verify.md).
class PathComposition {
 public:
  explicit PathComposition(std::map<std::string, PathStep> steps) : steps_(std::move(steps)) {}

  // The line of domain d's transform near t (from t on when `right`).
  ExactLine local(const std::string& d, const model::Rational& t, bool right) const;

 private:
  std::map<std::string, PathStep> steps_;
};

ExactLine after(const ExactLine& outer, const ExactLine& inner);
ExactLine inverse(const ExactLine& line);
ExactLine chord(const model::Rational& x0, const model::Rational& y0, const model::Rational& x1,
                const model::Rational& y1);

}  // namespace tracesync::verify
