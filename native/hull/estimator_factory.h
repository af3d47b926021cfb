// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hull/clock_stability.h"
#include "hull/link_estimator.h"

namespace tracesync::hull {

// DESIGN.md, "Clock model": piecewise (the default) splits each link's
// messages into segments, each with its own exact hull; linear keeps one line
// per link (Trace Compass's model).
enum class ClockModel { kPiecewise, kLinear };

std::string_view to_string(ClockModel model);

// How a session's links are estimated (`--algorithm`, `--window`,
// `--confidence`, `--clock-model`, `--clock-stability`).
struct EstimatorOptions {
  std::string algorithm = "hull";
  model::Nanoseconds window = 3'000'000'000;  // thesis: 3 s windows
  double confidence = 0.90;                   // Clément & Dagenais used 90 %
  ClockModel clock_model = ClockModel::kPiecewise;
  // The clock-stability assumption the bounds rest on (docs/clock-model.md,
  // hull/clock_stability.h): within a segment, and over a gap between two,
  // the rate of one clock against the other stays within a band this many
  // ppm wide. 0 takes the clocks to be linear (the exact hull's own bound).
  double clock_stability_ppm = ClockStability::kDefaultPpm;
  // The piecewise model's budget: the messages a link keeps before it
  // streams its local bands and releases what its frontier settles
  // (PiecewiseHullEstimator's keep_at_most; docs/local-band.md). Its answers
  // are the same either side of it, but for one per-segment number; it sets
  // when a link's memory and a result's cost stop growing. Empty: the
  // estimator's own (PiecewiseHullEstimator::kKeepAtMost), sync's.
  std::optional<std::size_t> link_budget = std::nullopt;
};

// Every name --algorithm accepts, the default first.
const std::vector<std::string_view>& estimator_names();

// A problem with the options, in words for the user; empty when they are fine.
std::string validate(const EstimatorOptions& options);

// A new estimator for one link; the options must be valid.
std::unique_ptr<LinkEstimator> make_estimator(const EstimatorOptions& options);

}  // namespace tracesync::hull
