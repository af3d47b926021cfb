// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <vector>

#include "base/boxed.h"
#include "hull/clock_stability.h"
#include "hull/convex_chain.h"
#include "hull/exact_line.h"
#include "hull/feasible_region.h"
#include "hull/flat_envelope.h"
#include "hull/link_estimator.h"
#include "hull/message_log.h"
#include "hull/relaxed_region.h"
#include "hull/slope_one_bounds.h"

namespace tracesync::hull {

// The default estimator: the exact convex-hull bounds of a link, kept
// incrementally (Jabbarifar's fully incremental approach, made exact and
// order-independent).
//
// Its bound rests on a ClockStability assumption: with a band of 0 the
// clocks are taken to be linear (the exact region's bound); otherwise the
// truth may lie up to band * L / 4 off a line over the L ns of the span and
// the messages together (relaxed_region.h), and the envelope of cones
// (local_envelope.h) replaces that bound where it is tighter. The envelope
// is kept when the band is not 0, in memory flat in the link's length once
// the session settles messages behind a frontier (flat_envelope.h).
//
// alpha_max is the smallest slope from an upper point to a lower point on
// its right, alpha_min the largest slope from a lower point to an upper
// point on its right; the region is empty exactly when alpha_min > alpha_max
// or a lower point lies below an upper point of the same abscissa. Both
// extremes are reached at hull vertices, so a new point only needs:
//   - two O(1) side tests against Lmin and Lmax: a point on the allowed side
//     of both cannot move either (the common case); right of both lines'
//     right points one test settles both (lmax runs above lmin there);
//   - otherwise one O(log h) tangent query into the other direction's hull
//     per line it crosses.
// Hull insertion is amortized O(1) in time order and O(log h) otherwise.
//
// Once the region is empty it stays empty (messages only add constraints).
// If the link was ACCURATE just before, it becomes APPROXIMATE: the last
// accurate estimate is kept and `contradictions` counts the messages on the
// wrong side of it (a lower point below it, an upper point above it); the
// message that emptied the region always is one. Otherwise it is FAIL and
// `contradictions` counts every message from the one that emptied the
// region on. The hulls themselves stay exact in both cases.
class ExactHullEstimator final : public LinkEstimator {
 public:
  // Whether the estimator keeps an envelope bound (when the band is not 0);
  // the piecewise estimator keeps its segments' messages itself.
  enum class Envelope { kOwn, kNone };

  explicit ExactHullEstimator(ClockStability stability = {}, Envelope envelope = Envelope::kOwn);

  std::string_view algorithm() const override { return "hull"; }
  bool add(const LinkMessage& message) override;
  void settle(model::Nanoseconds frontier) override;
  // The envelope lets go of its pending messages (FlatEnvelope::end_input),
  // its bound the same.
  void end_input() override;
  LinkEstimate estimate() const override;
  std::optional<model::Quad> offset_uncertainty(const TimeSpan& span) const override;
  HullPoints hull_points() const override;
  // The message that emptied the region, against the messages pinning Lmin
  // and Lmax as they were then.
  std::vector<Contradiction> contradictions() const override;

  // Takes in `other`'s messages as if they had been added here, `other`
  // being of the same ClockStability and Envelope: partial link states,
  // computed apart from subsets of a link's messages (on the workers of a
  // cluster), merge into the state of the whole. The hull of a union is the
  // hull of the hulls, so other's hull vertices move the extreme lines as
  // all its messages did, and its counts add up: the estimate, the hulls,
  // the bounds and the counts are those of adding every message here, in
  // any split and any order, as long as the region is not empty. What
  // depends on the order messages came in by nature is not: the count of
  // messages that changed the estimate (accurate_messages) and, once the
  // region is empty, the contradictions and an APPROXIMATE link's kept
  // estimate (those of the vertices merged in).
  void merge(const ExactHullEstimator& other);

  // Adds the message unless it would empty a non-empty region (nor adds it
  // to an empty one): nullopt then, and nothing changed. Otherwise what
  // add() returns. The piecewise estimator ends a segment there.
  std::optional<bool> add_unless_emptied(const LinkMessage& message);

  // The bound at each end of `span`; nullopt when there is none (quality
  // INCOMPLETE, FAIL or ABSENT). offset_uncertainty is the larger of the two.
  std::optional<EndBounds> end_bounds(const TimeSpan& span) const;
  // The same from the band alone, without the envelope.
  std::optional<EndBounds> band_bounds(const TimeSpan& span) const;

  // The span of a's clock that the messages cover, if any.
  std::optional<TimeSpan> message_span() const;

  // The exact extreme lines, when they exist (and, when the region is
  // empty, as they were when it emptied).
  const std::optional<ExactLine>& lmin() const { return lmin_; }
  const std::optional<ExactLine>& lmax() const { return lmax_; }
  bool region_empty() const { return region_empty_; }
  const ConvexChain& lower_hull() const { return lower_hull_; }
  const ConvexChain& upper_hull() const { return upper_hull_; }
  // What the envelope holds (pending messages, cones, corners); 0 without.
  std::size_t envelope_points() const { return envelope_ ? envelope_->held_points() : 0; }
  // An estimator made with Envelope::kNone starts keeping one, fed with
  // every message it has taken (`taken`, sorted) and settled at `frontier`:
  // the envelope of the same messages as if it had kept one from the start
  // (a function of the set, flat_envelope.h). The hull is left as it is.
  void start_envelope(const MessageLog& taken, model::Nanoseconds frontier);

 private:
  // What an APPROXIMATE link keeps of its last accurate state.
  struct KeptEstimate {
    ExactLine lmin;
    ExactLine lmax;
    FeasibleRegion region;
    model::Quad worst_violation = 0;  // ns, largest distance of a contradiction
  };

  // What one message does to the extreme lines, before it is committed:
  // the lines it tightens (the others stay as they are).
  struct Step {
    std::optional<ExactLine> lmin;
    std::optional<ExactLine> lmax;
    bool empties = false;
    bool changed() const { return lmin || lmax; }
  };
  // True when p lies on the allowed side of both extreme lines: then it
  // moves neither and cannot empty the region.
  [[gnu::always_inline]] inline bool moves_nothing(const model::Point& p, bool lower) const;
  Step step_for(const model::Point& p, bool lower) const;
  [[gnu::always_inline]] inline void commit(const Step& step);
  [[gnu::always_inline]] inline void count(const LinkMessage& message);

  // add() after the message is counted: into its hull, the lines moved.
  bool place(const LinkMessage& message);
  Quality quality() const;
  bool accurate_now() const { return lmin_ && lmax_ && !region_empty_; }
  LinkEstimate bisector_estimate(const ExactLine& lmin, const ExactLine& lmax) const;
  void count_contradiction(const LinkMessage& message);
  // span widened to the messages: the stretch the stability slack covers.
  TimeSpan covered(const TimeSpan& span) const;

  ConvexChain lower_hull_{ChainKind::kLowerHull};  // of the a -> b messages
  ConvexChain upper_hull_{ChainKind::kUpperHull};  // of the b -> a messages
  std::optional<ExactLine> lmin_;  // through a lower point and an upper point on its right
  std::optional<ExactLine> lmax_;  // through an upper point and a lower point on its right
  bool region_empty_ = false;
  std::optional<KeptEstimate> kept_;
  std::optional<Contradiction> emptied_by_;  // the message that emptied the region (added one by one)

  SlopeOneBounds slope_one_;  // the estimate of INCOMPLETE and FAIL links

  LinkCounters counters_;
  ClockStability stability_;
  // When the band is not 0: the envelope, and its last answer until the
  // next message. Boxed: its deques would make the estimator's move
  // throw, and a vector of segments copy every segment as it grows.
  base::Boxed<FlatEnvelope> envelope_;
  struct EnvelopeCache {
    uint64_t revision;
    TimeSpan over;
    model::Quad value;
  };
  mutable std::optional<EnvelopeCache> envelope_cache_;
};

// The messages pinning Lmin (a lower point, an upper point on its right)
// and Lmax (an upper point, a lower point on its right), of those that exist.
std::vector<LinkMessage> pinning_messages(const std::optional<ExactLine>& lmin, const std::optional<ExactLine>& lmax);

}  // namespace tracesync::hull
