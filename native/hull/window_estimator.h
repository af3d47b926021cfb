// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <memory>
#include <optional>

#include "hull/exact_hull_estimator.h"
#include "hull/slope_one_bounds.h"

namespace tracesync::hull {

// Jabbarifar's window-based approaches (thesis ch. 3.6.3): messages are
// grouped into disjoint windows of a's time, each window is analysed with
// the exact hull, and the published estimate changes only when a window
// closes (when a message of a later window arrives, or at finish()).
//
// - independent: each window on its own; the last closed window is published.
// - replace: a closed window replaces the published one when its quality is
//   better, or equal with a strictly smaller accuracy (thesis eq. 3.14).
// - correlated: the hull carries over from window to window (its vertices
//   are the "accurate packets" the thesis transfers), so each close
//   publishes the exact hull of everything so far.
//
// Windows are aligned on the a-time of the first message the link sees. A
// message for an earlier window than the current one (out of order) joins
// the current window.
enum class WindowPolicy { kIndependent, kReplace, kCorrelated };

class WindowEstimator final : public LinkEstimator {
 public:
  WindowEstimator(WindowPolicy policy, model::Nanoseconds window);

  std::string_view algorithm() const override;
  bool add(const LinkMessage& message) override;
  bool finish() override;
  LinkEstimate estimate() const override;
  std::optional<model::Quad> offset_uncertainty(const TimeSpan& span) const override;
  HullPoints hull_points() const override;

  uint64_t windows_closed() const { return windows_closed_; }

 private:
  bool close_window();
  model::Int128 window_of(model::Nanoseconds x) const;

  WindowPolicy policy_;
  model::Nanoseconds window_;
  std::optional<model::Nanoseconds> origin_;
  std::optional<model::Int128> current_window_;
  std::unique_ptr<ExactHullEstimator> current_ = std::make_unique<ExactHullEstimator>();
  bool current_has_unpublished_ = false;
  std::unique_ptr<ExactHullEstimator> published_;
  SlopeOneBounds slope_one_;
  LinkCounters totals_;
  uint64_t windows_closed_ = 0;
};

}  // namespace tracesync::hull
