// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <utility>
#include <vector>

#include "model/point.h"
#include "model/quad.h"

namespace tracesync::simulate {

class HostClock;

// A host's true clock as truth.json describes it: piecewise linear in true
// time, continuous and increasing. From true time from_true_ns until the
// next piece, local = from_local + slope * (true - from_true_ns); the first
// piece also holds earlier times and the last one later times. Both ways
// are exact in quad precision (far below a nanosecond over days).
class TrueClock {
 public:
  struct Piece {
    model::Nanoseconds from_true_ns = 0;
    model::Quad from_local = 0;
    model::Quad slope = 1;
  };

  // pieces: non-empty, from_true_ns strictly increasing, slopes positive
  // (the reader checks; this constructor trusts).
  explicit TrueClock(std::vector<Piece> pieces) : pieces_(std::move(pieces)) {}
  // The clock a simulation runs, piece for piece.
  static TrueClock of(const HostClock& clock);

  model::Quad local_at(model::Quad true_time) const;
  // The inverse: the true time at which the clock shows `local`.
  model::Quad true_at(model::Quad local) const;

  const std::vector<Piece>& pieces() const { return pieces_; }

 private:
  std::vector<Piece> pieces_;
};

}  // namespace tracesync::simulate
