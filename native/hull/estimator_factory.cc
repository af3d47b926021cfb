// SPDX-License-Identifier: EPL-2.0
#include "hull/estimator_factory.h"

#include <cmath>

#include "hull/exact_hull_estimator.h"
#include "hull/linear_regression_estimator.h"
#include "hull/piecewise_hull_estimator.h"
#include "hull/window_estimator.h"

namespace tracesync::hull {

std::string_view to_string(ClockModel model) {
  return model == ClockModel::kLinear ? "linear" : "piecewise";
}

const std::vector<std::string_view>& estimator_names() {
  static const std::vector<std::string_view> names = {"hull", "linreg", "window-independent", "window-replace",
                                                      "window-correlated"};
  return names;
}

std::string validate(const EstimatorOptions& options) {
  bool known = false;
  for (const auto name : estimator_names()) known = known || name == options.algorithm;
  if (!known) {
    std::string list;
    for (const auto name : estimator_names()) list += (list.empty() ? "" : ", ") + std::string(name);
    return "unknown algorithm '" + options.algorithm + "' (choose one of: " + list + ")";
  }
  if (options.window <= 0) return "the window length must be positive";
  if (!LinearRegressionEstimator::z_score(options.confidence)) {
    return "the confidence level must be 90, 95 or 99 (%)";
  }
  if (!std::isfinite(options.clock_stability_ppm) || options.clock_stability_ppm < 0 ||
      options.clock_stability_ppm > ClockStability::kMaxRateErrorPpm) {
    return "the clock stability must be a number of ppm from 0 to " +
           std::to_string(static_cast<int>(ClockStability::kMaxRateErrorPpm));
  }
  if (options.link_budget && *options.link_budget == 0) return "the link budget must be at least one message";
  return {};
}

std::unique_ptr<LinkEstimator> make_estimator(const EstimatorOptions& options) {
  const std::string& a = options.algorithm;
  if (a == "linreg") return std::make_unique<LinearRegressionEstimator>(options.confidence);
  if (a == "window-independent") return std::make_unique<WindowEstimator>(WindowPolicy::kIndependent, options.window);
  if (a == "window-replace") return std::make_unique<WindowEstimator>(WindowPolicy::kReplace, options.window);
  if (a == "window-correlated") return std::make_unique<WindowEstimator>(WindowPolicy::kCorrelated, options.window);
  const ClockStability stability{options.clock_stability_ppm};
  if (options.clock_model == ClockModel::kPiecewise) {
    return std::make_unique<PiecewiseHullEstimator>(stability,
                                                    options.link_budget.value_or(PiecewiseHullEstimator::kKeepAtMost));
  }
  return std::make_unique<ExactHullEstimator>(stability);
}

}  // namespace tracesync::hull
