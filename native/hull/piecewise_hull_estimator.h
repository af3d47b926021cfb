#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "hull/clock_stability.h"
#include "hull/exact_hull_estimator.h"
#include "hull/link_estimator.h"
#include "hull/local_envelope.h"
#include "hull/piecewise_clock_map.h"

namespace tracesync::hull {

// The piecewise clock model (DESIGN.md, "Clock model"; docs/clock-model.md).
//
// Segmentation rule, a function of the set of messages alone: sort them by
// (x, direction, y); the first segment starts at the first message and takes
// the following ones as long as one line still fits all of its messages (its
// exact feasible region stays non-empty); the first message that no line
// fits together with the segment starts the next segment, and so on.
// Each segment is an ExactHullEstimator of its own messages.
//
// Incrementally: a message that sorts last is offered to the open segment
// (amortized O(1), as in the hull); one that sorts inside segment k and fits
// it leaves every boundary where it was (adding constraints to segment k
// cannot make the message that ended it fit again); otherwise the segments
// from k on are recomputed from the stored messages. So the segments equal
// the rule's whatever the arrival order. Memory: every message is kept.
//
// A bending clock squeezes a segment's feasible lines before they vanish,
// so its exact bound would shrink just when the line fails. So a segment's
// bound is the smaller of two that hold under the stated assumption
// (clock_stability.h): the band's (the exact region relaxed by the band's
// slack over the segment's length, relaxed_region.h) and the rate limit's
// envelope of the segment's messages (local_envelope.h), exactly as
// ExactHullEstimator bounds a whole link.
//
// With one segment every answer is that segment's ExactHullEstimator's, bit
// for bit. With several, estimate() is the single line through the clock
// map's ends over the messages' span: quality ACCURATE when every segment is,
// APPROXIMATE when some segment has no bound but the map exists, FAIL when
// no segment has a bound; accuracy the worst segment's; offset_uncertainty
// that line's honest distance from the truth: the largest, over the map's
// knots, of the line's distance to the knot plus the knot's bound.
class PiecewiseHullEstimator final : public LinkEstimator {
 public:
  explicit PiecewiseHullEstimator(ClockStability stability = {ClockStability::kDefaultPpm});

  std::string_view algorithm() const override { return "hull"; }
  bool add(const LinkMessage& message) override;
  LinkEstimate estimate() const override;
  std::optional<model::Quad> offset_uncertainty(const TimeSpan& span) const override;
  HullPoints hull_points() const override;
  std::vector<LinkSegment> segments(const TimeSpan& span) const override;
  std::optional<ClockMap> clock_map(const TimeSpan& span) const override;

  std::size_t segment_count() const { return segments_.size(); }
  // The messages in the rule's order, and where each segment starts in it.
  const std::vector<LinkMessage>& sorted_messages() const { return messages_; }
  std::vector<std::size_t> segment_starts() const;

 private:
  struct Segment {
    std::size_t first;  // index of its first message in messages_
    ExactHullEstimator hull;
  };

  bool extend(std::size_t index);
  void resegment_from(std::size_t k);
  TimeSpan stretch_of(std::size_t k) const;
  std::vector<ClockPiece> pieces(const TimeSpan& span) const;
  std::optional<TimeSpan> message_span() const;
  std::optional<EndBounds> bounds_of(std::size_t k, const TimeSpan& at) const;

  std::vector<LinkMessage> messages_;  // sorted by (x, direction, y)
  std::vector<Segment> segments_;
  ClockStability stability_;
};

}  // namespace tracesync::hull
