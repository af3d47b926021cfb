// SPDX-License-Identifier: EPL-2.0
#include "hull/flat_envelope.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "hull/exact_hull_estimator.h"
#include "hull/local_envelope.h"

namespace tracesync::hull {
namespace {

using model::Nanoseconds;
using model::Point;
using model::Quad;

// Rounding of the double arithmetic, made up for as in local_envelope.cc:
// residuals within about 1e-6 ns of the quad ones, hull tests within 1e-9 ns.
constexpr double kRoundingMarginNs = 1e-3;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The first grid instant after `x`, the grid being `from` + k * step; the
// latest time when that lies beyond 64 bits (times may sit at either end).
Nanoseconds grid_after(Nanoseconds from, Nanoseconds x, Nanoseconds step) {
  const __int128 next = static_cast<__int128>(from) + ((static_cast<__int128>(x) - from) / step + 1) * step;
  constexpr Nanoseconds kLatest = std::numeric_limits<Nanoseconds>::max();
  return next > kLatest ? kLatest : static_cast<Nanoseconds>(next);
}

}  // namespace

bool FlatEnvelope::add(const LinkMessage& message) {
  if (spoiled_) return true;
  const Point p = message.point;
  if (cones_ && p.x < committed_to_) {
    ++late_;
    ++revision_;  // the estimate it is asked against has changed
    return false;
  }
  Points& pending = message.is_lower() ? pending_lower_ : pending_upper_;
  // Nearly always in order; a message a little early is inserted near the end.
  if (pending.empty() || !(p < pending.back())) {
    pending.push_back(p);
  } else {
    pending.insert(std::upper_bound(pending.begin(), pending.end(), p), p);
  }
  ++revision_;
  return true;
}

std::optional<Nanoseconds> FlatEnvelope::earliest_pending() const {
  if (pending_lower_.empty() && pending_upper_.empty()) return std::nullopt;
  if (pending_upper_.empty()) return pending_lower_.front().x;
  if (pending_lower_.empty()) return pending_upper_.front().x;
  return std::min(pending_lower_.front().x, pending_upper_.front().x);
}

void FlatEnvelope::settle(Nanoseconds frontier) {
  if (spoiled_) return;
  const auto earliest = [this] { return earliest_pending(); };
  if (!cones_) {
    const auto first = earliest();
    if (!first || static_cast<__int128>(frontier) < static_cast<__int128>(*first) + kEarlySpan) return;
    cones_ = cones_for(*first + kEarlySpan);
    next_commit_ = *first + kEarlySpan;
  }
  while (next_commit_ <= frontier) {
    commit_before(next_commit_);
    // A grid instant with no message before it since the last commit would
    // change nothing: skip to the first after the next pending message, but
    // not past the frontier (messages may still come before those).
    Nanoseconds next = grid_after(next_commit_, frontier, kCommitEvery);
    if (const auto e = earliest()) next = std::min(next, grid_after(next_commit_, *e, kCommitEvery));
    if (next <= next_commit_) break;  // the end of time: committed up to it
    next_commit_ = next;
  }
}

void FlatEnvelope::end_input() {
  if (spoiled_) return;
  if (!cones_) {
    // bound()'s test: without cones, a link shorter than kEarlySpan keeps
    // today's bound, over every pending message.
    const auto first = earliest_pending();
    Nanoseconds newest = std::numeric_limits<Nanoseconds>::min();
    if (!pending_lower_.empty()) newest = pending_lower_.back().x;
    if (!pending_upper_.empty()) newest = std::max(newest, pending_upper_.back().x);
    if (!first || newest < *first + kEarlySpan) return;
  }
  // The frontier at the end of time: settle() fixes the cones as bound()
  // does and commits cell by cell, each cell of the grid that holds a
  // pending message, as bound() makes them; the last commit, at the end of
  // time, leaves the barrier whose corner bound() would add.
  settle(std::numeric_limits<Nanoseconds>::max());
  lower_.corners.shrink_to_fit();
  upper_.corners.shrink_to_fit();
}

FlatEnvelope::Cones FlatEnvelope::cones_for(Nanoseconds cut) const {
  // The extreme lines of the messages before the cut (any subset's are
  // looser than the final ones), as the hull finds them.
  ExactHullEstimator early(stability_, ExactHullEstimator::Envelope::kNone);
  for (const Point& p : pending_lower_) {
    if (p.x >= cut) break;
    early.add({Direction::kAtoB, p});
  }
  for (const Point& p : pending_upper_) {
    if (p.x >= cut) break;
    early.add({Direction::kBtoA, p});
  }
  const Quad limit = static_cast<Quad>(ClockStability::kMaxRateErrorPpm) / 1'000'000;
  const Quad band = static_cast<Quad>(stability_.ppm) / 1'000'000;
  Quad slowest = 1 - limit;
  Quad fastest = 1 + limit;
  if (!early.region_empty()) {
    if (early.lmin()) slowest = std::max(slowest, early.lmin()->to_line().slope - band);
    if (early.lmax()) fastest = std::min(fastest, early.lmax()->to_line().slope + band);
  }
  if (!(slowest < fastest)) {  // messages against the rate limit: the limit alone
    slowest = 1 - limit;
    fastest = 1 + limit;
  }
  // The origin: the first message in the rule's order (a -> b first at one x).
  const bool lower_first = !pending_lower_.empty() &&
                           (pending_upper_.empty() || pending_lower_.front().x <= pending_upper_.front().x);
  const Point origin = lower_first ? pending_lower_.front() : pending_upper_.front();
  const Quad m0_minus_one = (fastest + slowest) / 2 - 1;
  // Rounded up: a cone a little wider is still honest.
  const double h = std::nextafter(static_cast<double>((fastest - slowest) / 2), kInfinity);
  return Cones{origin, m0_minus_one, static_cast<double>(m0_minus_one), h};
}

FlatEnvelope::Apex FlatEnvelope::apex_of(const Cones& cones, const Point& p, bool lower) {
  // As ConeEnvelope::add: exact integer differences, the small slope term
  // in double.
  const Nanoseconds dx = p.x - cones.origin.x;
  const Nanoseconds dy = p.y - cones.origin.y;
  const double r = static_cast<double>(dy - dx) - cones.reference_slope_minus_one * static_cast<double>(dx);
  return {static_cast<double>(dx), lower ? r : -r};
}

// The lower envelope of cones r + h |x - apex|, by x: a cone below the last
// one's at that one's apex removes it (not the barrier, the first `keep`).
void FlatEnvelope::push(std::vector<Apex>& stack, std::size_t keep, const Apex& cone, double h) {
  while (stack.size() > keep && cone.r + h * (cone.x - stack.back().x) <= stack.back().r) stack.pop_back();
  if (!stack.empty() && stack.back().r + h * (cone.x - stack.back().x) <= cone.r) return;  // under another
  stack.push_back(cone);
}

// U's corners over the stack, by x: every apex and, between two, where
// their cones meet (clamped between the apexes), as in local_envelope.cc.
template <typename Emit>
void FlatEnvelope::corners_of(const std::vector<Apex>& stack, double h, Emit&& emit) {
  for (std::size_t i = 0; i < stack.size(); ++i) {
    const Apex& a = stack[i];
    emit(a);
    if (i + 1 == stack.size()) break;
    const Apex& b = stack[i + 1];
    const double meet = (a.x + b.x) / 2 + (b.r - a.r) / (2 * h);
    const double x = std::clamp(meet, a.x, b.x);
    emit(Apex{x, std::min(a.r + h * (x - a.x), b.r + h * (b.x - x))});
  }
}

// The upper hull of the corners, which come by x: the largest U - L for
// any line L is at one of its vertices.
void FlatEnvelope::add_corner(std::vector<Apex>& hull, const Apex& c) {
  if (!hull.empty() && c.x <= hull.back().x) {
    if (c.r <= hull.back().r) return;
    hull.pop_back();
  }
  while (hull.size() >= 2) {
    const Apex& a = hull[hull.size() - 2];
    const Apex& b = hull.back();
    // b on or under the chord from a to c.
    if ((b.r - a.r) * (c.x - a.x) > (c.r - a.r) * (b.x - a.x)) break;
    hull.pop_back();
  }
  hull.push_back(c);
}

void FlatEnvelope::commit_before(Nanoseconds instant) {
  const double h = cones_->h;
  for (bool lower : {true, false}) {
    Side& side = lower ? lower_ : upper_;
    Points& pending = lower ? pending_lower_ : pending_upper_;
    bool moved = false;
    while (!pending.empty() && pending.front().x < instant) {
      const Apex cone = apex_of(*cones_, pending.front(), lower);
      pending.pop_front();
      side.left_min = side.any ? std::min(side.left_min, cone.r + h * cone.x) : cone.r + h * cone.x;
      side.right_min = side.any ? std::min(side.right_min, cone.r - h * cone.x) : cone.r - h * cone.x;
      side.any = true;
      push(side.stack, side.barrier ? 1 : 0, cone, h);
      moved = true;
    }
    if (!moved) continue;
    corners_of(side.stack, h, [&side](const Apex& c) { add_corner(side.corners, c); });
    // The last cone stays as the barrier: its right side bounds U beyond.
    side.stack.erase(side.stack.begin(), side.stack.end() - 1);
    side.barrier = true;
  }
  committed_to_ = instant;
  // The deques keep their emptied blocks' map; give memory back now and then.
  if (pending_lower_.empty()) pending_lower_.shrink_to_fit();
  if (pending_upper_.empty()) pending_upper_.shrink_to_fit();
}

void FlatEnvelope::merge(const FlatEnvelope& other) {
  ++revision_;
  late_ += other.late_;
  if (spoiled_ || other.spoiled_ || cones_ || other.cones_) {
    spoiled_ = true;
    pending_lower_ = {};
    pending_upper_ = {};
    lower_ = {};
    upper_ = {};
    return;
  }
  for (const Point& p : other.pending_lower_) add({Direction::kAtoB, p});
  for (const Point& p : other.pending_upper_) add({Direction::kBtoA, p});
}

Quad FlatEnvelope::bound(const LinkEstimate& e, const TimeSpan& over) const {
  if (spoiled_) return kInfinity;
  const Line line{e.alpha, e.beta};
  // Without a commit yet, the commits the frontier would have made: the
  // bound depends on the messages alone, not on the horizon or on when it is
  // asked. A link shorter than kEarlySpan keeps today's bound.
  std::optional<Cones> fixed = cones_;
  Nanoseconds next_commit = next_commit_;
  if (!fixed) {
    const auto first = earliest_pending();
    Nanoseconds newest = std::numeric_limits<Nanoseconds>::min();
    if (!pending_lower_.empty()) newest = pending_lower_.back().x;
    if (!pending_upper_.empty()) newest = std::max(newest, pending_upper_.back().x);
    if (!first || newest < *first + kEarlySpan) {
      return envelope_bound(pending_lower_, pending_upper_, line, over, cone_rate(e, stability_));
    }
    fixed = cones_for(*first + kEarlySpan);
    next_commit = *first + kEarlySpan;
  }
  const Cones& c = *fixed;
  // L - reference = off0 + d x, from the origin.
  const auto d = static_cast<double>(e.alpha - 1 - c.m0_minus_one);
  const auto off0 = static_cast<double>(line.at(c.origin.x) - static_cast<Quad>(c.origin.y));
  const auto first = static_cast<double>(over.first - c.origin.x);
  const auto last = static_cast<double>(over.last - c.origin.x);
  double peak = 0;
  for (bool lower : {true, false}) {
    const Side& side = lower ? lower_ : upper_;
    const Points& pending = lower ? pending_lower_ : pending_upper_;
    if (!side.any && pending.empty()) return kInfinity;
    // The pending messages, committed on the same grid into copies: the
    // corners are those the frontier's commits would have kept.
    std::vector<Apex> corners = side.corners;
    std::vector<Apex> stack = side.stack;
    bool barrier = side.barrier;
    double left_min = side.any ? side.left_min : kInfinity;
    double right_min = side.any ? side.right_min : kInfinity;
    Nanoseconds cell_end = next_commit;
    for (const Point& p : pending) {
      if (p.x >= cell_end) {
        if (!stack.empty()) {
          corners_of(stack, c.h, [&corners](const Apex& k) { add_corner(corners, k); });
          stack.erase(stack.begin(), stack.end() - 1);
          barrier = true;
        }
        cell_end = grid_after(cell_end, p.x, kCommitEvery);
      }
      const Apex cone = apex_of(c, p, lower);
      left_min = std::min(left_min, cone.r + c.h * cone.x);
      right_min = std::min(right_min, cone.r - c.h * cone.x);
      push(stack, barrier ? 1 : 0, cone, c.h);
    }
    corners_of(stack, c.h, [&corners](const Apex& k) { add_corner(corners, k); });
    const double sign = lower ? 1 : -1;
    const auto beyond_line = [&](double x, double u) { return u - sign * (off0 + d * x); };
    double best = -kInfinity;
    for (const Apex& k : corners) best = std::max(best, beyond_line(k.x, k.r));
    // Left of every message the cones' left sides, right of them their
    // right sides.
    best = std::max(best, beyond_line(first, left_min - c.h * first));
    best = std::max(best, beyond_line(last, right_min + c.h * last));
    peak = std::max(peak, best);
  }
  return static_cast<Quad>(peak) + kRoundingMarginNs;
}

std::size_t FlatEnvelope::held_points() const {
  return pending_lower_.size() + pending_upper_.size() + lower_.stack.size() + upper_.stack.size() +
         lower_.corners.size() + upper_.corners.size();
}

}  // namespace tracesync::hull
