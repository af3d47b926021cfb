// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <vector>

#include "model/linear_transform.h"

namespace tracesync::simulate {

// A host's clock as a function of true time: its rate is constant in
// pieces, so the clock is piecewise linear and continuous, and any time maps
// exactly (in quad precision) by the piece that holds it:
//   local = start + offset at the start, then rising by (1 + drift_ppm * 1e-6)
//   per true ns, with the drift of the piece.
// Steps, slews and wander (clock_model.h) are all rate pieces; a wander is a
// smooth rate sampled in small constant steps, which keeps it exactly
// integrable. A reading is rounded to the nearest ns, as a clock that ticks
// in ns would show it.
class HostClock {
 public:
  // From true time `from_true_ns` on (until the next piece), the clock runs
  // drift_ppm ppm fast.
  struct RatePiece {
    model::Nanoseconds from_true_ns = 0;
    double drift_ppm = 0;
  };
  // One piece of the clock: from true time `from_true_ns` on, local = transform(true).
  struct Segment {
    model::Nanoseconds from_true_ns = 0;
    model::LinearTransform true_to_local;
    double drift_ppm = 0;
  };

  // A clock with one drift, optionally switching to another at a true time.
  HostClock(model::Nanoseconds start_ns, int64_t offset_ns, double drift_ppm,
            std::optional<model::Nanoseconds> change_at_ns = std::nullopt, double drift_after_change_ppm = 0);
  // A clock whose rate changes at every piece; `rates` is sorted by time, its
  // first piece starts at start_ns, and equal neighbouring drifts are merged.
  HostClock(model::Nanoseconds start_ns, int64_t offset_ns, const std::vector<RatePiece>& rates);

  // The exact local time at a true time, and the reading the host records.
  model::Quad local_exact(model::Nanoseconds true_ns) const { return segment_at(true_ns).true_to_local.apply(true_ns); }
  model::Nanoseconds local_ns(model::Nanoseconds true_ns) const { return model::round_to_int64(local_exact(true_ns)); }

  // The pieces in time order; the first holds every time before the second.
  const std::vector<Segment>& segments() const { return segments_; }
  const Segment& segment_at(model::Nanoseconds true_ns) const;
  int64_t offset_ns() const { return offset_ns_; }
  double drift_ppm() const { return segments_.front().drift_ppm; }  // at the start

 private:
  int64_t offset_ns_;
  std::vector<Segment> segments_;
};

// The slope of a clock running drift_ppm ppm fast: 1 + drift_ppm * 1e-6, in quad.
model::Quad slope_of_drift(double drift_ppm);

// A piece of the map from one host's local time onto another's.
struct TransformSegment {
  model::Nanoseconds from_true_ns = 0;
  model::Nanoseconds from_local_ns = 0;  // the mapped host's reading at from_true_ns
  model::LinearTransform transform;      // reference local = slope * local + offset
};

// The true map from `host`'s local time onto `reference`'s local time, piece
// by piece (a new piece wherever either clock changes drift), computed in
// quad: reference.after(host^-1).
std::vector<TransformSegment> transform_onto(const HostClock& host, const HostClock& reference);

}  // namespace tracesync::simulate
