// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "hull/quality.h"
#include "model/linear_transform.h"
#include "model/point.h"
#include "model/quad.h"

namespace tracesync::hull {

// y = slope * x + intercept (x on a's clock, y on b's).
struct Line {
  model::Quad slope = 1;
  model::Quad intercept = 0;

  model::Quad at(model::Nanoseconds x) const { return slope * static_cast<model::Quad>(x) + intercept; }
};

struct LinkCounters {
  uint64_t messages = 0;           // every message the link received
  uint64_t lower_messages = 0;     // a -> b
  uint64_t upper_messages = 0;     // b -> a
  uint64_t accurate_messages = 0;  // messages that changed the estimate
  uint64_t contradictions = 0;     // see ExactHullEstimator
  uint64_t lower_hull = 0;         // points kept for the a -> b bound
  uint64_t upper_hull = 0;         // points kept for the b -> a bound
  uint64_t late_messages = 0;      // behind the settled frontier: not in the envelope bound
};

// Clément & Dagenais' least-squares statistics (linreg estimator only).
// Times are relative to `origin` on a's clock.
struct RegressionStatistics {
  model::Nanoseconds origin = 0;
  uint64_t exchanges = 0;          // round trips found
  uint64_t used_exchanges = 0;     // inside the confidence interval
  double confidence = 0;           // 0.90, 0.95 or 0.99
  model::Quad drift = 0;           // X_ij, eq. 4
  model::Quad offset_at_origin = 0;  // D_ij(0), eq. 5
  model::Quad residual_stddev = 0;   // E_r, eq. 6
  model::Quad e_ij = 0;              // eq. 7: the standard error of D(0)
  model::Quad e_d0 = 0;              // eq. 8: the standard error of X
};

// What a link estimator knows at one moment.
struct LinkEstimate {
  Quality quality = Quality::kAbsent;
  model::Quad alpha = 1;                  // y ~ alpha * x + beta
  model::Quad beta = 0;
  std::optional<model::Quad> accuracy;  // alpha_max - alpha_min; none when unbounded
  std::optional<Line> lmin;             // (alpha_min, beta_max)
  std::optional<Line> lmax;             // (alpha_max, beta_min)
  LinkCounters counters;
  std::optional<RegressionStatistics> regression;

  // Maps b's time onto a's.
  model::LinearTransform b_onto_a() const { return model::b_onto_a(alpha, beta); }
};

// The points a link keeps, for plotting.
struct HullPoints {
  std::vector<model::Point> lower;  // a -> b messages on the lower hull
  std::vector<model::Point> upper;  // b -> a messages on the upper hull
};

// A closed span of a's clock: the times a link's estimate is used for.
struct TimeSpan {
  model::Nanoseconds first = 0;
  model::Nanoseconds last = 0;

  friend bool operator==(const TimeSpan&, const TimeSpan&) = default;
};

}  // namespace tracesync::hull
