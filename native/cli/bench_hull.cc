// SPDX-License-Identifier: EPL-2.0
// `tracesync bench hull`: the incremental exact hull against the batch hull,
// and the piecewise estimator (the default clock model) against the exact
// hull on the same linear inputs, timed alternately in one run.

#include <algorithm>
#include <chrono>
#include <iostream>
#include <random>

#include <nlohmann/json.hpp>

#include "cli/bench_hull.h"
#include "hull/batch_hull.h"
#include "hull/exact_hull_estimator.h"
#include "hull/piecewise_hull_estimator.h"
#include "hull/synthetic_link.h"

namespace tracesync::cli {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// Runs f `repeat` times and returns the median wall time in seconds.
template <typename F>
double median_seconds(int repeat, F&& f) {
  std::vector<double> times;
  for (int i = 0; i < repeat; ++i) {
    const auto start = Clock::now();
    f();
    times.push_back(seconds_since(start));
  }
  return median(times);
}

}  // namespace

int run_bench_hull(const HullBenchOptions& options) {
  hull::SyntheticLink link;
  link.seed = options.seed;
  std::cerr << "generating " << options.messages << " messages...\n";
  const auto messages = hull::generate_messages(link, options.messages);
  auto shuffled = messages;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(options.seed));

  std::size_t hull_points = 0;
  uint64_t accurate = 0;
  auto incremental = [&](const std::vector<hull::LinkMessage>& input) {
    hull::ExactHullEstimator estimator;
    for (const auto& m : input) estimator.add(m);
    const auto e = estimator.estimate();
    hull_points = e.counters.lower_hull + e.counters.upper_hull;
    accurate = e.counters.accurate_messages;
  };
  std::size_t segments = 0;
  auto piecewise = [&](const std::vector<hull::LinkMessage>& input) {
    hull::PiecewiseHullEstimator estimator;
    for (const auto& m : input) estimator.add(m);
    segments = estimator.segment_count();
  };
  // Alternate the two estimators so that both see the same machine load.
  std::vector<double> exact_times, piecewise_times, exact_shuffled_times, piecewise_shuffled_times;
  for (int i = 0; i < options.repeat; ++i) {
    exact_times.push_back(median_seconds(1, [&] { incremental(messages); }));
    piecewise_times.push_back(median_seconds(1, [&] { piecewise(messages); }));
    exact_shuffled_times.push_back(median_seconds(1, [&] { incremental(shuffled); }));
    piecewise_shuffled_times.push_back(median_seconds(1, [&] { piecewise(shuffled); }));
  }
  const double in_order = median(exact_times);
  const double out_of_order = median(exact_shuffled_times);
  const double piecewise_in_order = median(piecewise_times);
  const double piecewise_shuffled = median(piecewise_shuffled_times);
  std::size_t batch_points = 0;
  const double batch = median_seconds(options.repeat, [&] {
    const auto b = hull::compute_batch_hull(messages);
    batch_points = b.lower_hull.size() + b.upper_hull.size();
  });

  const double n = static_cast<double>(options.messages);
  if (options.json) {
    nlohmann::ordered_json j = {{"format", "tracesync-bench-hull/1"},
                                {"messages", options.messages},
                                {"repeat", options.repeat},
                                {"hull_points", hull_points},
                                {"accurate_messages", accurate},
                                {"incremental_time_order_s", in_order},
                                {"incremental_shuffled_s", out_of_order},
                                {"batch_s", batch},
                                {"incremental_messages_per_s", n / in_order},
                                {"shuffled_messages_per_s", n / out_of_order},
                                {"batch_messages_per_s", n / batch},
                                {"incremental_over_batch", in_order / batch},
                                {"piecewise_time_order_s", piecewise_in_order},
                                {"piecewise_shuffled_s", piecewise_shuffled},
                                {"piecewise_segments", segments},
                                {"piecewise_over_incremental", piecewise_in_order / in_order},
                                {"piecewise_over_incremental_shuffled", piecewise_shuffled / out_of_order}};
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << "hull benchmark: " << options.messages << " messages (2 clocks, 25 ppm drift, 20 us + Exp(40 us) delays), "
              << "median of " << options.repeat << " runs\n"
              << "  incremental, arrival order  " << in_order << " s  " << n / in_order / 1e6 << " M msg/s\n"
              << "  incremental, shuffled       " << out_of_order << " s  " << n / out_of_order / 1e6 << " M msg/s\n"
              << "  batch (sort + monotone chain + tangents)  " << batch << " s  " << n / batch / 1e6 << " M msg/s\n"
              << "  incremental / batch time    " << in_order / batch << "\n"
              << "  piecewise, arrival order    " << piecewise_in_order << " s  (" << piecewise_in_order / in_order
              << " x incremental), " << segments << " segment(s)\n"
              << "  piecewise, shuffled         " << piecewise_shuffled << " s  (" << piecewise_shuffled / out_of_order
              << " x incremental)\n"
              << "  hull points kept " << hull_points << " (batch " << batch_points << "), accurate messages "
              << accurate << "\n";
  }
  return hull_points == batch_points && segments == 1 ? 0 : 1;
}

}  // namespace tracesync::cli
