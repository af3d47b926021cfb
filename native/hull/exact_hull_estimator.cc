#include "hull/exact_hull_estimator.h"

#include <algorithm>

namespace tracesync::hull {
namespace {

using model::Point;
using model::Quad;

// The candidate replaces `current` when it is strictly tighter in the
// direction `sign` (-1: smaller slope wanted, +1: larger).
bool tighter(const std::optional<ExactLine>& current, const ExactLine& candidate, int sign) {
  return !current || sign * model::compare(candidate.slope(), current->slope()) > 0;
}

}  // namespace

ExactHullEstimator::ExactHullEstimator() = default;

bool ExactHullEstimator::add(const LinkMessage& message) {
  const Point p = message.point;
  const bool lower = message.is_lower();
  ++counters_.messages;
  ++(lower ? counters_.lower_messages : counters_.upper_messages);
  slope_one_.add(message);
  ConvexChain& own_hull = lower ? lower_hull_ : upper_hull_;
  const ConvexChain& other_hull = lower ? upper_hull_ : lower_hull_;

  if (region_empty_) {
    count_contradiction(message);
    own_hull.insert(p);
    return false;
  }

  // New pairs involve p and the other direction's points only; a point on
  // the allowed side of a line cannot move it (the common case: no query).
  std::optional<ExactLine> lmax = lmax_;
  std::optional<ExactLine> lmin = lmin_;
  bool changed = false;
  const int forbidden = lower ? -1 : 1;  // lower points must not be below a line
  if (!lmax || lmax->side_of(p) == forbidden) {
    // alpha_max: min slope from an upper point left of a lower point.
    if (const auto v = other_hull.tangent(p, lower ? Side::kLeftOf : Side::kRightOf)) {
      const ExactLine candidate = lower ? ExactLine{*v, p} : ExactLine{p, *v};
      if (tighter(lmax, candidate, -1)) {
        lmax = candidate;
        changed = true;
      }
    }
  }
  if (!lmin || lmin->side_of(p) == forbidden) {
    // alpha_min: max slope from a lower point left of an upper point.
    if (const auto v = other_hull.tangent(p, lower ? Side::kRightOf : Side::kLeftOf)) {
      const ExactLine candidate = lower ? ExactLine{p, *v} : ExactLine{*v, p};
      if (tighter(lmin, candidate, +1)) {
        lmin = candidate;
        changed = true;
      }
    }
  }
  bool empties = false;
  if (const auto twin = other_hull.vertex_at(p.x)) {  // a lower point under an upper one
    empties = lower ? p.y < twin->y : p.y > twin->y;
  }
  if (changed && lmin && lmax && model::compare(lmin->slope(), lmax->slope()) > 0) empties = true;

  if (empties) {
    const bool was_accurate = accurate_now();
    if (was_accurate) kept_.emplace(KeptEstimate{*lmin_, *lmax_, FeasibleRegion(lower_hull_, upper_hull_, *lmin_, *lmax_)});
    region_empty_ = true;
    count_contradiction(message);
    own_hull.insert(p);
    return true;  // the quality changed
  }

  if (changed) {
    lmin_ = lmin;
    lmax_ = lmax;
    ++counters_.accurate_messages;
  }
  own_hull.insert(p);
  return changed;
}

void ExactHullEstimator::count_contradiction(const LinkMessage& message) {
  if (!kept_) {
    ++counters_.contradictions;
    return;
  }
  const int wrong_side = message.is_lower() ? -1 : 1;
  if (side_of_bisector(kept_->lmin, kept_->lmax, message.point) != wrong_side) return;
  ++counters_.contradictions;
  const Quad estimate = (kept_->lmin.at(message.point.x) + kept_->lmax.at(message.point.x)) / 2;
  kept_->worst_violation = std::max(kept_->worst_violation, model::abs(static_cast<Quad>(message.point.y) - estimate));
}

Quality ExactHullEstimator::quality() const {
  if (counters_.messages == 0) return Quality::kAbsent;
  if (region_empty_) return kept_ ? Quality::kApproximate : Quality::kFail;
  if (lmin_ && lmax_) return Quality::kAccurate;
  return Quality::kIncomplete;
}

LinkEstimate ExactHullEstimator::bisector_estimate(const ExactLine& lmin, const ExactLine& lmax) const {
  LinkEstimate e;
  e.lmin = lmin.to_line();
  e.lmax = lmax.to_line();
  e.alpha = (e.lmin->slope + e.lmax->slope) / 2;
  e.beta = (e.lmin->intercept + e.lmax->intercept) / 2;
  e.accuracy = model::difference(lmax.slope(), lmin.slope());
  return e;
}

LinkEstimate ExactHullEstimator::estimate() const {
  const Quality q = quality();
  LinkEstimate e;
  if (q == Quality::kAccurate) {
    e = bisector_estimate(*lmin_, *lmax_);
  } else if (q == Quality::kApproximate) {
    e = bisector_estimate(kept_->lmin, kept_->lmax);
  } else if (q != Quality::kAbsent) {
    e.beta = slope_one_.offset();
    if (lmin_) e.lmin = lmin_->to_line();
    if (lmax_) e.lmax = lmax_->to_line();
  }
  e.quality = q;
  e.counters = counters_;
  e.counters.lower_hull = lower_hull_.size();
  e.counters.upper_hull = upper_hull_.size();
  return e;
}

std::optional<Quad> ExactHullEstimator::uncertainty_of(const FeasibleRegion& region, const ExactLine& lmin,
                                                       const ExactLine& lmax, const TimeSpan& span) {
  Quad worst = 0;
  for (const model::Nanoseconds x : {span.first, span.last}) {
    const Quad estimate = (lmin.at(x) + lmax.at(x)) / 2;
    worst = std::max({worst, region.highest_at(x) - estimate, estimate - region.lowest_at(x)});
  }
  return worst;
}

std::optional<Quad> ExactHullEstimator::offset_uncertainty(const TimeSpan& span) const {
  switch (quality()) {
    case Quality::kAccurate:
      return uncertainty_of(FeasibleRegion(lower_hull_, upper_hull_, *lmin_, *lmax_), *lmin_, *lmax_, span);
    case Quality::kApproximate:
      // The kept estimate's own spread, widened by how far the messages
      // that contradict it lie from it.
      return *uncertainty_of(kept_->region, kept_->lmin, kept_->lmax, span) + kept_->worst_violation;
    default:
      return std::nullopt;
  }
}

HullPoints ExactHullEstimator::hull_points() const { return {lower_hull_.vertices(), upper_hull_.vertices()}; }

}  // namespace tracesync::hull
