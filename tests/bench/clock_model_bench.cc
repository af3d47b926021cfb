// SPDX-License-Identifier: EPL-2.0
// Accuracy of the clock models on clocks that are not linear: for each kind
// of rate change and each duration, the worst true error and the largest
// reported bound of the piecewise model (the default), the linear model
// (one exact hull per link) and linreg, on the same messages. Figures only.
//
//   clock_model_bench [MEAN_GAP_US] [HOURS_MAX]
//
// MEAN_GAP_US: mean time between messages (default 1000: 3.6 million
// messages per hour); durations 1 min, 10 min, 1 h, then 6 h and 24 h when
// HOURS_MAX allows (default 1).

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "hull/clock_stability.h"
#include "hull/exact_hull_estimator.h"
#include "hull/linear_regression_estimator.h"
#include "hull/piecewise_hull_estimator.h"
#include "hull/synthetic_clock.h"

namespace {

using namespace tracesync::hull;
using tracesync::model::Quad;

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kMinute = 60 * kSecond;
constexpr int64_t kHour = 60 * kMinute;

SyntheticClock clock_of(const std::string& model, int64_t duration) {
  SyntheticClock clock;
  if (model == "one 1 ppm step") clock.steps = {{duration / 2, 1.0}};
  if (model == "steps" || model == "combined") {
    const int64_t every = std::max(kMinute, duration / 6);
    double sign = 1;
    for (int64_t at = every / 2; at < duration; at += every, sign = -sign) clock.steps.push_back({at, 0.8 * sign});
  }
  if (model == "slews" || model == "combined") {
    const int64_t every = std::max(20 * kSecond, duration / 4);
    double sign = 1;
    for (int64_t at = every / 3; at < duration; at += every, sign = -sign) {
      clock.slews.push_back({at, 5 * kSecond, 50 * sign});
    }
  }
  if (model == "wander" || model == "combined") clock.wander = {0.3, static_cast<double>(2 * kHour), 1.0};
  return clock;
}

struct Figures {
  double error_us = 0;
  double bound_us = 0;
  std::size_t segments = 0;
};

// The worst |truth - estimate| and the largest bound over the span, at every
// message and at 10,000 sampled instants.
Figures measure(const LinkEstimator& estimator, const SyntheticClock& clock, const std::vector<int64_t>& instants,
                const TimeSpan& span, bool piecewise) {
  Figures f;
  if (piecewise) {
    const auto map = estimator.clock_map(span);
    if (!map) return {-1, -1, 0};
    for (const int64_t x : instants) {
      const auto right = std::lower_bound(map->begin(), map->end(), x,
                                          [](const Knot& k, int64_t v) { return k.x < v; });
      Quad y = right->y, bound = right->bound;
      if (right->x != x) {
        const Knot& a = *std::prev(right);
        const Quad t = static_cast<Quad>(x - a.x) / static_cast<Quad>(right->x - a.x);
        y = a.y + (right->y - a.y) * t;
        bound = a.bound + (right->bound - a.bound) * t;
      }
      f.error_us = std::max(f.error_us, static_cast<double>(tracesync::model::abs(clock.b_at(x) - y)) / 1000);
      f.bound_us = std::max(f.bound_us, static_cast<double>(bound) / 1000);
    }
    return f;
  }
  const LinkEstimate e = estimator.estimate();
  for (const int64_t x : instants) {
    const Quad y = e.alpha * static_cast<Quad>(x) + e.beta;
    f.error_us = std::max(f.error_us, static_cast<double>(tracesync::model::abs(clock.b_at(x) - y)) / 1000);
  }
  const auto bound = estimator.offset_uncertainty(span);
  f.bound_us = bound ? static_cast<double>(*bound) / 1000 : -1;
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  const double mean_gap_us = argc > 1 ? std::atof(argv[1]) : 1000;
  const double hours_max = argc > 2 ? std::atof(argv[2]) : 1;
  std::printf("clock-model accuracy: mean gap %.0f us, delays 20 us + Exp(40 us), stability %.1f ppm band, "
              "%.0f ppm rate limit\n",
              mean_gap_us, ClockStability::kDefaultPpm, ClockStability::kMaxRateErrorPpm);
  std::printf("%-16s %8s %9s | %10s %10s %4s | %10s %10s | %10s %10s\n", "clock", "duration", "messages",
              "pw error", "pw bound", "segs", "lin error", "lin bound", "lr error", "lr bound");
  for (const std::string model : {"one 1 ppm step", "steps", "slews", "wander", "combined"}) {
    for (const int64_t duration : {kMinute, 10 * kMinute, kHour, 6 * kHour, 24 * kHour}) {
      if (static_cast<double>(duration) > hours_max * kHour) continue;
      const SyntheticClock clock = clock_of(model, duration);
      SyntheticTraffic traffic;
      traffic.duration_ns = duration;
      traffic.mean_gap_ns = mean_gap_us * 1000;
      const auto messages = generate_traffic(clock, traffic);
      const TimeSpan span{clock.start_ns, clock.start_ns + duration};
      std::vector<int64_t> instants;
      for (const auto& m : messages) instants.push_back(m.point.x);
      std::mt19937_64 rng(7);
      std::uniform_int_distribution<int64_t> anywhere(span.first, span.last);
      for (int i = 0; i < 10000; ++i) instants.push_back(anywhere(rng));

      PiecewiseHullEstimator piecewise;
      ExactHullEstimator linear(ClockStability{ClockStability::kDefaultPpm});
      LinearRegressionEstimator linreg(0.90);
      for (const auto& m : messages) {
        piecewise.add(m);
        linear.add(m);
        linreg.add(m);
      }
      Figures pw = measure(piecewise, clock, instants, span, true);
      const Figures lin = measure(linear, clock, instants, span, false);
      const Figures lr = measure(linreg, clock, instants, span, false);
      std::printf("%-16s %7.0fs %9zu | %10.1f %10.1f %4zu | %10.1f %10.1f | %10.1f %10.1f\n", model.c_str(),
                  static_cast<double>(duration) / kSecond, messages.size(), pw.error_us, pw.bound_us,
                  piecewise.segment_count(), lin.error_us, lin.bound_us, lr.error_us, lr.bound_us);
      std::fflush(stdout);
    }
  }
  return 0;
}
