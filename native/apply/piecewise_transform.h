// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/linear_transform.h"
#include "snapshot/tracesync.pb.h"

namespace tracesync::apply {

// One piece of a trace's transform: t_ref = slope * t + offset for t in
// [first_ns, last_ns] of the trace's own clock, with its bound at both ends.
struct TransformPiece {
  model::Nanoseconds first_ns = 0;
  model::Nanoseconds last_ns = 0;
  model::LinearTransform line;
  double uncertainty_first_ns = 0;
  double uncertainty_last_ns = 0;
};

// A trace's transform onto its island's reference, as a snapshot gives it:
// contiguous pieces in time order covering the trace's span. A snapshot
// without pieces (written before the piecewise clock model) has one line
// over the whole span: the trace's top-level slope, offset and bound.
class PiecewiseTransform {
 public:
  // Reads the transform of `trace`; an error (naming the trace and the
  // field) when a decimal does not parse or the pieces are out of order.
  static PiecewiseTransform from_trace(const v1::Trace& trace, std::string* error);

  explicit PiecewiseTransform(std::vector<TransformPiece> pieces) : pieces_(std::move(pieces)) {}

  const std::vector<TransformPiece>& pieces() const { return pieces_; }
  // One line: one piece, or pieces that only differ in their bounds (their
  // maps agree within half a nanosecond at every piece's ends, which a
  // difference of lines reaches at an end).
  bool is_linear() const;

  // t_ref at t: the piece holding t (the first or last piece beyond the span).
  model::Quad map(model::Nanoseconds t) const;

  // The largest bound at either end of any piece.
  double worst_uncertainty_ns() const;

 private:
  const TransformPiece& piece_at(model::Nanoseconds t) const;
  std::vector<TransformPiece> pieces_;
};

}  // namespace tracesync::apply
