#pragma once

#include <optional>
#include <vector>

#include "model/linear_transform.h"

namespace tracesync::simulate {

// A host's clock: local = start + offset + (true - start) * (1 + drift),
// with drift in ppm, optionally switching to another drift at a given true
// time (the clock stays continuous). Kept as transforms of true time, in
// quad precision; a reading is rounded to the nearest ns, as a clock that
// ticks in ns would show it.
class HostClock {
 public:
  // One piece of the clock: from true time `from_true_ns` on, local = transform(true).
  struct Segment {
    model::Nanoseconds from_true_ns = 0;
    model::LinearTransform true_to_local;
  };

  HostClock(model::Nanoseconds start_ns, int64_t offset_ns, double drift_ppm,
            std::optional<model::Nanoseconds> change_at_ns = std::nullopt, double drift_after_change_ppm = 0);

  // The exact local time at a true time, and the reading the host records.
  model::Quad local_exact(model::Nanoseconds true_ns) const { return segment_at(true_ns).true_to_local.apply(true_ns); }
  model::Nanoseconds local_ns(model::Nanoseconds true_ns) const { return model::round_to_int64(local_exact(true_ns)); }

  const std::vector<Segment>& segments() const { return segments_; }
  int64_t offset_ns() const { return offset_ns_; }
  double drift_ppm() const { return drift_ppm_; }
  const std::optional<model::Nanoseconds>& change_at_ns() const { return change_at_ns_; }
  double drift_after_change_ppm() const { return drift_after_change_ppm_; }

 private:
  const Segment& segment_at(model::Nanoseconds true_ns) const {
    return segments_.size() > 1 && true_ns >= segments_[1].from_true_ns ? segments_[1] : segments_[0];
  }

  int64_t offset_ns_;
  double drift_ppm_;
  std::optional<model::Nanoseconds> change_at_ns_;
  double drift_after_change_ppm_;
  std::vector<Segment> segments_;  // one, or two when the drift changes
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
