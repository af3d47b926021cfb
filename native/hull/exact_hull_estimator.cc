// SPDX-License-Identifier: EPL-2.0
#include "hull/exact_hull_estimator.h"

#include <algorithm>

#include "hull/local_envelope.h"

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

ExactHullEstimator::ExactHullEstimator(ClockStability stability, Envelope envelope)
    : stability_(stability) {
  if (stability.ppm > 0 && envelope == Envelope::kOwn) envelope_.emplace(stability);
}

bool ExactHullEstimator::moves_nothing(const Point& p, bool lower) const {
  // On the allowed side of both extreme lines (so both exist), p cannot lie
  // under (or, upper, over) a point of the other direction at its abscissa
  // either: lmin and lmax are feasible, so that point q has, for a lower p,
  // q.y <= lmax(x) <= p.y. Nothing moves, nothing empties: no query at all.
  if (!lmin_ || !lmax_) return false;
  const int forbidden = lower ? -1 : 1;  // lower points must not be below a line
  // From the lines' right points on, lmax runs on or above lmin: at lmax's
  // right point (a lower one) lmin passes on or below it, at lmin's (an
  // upper one) lmax on or above it, and lmax - lmin grows with x. There a
  // lower point on or above lmax is above lmin too, and an upper point on
  // or below lmin is below lmax: one side test settles both (time order).
  const ExactLine& nearer = lower ? *lmax_ : *lmin_;
  if (p.x >= std::min(lmin_->right.x, lmax_->right.x) && nearer.side_of(p) != forbidden) return true;
  // Elsewhere both tests, combined without a branch between them.
  const ExactLine& farther = lower ? *lmin_ : *lmax_;
  return (nearer.side_of(p) != forbidden) & (farther.side_of(p) != forbidden);
}

ExactHullEstimator::Step ExactHullEstimator::step_for(const Point& p, bool lower) const {
  const ConvexChain& other_hull = lower ? upper_hull_ : lower_hull_;
  // New pairs involve p and the other direction's points only, and only
  // lines p crosses can move (moves_nothing() rules out the common case).
  const int forbidden = lower ? -1 : 1;
  Step step;
  const bool crosses_lmax = !lmax_ || lmax_->side_of(p) == forbidden;
  const bool crosses_lmin = !lmin_ || lmin_->side_of(p) == forbidden;
  if (crosses_lmax) {
    // alpha_max: min slope from an upper point left of a lower point.
    if (const auto v = other_hull.tangent(p, lower ? Side::kLeftOf : Side::kRightOf)) {
      const ExactLine candidate = lower ? ExactLine{*v, p} : ExactLine{p, *v};
      if (tighter(lmax_, candidate, -1)) step.lmax = candidate;
    }
  }
  if (crosses_lmin) {
    // alpha_min: max slope from a lower point left of an upper point.
    if (const auto v = other_hull.tangent(p, lower ? Side::kRightOf : Side::kLeftOf)) {
      const ExactLine candidate = lower ? ExactLine{p, *v} : ExactLine{*v, p};
      if (tighter(lmin_, candidate, +1)) step.lmin = candidate;
    }
  }
  if (const auto twin = other_hull.vertex_at(p.x)) {  // a lower point under an upper one
    step.empties = lower ? p.y < twin->y : p.y > twin->y;
  }
  if (step.changed()) {
    const std::optional<ExactLine>& lmin = step.lmin ? step.lmin : lmin_;
    const std::optional<ExactLine>& lmax = step.lmax ? step.lmax : lmax_;
    if (lmin && lmax && model::compare(lmin->slope(), lmax->slope()) > 0) step.empties = true;
  }
  return step;
}

void ExactHullEstimator::commit(const Step& step) {
  if (!step.changed()) return;
  if (step.lmin) lmin_ = step.lmin;
  if (step.lmax) lmax_ = step.lmax;
  ++counters_.accurate_messages;
}

void ExactHullEstimator::count(const LinkMessage& message) {
  ++counters_.messages;
  ++(message.is_lower() ? counters_.lower_messages : counters_.upper_messages);
  slope_one_.add(message);
  if (envelope_ && !envelope_->add(message)) ++counters_.late_messages;
}

void ExactHullEstimator::settle(model::Nanoseconds frontier) {
  if (envelope_) envelope_->settle(frontier);
}

void ExactHullEstimator::end_input() {
  if (envelope_) envelope_->end_input();
}

void ExactHullEstimator::start_envelope(const MessageLog& taken, model::Nanoseconds frontier) {
  if (envelope_ || stability_.ppm <= 0) return;
  envelope_.emplace(stability_);
  taken.for_each_in_rule_order([&](const LinkMessage& m) { envelope_->add(m); });
  envelope_->settle(frontier);
  envelope_cache_.reset();
}

bool ExactHullEstimator::add(const LinkMessage& message) {
  count(message);
  return place(message);
}

void ExactHullEstimator::merge(const ExactHullEstimator& other) {
  // The hull of a union is the hull of the hulls: other's vertices move
  // the extreme lines as all its messages did.
  for (const Point& p : other.lower_hull_.vertices()) place(LinkMessage{Direction::kAtoB, p});
  for (const Point& p : other.upper_hull_.vertices()) place(LinkMessage{Direction::kBtoA, p});
  counters_.messages += other.counters_.messages;
  counters_.lower_messages += other.counters_.lower_messages;
  counters_.upper_messages += other.counters_.upper_messages;
  slope_one_.merge(other.slope_one_);
  counters_.late_messages += other.counters_.late_messages;
  if (envelope_ && other.envelope_) {
    envelope_->merge(*other.envelope_);
    envelope_cache_.reset();
  }
}

bool ExactHullEstimator::place(const LinkMessage& message) {
  const Point p = message.point;
  const bool lower = message.is_lower();
  ConvexChain& own_hull = lower ? lower_hull_ : upper_hull_;

  if (region_empty_) {
    count_contradiction(message);
    own_hull.insert(p);
    return false;
  }

  if (moves_nothing(p, lower)) {  // the common case: no Step to build
    own_hull.insert(p);
    return false;
  }
  const Step step = step_for(p, lower);
  if (step.empties) {
    const bool was_accurate = accurate_now();
    if (was_accurate) kept_.emplace(KeptEstimate{*lmin_, *lmax_, FeasibleRegion(lower_hull_, upper_hull_, *lmin_, *lmax_)});
    emptied_by_ = Contradiction{message, pinning_messages(lmin_, lmax_)};
    region_empty_ = true;
    count_contradiction(message);
    own_hull.insert(p);
    return true;  // the quality changed
  }

  commit(step);
  own_hull.insert(p);
  return step.changed();
}

std::optional<bool> ExactHullEstimator::add_unless_emptied(const LinkMessage& message) {
  if (region_empty_) return std::nullopt;
  const Point p = message.point;
  const bool lower = message.is_lower();
  if (moves_nothing(p, lower)) {  // the common case: no Step to build
    count(message);
    (lower ? lower_hull_ : upper_hull_).insert(p);
    return false;
  }
  const Step step = step_for(p, lower);
  if (step.empties) return std::nullopt;
  count(message);
  commit(step);
  (lower ? lower_hull_ : upper_hull_).insert(p);
  return step.changed();
}

std::vector<Contradiction> ExactHullEstimator::contradictions() const {
  if (!emptied_by_) return {};
  return {*emptied_by_};
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

std::optional<TimeSpan> ExactHullEstimator::message_span() const {
  // The leftmost and rightmost messages of each direction are hull vertices.
  std::optional<TimeSpan> span;
  for (const ConvexChain* chain : {&lower_hull_, &upper_hull_}) {
    if (chain->empty()) continue;
    const auto v = chain->vertices();
    span = span ? TimeSpan{std::min(span->first, v.front().x), std::max(span->last, v.back().x)}
                : TimeSpan{v.front().x, v.back().x};
  }
  return span;
}

TimeSpan ExactHullEstimator::covered(const TimeSpan& span) const {
  const auto messages = message_span();
  if (!messages) return span;
  return {std::min(span.first, messages->first), std::max(span.last, messages->last)};
}

std::optional<EndBounds> ExactHullEstimator::end_bounds(const TimeSpan& span) const {
  const auto band = band_bounds(span);
  if (!band || !envelope_ || quality() != Quality::kAccurate) return band;
  const TimeSpan over = covered(span);
  if (!envelope_cache_ || envelope_cache_->revision != envelope_->revision() || !(envelope_cache_->over == over)) {
    envelope_cache_ = EnvelopeCache{envelope_->revision(), over, envelope_->bound(estimate(), over)};
  }
  return tightest(*band, envelope_cache_->value);
}

std::optional<EndBounds> ExactHullEstimator::band_bounds(const TimeSpan& span) const {
  const Quality q = quality();
  if (q != Quality::kAccurate && q != Quality::kApproximate) return std::nullopt;
  model::Nanoseconds slack = 0;
  if (stability_.ppm > 0) {
    const TimeSpan whole = covered(span);
    slack = stability_.slack(whole.last - whole.first);
  }
  if (q == Quality::kAccurate) return relaxed_end_bounds(lower_hull_, upper_hull_, *lmin_, *lmax_, span, slack);
  // APPROXIMATE: the kept estimate's own spread, widened by how far the
  // messages that contradict it lie from it, and by the slack.
  auto at = [&](model::Nanoseconds x) {
    const Quad estimate = (kept_->lmin.at(x) + kept_->lmax.at(x)) / 2;
    return std::max({Quad{0}, kept_->region.highest_at(x) - estimate, estimate - kept_->region.lowest_at(x)});
  };
  const Quad wider = kept_->worst_violation + static_cast<Quad>(slack);
  return EndBounds{at(span.first) + wider, at(span.last) + wider};
}

std::optional<Quad> ExactHullEstimator::offset_uncertainty(const TimeSpan& span) const {
  const auto bounds = end_bounds(span);
  if (!bounds) return std::nullopt;
  return std::max(bounds->first, bounds->last);
}

HullPoints ExactHullEstimator::hull_points() const { return {lower_hull_.vertices(), upper_hull_.vertices()}; }

std::vector<LinkMessage> pinning_messages(const std::optional<ExactLine>& lmin, const std::optional<ExactLine>& lmax) {
  std::vector<LinkMessage> out;
  if (lmin) {
    out.push_back({Direction::kAtoB, lmin->left});
    out.push_back({Direction::kBtoA, lmin->right});
  }
  if (lmax) {
    for (const LinkMessage m : {LinkMessage{Direction::kBtoA, lmax->left}, LinkMessage{Direction::kAtoB, lmax->right}}) {
      // A message may pin both lines: named once.
      if (std::none_of(out.begin(), out.end(),
                       [&](const LinkMessage& o) { return o.direction == m.direction && o.point == m.point; })) {
        out.push_back(m);
      }
    }
  }
  return out;
}

}  // namespace tracesync::hull
