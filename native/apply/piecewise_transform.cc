// SPDX-License-Identifier: EPL-2.0
#include "apply/piecewise_transform.h"

#include <algorithm>

namespace tracesync::apply {
namespace {

std::optional<model::Quad> exact(const v1::Decimal& value) {
  if (value.exact().empty()) return std::nullopt;
  return model::parse_decimal(value.exact());
}

}  // namespace

PiecewiseTransform PiecewiseTransform::from_trace(const v1::Trace& trace, std::string* error) {
  const std::string where = "trace " + trace.name() + ": ";
  std::vector<TransformPiece> pieces;
  if (trace.segments().empty()) {
    const auto slope = exact(trace.slope());
    const auto offset = exact(trace.offset());
    if (!slope || !offset || *slope <= 0) {
      *error = where + "its transform (slope '" + trace.slope().exact() + "', offset '" + trace.offset().exact() +
               "') is not a usable line";
      return PiecewiseTransform({});
    }
    pieces.push_back({trace.first_ns(), trace.last_ns(), {*slope, *offset}, trace.uncertainty_ns(),
                      trace.uncertainty_ns()});
    return PiecewiseTransform(std::move(pieces));
  }
  for (int i = 0; i < trace.segments_size(); ++i) {
    const v1::Segment& s = trace.segments(i);
    const auto slope = exact(s.slope());
    const auto offset = exact(s.offset());
    if (!slope || !offset || *slope <= 0) {
      *error = where + "piece " + std::to_string(i) + " (slope '" + s.slope().exact() + "', offset '" +
               s.offset().exact() + "') is not a usable line";
      return PiecewiseTransform({});
    }
    if (s.last_ns() < s.first_ns() || (!pieces.empty() && s.first_ns() < pieces.back().last_ns)) {
      *error = where + "piece " + std::to_string(i) + " [" + std::to_string(s.first_ns()) + ", " +
               std::to_string(s.last_ns()) + "] is out of time order";
      return PiecewiseTransform({});
    }
    pieces.push_back({s.first_ns(), s.last_ns(), {*slope, *offset}, s.uncertainty_first_ns(), s.uncertainty_last_ns()});
  }
  return PiecewiseTransform(std::move(pieces));
}

const TransformPiece& PiecewiseTransform::piece_at(model::Nanoseconds t) const {
  // The first piece whose end is at or after t; beyond the span, the last.
  const auto it = std::lower_bound(pieces_.begin(), pieces_.end(), t,
                                   [](const TransformPiece& p, model::Nanoseconds at) { return p.last_ns < at; });
  return it == pieces_.end() ? pieces_.back() : *it;
}

model::Quad PiecewiseTransform::map(model::Nanoseconds t) const { return piece_at(t).line.apply(t); }

double PiecewiseTransform::worst_uncertainty_ns() const {
  double worst = 0;
  for (const TransformPiece& p : pieces_) worst = std::max({worst, p.uncertainty_first_ns, p.uncertainty_last_ns});
  return worst;
}

bool PiecewiseTransform::is_linear() const {
  const model::LinearTransform& line = pieces_.front().line;
  for (const TransformPiece& p : pieces_) {
    for (const model::Nanoseconds t : {p.first_ns, p.last_ns}) {
      if (model::abs(p.line.apply(t) - line.apply(t)) >= model::Quad(0.5)) return false;
    }
  }
  return true;
}

}  // namespace tracesync::apply
