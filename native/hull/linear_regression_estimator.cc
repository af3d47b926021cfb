// SPDX-License-Identifier: EPL-2.0
#include "hull/linear_regression_estimator.h"

#include <quadmath.h>

#include <algorithm>

namespace tracesync::hull {
namespace {

using model::Quad;

}  // namespace

std::optional<double> LinearRegressionEstimator::z_score(double confidence) {
  // Clément & Dagenais, Table 2.
  if (confidence == 0.90) return 1.64;
  if (confidence == 0.95) return 1.96;
  if (confidence == 0.99) return 2.58;
  return std::nullopt;
}

LinearRegressionEstimator::LinearRegressionEstimator(double confidence)
    : confidence_(confidence), z_(z_score(confidence).value_or(1.64)) {}

bool LinearRegressionEstimator::add(const LinkMessage& message) {
  messages_.push_back(message);
  slope_one_.add(message);
  if (message.is_lower()) ++lower_messages_;
  fit_.reset();
  return true;
}

const LinearRegressionEstimator::Fit& LinearRegressionEstimator::fit() const {
  if (fit_) return *fit_;
  Fit f;
  f.stats.confidence = confidence_;
  const std::vector<RoundTrip> trips = find_round_trips(messages_);
  f.stats.exchanges = trips.size();
  if (trips.size() < 3) return fit_.emplace(f);

  // Exclude round trips whose error margin is outside the confidence interval.
  Quad sum_e = 0, sum_e2 = 0;
  for (const RoundTrip& t : trips) {
    sum_e += t.error_margin;
    sum_e2 += t.error_margin * t.error_margin;
  }
  const Quad n_all = static_cast<Quad>(trips.size());
  const Quad mean_e = sum_e / n_all;
  const Quad stddev_e = sqrtq(std::max<Quad>(0, sum_e2 / n_all - mean_e * mean_e));
  std::vector<const RoundTrip*> used;
  for (const RoundTrip& t : trips) {
    if (fabsq(t.error_margin - mean_e) <= static_cast<Quad>(z_) * stddev_e) used.push_back(&t);
  }
  f.stats.used_exchanges = used.size();
  if (used.size() < 3) return fit_.emplace(f);

  // Times relative to the first measurement keep the sums well conditioned.
  Quad origin = used.front()->time;
  for (const RoundTrip* t : used) origin = std::min(origin, t->time);
  f.stats.origin = model::round_to_int64(origin);
  const Quad base = static_cast<Quad>(f.stats.origin);
  Quad st = 0, sd = 0, stt = 0, std_ = 0;
  for (const RoundTrip* t : used) {
    const Quad time = t->time - base;
    st += time;
    sd += t->offset;
    stt += time * time;
    std_ += time * t->offset;
  }
  const Quad n = static_cast<Quad>(used.size());
  const Quad denominator = n * stt - st * st;
  if (denominator <= 0) return fit_.emplace(f);  // every measurement at one instant

  f.stats.drift = (n * std_ - st * sd) / denominator;            // eq. 4
  f.stats.offset_at_origin = (stt * sd - st * std_) / denominator;  // eq. 5
  Quad squares = 0;
  for (const RoundTrip* t : used) {
    const Quad residual = t->offset - f.stats.drift * (t->time - base) - f.stats.offset_at_origin;
    squares += residual * residual;
  }
  f.stats.residual_stddev = sqrtq(squares / (n - 2));                 // eq. 6
  f.stats.e_ij = f.stats.residual_stddev * sqrtq(stt / denominator);  // eq. 7
  f.stats.e_d0 = f.stats.residual_stddev * sqrtq(n / denominator);    // eq. 8
  f.mean_time = st / n;
  f.time_spread = stt - st * st / n;
  f.usable = true;
  return fit_.emplace(f);
}

LinkEstimate LinearRegressionEstimator::estimate() const {
  LinkEstimate e;
  e.counters.messages = messages_.size();
  e.counters.lower_messages = lower_messages_;
  e.counters.upper_messages = messages_.size() - lower_messages_;
  if (messages_.empty()) return e;
  const Fit& f = fit();
  e.regression = f.stats;
  e.counters.accurate_messages = 2 * f.stats.used_exchanges;
  e.counters.contradictions = f.stats.exchanges - f.stats.used_exchanges;
  if (!f.usable) {
    e.quality = Quality::kIncomplete;
    e.beta = slope_one_.offset();
    return e;
  }
  // y = x + D(x) with D(x) = X (x - origin) + D(origin).
  const Quad origin = static_cast<Quad>(f.stats.origin);
  const Quad x_mean = origin + f.mean_time;
  const Quad half_width = static_cast<Quad>(z_) * f.stats.e_d0;
  auto line_with_drift = [&](Quad drift) {
    // Through the fit's centroid, where the fitted offset is best known.
    const Quad y_mean = x_mean + f.stats.drift * f.mean_time + f.stats.offset_at_origin;
    return Line{1 + drift, y_mean - (1 + drift) * x_mean};
  };
  e.quality = Quality::kAccurate;
  e.alpha = 1 + f.stats.drift;
  e.beta = f.stats.offset_at_origin - f.stats.drift * origin;
  e.lmin = line_with_drift(f.stats.drift - half_width);
  e.lmax = line_with_drift(f.stats.drift + half_width);
  e.accuracy = 2 * half_width;
  return e;
}

std::optional<Quad> LinearRegressionEstimator::offset_uncertainty(const TimeSpan& span) const {
  if (messages_.empty()) return std::nullopt;
  const Fit& f = fit();
  if (!f.usable) return std::nullopt;
  const Quad n = static_cast<Quad>(f.stats.used_exchanges);
  Quad worst = 0;
  for (const model::Nanoseconds x : {span.first, span.last}) {
    const Quad from_mean = static_cast<Quad>(x) - static_cast<Quad>(f.stats.origin) - f.mean_time;
    const Quad half_width =
        static_cast<Quad>(z_) * f.stats.residual_stddev * sqrtq(1 / n + from_mean * from_mean / f.time_spread);
    worst = std::max(worst, half_width);
  }
  return worst;
}

HullPoints LinearRegressionEstimator::hull_points() const { return {}; }  // no hull

}  // namespace tracesync::hull
