// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <vector>

#include "hull/link_estimator.h"
#include "hull/round_trips.h"
#include "hull/slope_one_bounds.h"

namespace tracesync::hull {

// Clément & Dagenais (2009): least squares over round trips (eqs. 2-8), for
// comparison with the hull.
//
// Each round trip gives an offset measurement D_k at time T_k and an error
// margin E_k (half its network round trip). Round trips whose E_k lies
// outside mean +- z * stddev of all E (z = 1.64, 1.96, 2.58 for 90, 95,
// 99 %, their Table 2) are excluded, then D(t) = X t + D(0) is fitted.
// alpha = 1 + X. The paper's E_ij (eq. 7) and E_D0 (eq. 8) are reported
// as written; statistically eq. 7 is the standard error of D(0) and eq. 8
// that of X. The slope's confidence interval (X +- z * eq. 8) stands in
// for Lmin/Lmax and its width for the accuracy, and the offset uncertainty
// is the confidence half-width of the fitted mean offset at the span ends.
//
// The estimator keeps every message (it has no hull to prune with) and
// refits lazily when asked: O(n log n) per estimate.
class LinearRegressionEstimator final : public LinkEstimator {
 public:
  // confidence: 0.90, 0.95 or 0.99.
  explicit LinearRegressionEstimator(double confidence);

  std::string_view algorithm() const override { return "linreg"; }
  bool add(const LinkMessage& message) override;
  LinkEstimate estimate() const override;
  std::optional<model::Quad> offset_uncertainty(const TimeSpan& span) const override;
  HullPoints hull_points() const override;

  // z for a supported confidence level, or nullopt.
  static std::optional<double> z_score(double confidence);

 private:
  struct Fit {
    RegressionStatistics stats;
    model::Quad mean_time = 0;   // relative to stats.origin
    model::Quad time_spread = 0; // sum of (T - mean)^2
    bool usable = false;
  };
  const Fit& fit() const;

  double confidence_;
  double z_;
  std::vector<LinkMessage> messages_;
  SlopeOneBounds slope_one_;
  uint64_t lower_messages_ = 0;
  mutable std::optional<Fit> fit_;  // cache, reset by add()
};

}  // namespace tracesync::hull
