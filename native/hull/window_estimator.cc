// SPDX-License-Identifier: EPL-2.0
#include "hull/window_estimator.h"

namespace tracesync::hull {
namespace {

int rank(Quality q) {
  switch (q) {
    case Quality::kAccurate: return 4;
    case Quality::kApproximate: return 3;
    case Quality::kIncomplete: return 2;
    case Quality::kFail: return 1;
    case Quality::kAbsent: return 0;
  }
  return 0;
}

// Thesis eq. 3.14: replace when the new window is better.
bool better(const LinkEstimate& candidate, const LinkEstimate& kept) {
  if (rank(candidate.quality) != rank(kept.quality)) return rank(candidate.quality) > rank(kept.quality);
  return candidate.accuracy && kept.accuracy && *candidate.accuracy < *kept.accuracy;
}

}  // namespace

WindowEstimator::WindowEstimator(WindowPolicy policy, model::Nanoseconds window) : policy_(policy), window_(window) {}

std::string_view WindowEstimator::algorithm() const {
  switch (policy_) {
    case WindowPolicy::kIndependent: return "window-independent";
    case WindowPolicy::kReplace: return "window-replace";
    case WindowPolicy::kCorrelated: return "window-correlated";
  }
  return "window";
}

model::Int128 WindowEstimator::window_of(model::Nanoseconds x) const {
  const model::Int128 delta = model::Int128{x} - *origin_;
  const model::Int128 w = delta / window_;
  return (delta % window_ != 0 && delta < 0) ? w - 1 : w;  // floor
}

bool WindowEstimator::add(const LinkMessage& message) {
  ++totals_.messages;
  ++(message.is_lower() ? totals_.lower_messages : totals_.upper_messages);
  slope_one_.add(message);
  if (!origin_) origin_ = message.point.x;
  const model::Int128 w = window_of(message.point.x);
  bool changed = false;
  if (!current_window_) {
    current_window_ = w;
  } else if (w > *current_window_) {
    changed = close_window();
    current_window_ = w;
  }
  current_->add(message);
  current_has_unpublished_ = true;
  return changed;
}

bool WindowEstimator::finish() { return current_has_unpublished_ && close_window(); }

bool WindowEstimator::close_window() {
  ++windows_closed_;
  current_has_unpublished_ = false;
  const LinkEstimate closed = current_->estimate();
  switch (policy_) {
    case WindowPolicy::kIndependent:
      published_ = std::move(current_);
      current_ = std::make_unique<ExactHullEstimator>();
      return true;
    case WindowPolicy::kReplace: {
      const bool replace = !published_ || better(closed, published_->estimate());
      if (replace) published_ = std::move(current_);
      current_ = std::make_unique<ExactHullEstimator>();
      return replace;
    }
    case WindowPolicy::kCorrelated:
      published_ = std::make_unique<ExactHullEstimator>(*current_);
      return true;
  }
  return false;
}

LinkEstimate WindowEstimator::estimate() const {
  LinkEstimate e;
  if (published_) {
    e = published_->estimate();
  } else if (totals_.messages > 0) {
    e.quality = Quality::kIncomplete;  // no window closed yet
    e.beta = slope_one_.offset();
  }
  // Counts of messages are the link's; hull and contradiction counts those
  // of the published window.
  e.counters.messages = totals_.messages;
  e.counters.lower_messages = totals_.lower_messages;
  e.counters.upper_messages = totals_.upper_messages;
  return e;
}

std::optional<model::Quad> WindowEstimator::offset_uncertainty(const TimeSpan& span) const {
  return published_ ? published_->offset_uncertainty(span) : std::nullopt;
}

HullPoints WindowEstimator::hull_points() const { return published_ ? published_->hull_points() : HullPoints{}; }

}  // namespace tracesync::hull
