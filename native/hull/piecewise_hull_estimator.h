// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "hull/clock_stability.h"
#include "hull/exact_hull_estimator.h"
#include "hull/link_estimator.h"
#include "hull/local_band_map.h"
#include "hull/local_envelope.h"
#include "hull/message_log.h"
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
// Incrementally: a message goes to the segment k whose first message is the
// last one not after it. If segment k's region stays non-empty with it,
// every boundary stays where it was (adding constraints to segment k cannot
// make the message that ended it fit again): O(1) amortized in time order,
// O(log h) otherwise, as in the hull. If it sorts after every message of the
// last segment, it opens the next one. Otherwise the segments from k on are
// recomputed from their stored messages. So the segments equal the rule's
// whatever the arrival order. Memory: every message is kept (16 bytes), in
// its segment's MessageLog, in arrival order, sorted when a bound needs them,
// except on a link of one segment behind the frontier (below).
//
// Memory within a budget on linear clocks (issue 31 part 1,
// docs/local-band.md): the first segment keeps its own FlatEnvelope, as the
// linear model does. While the link has one segment and keeps more than
// `keep_at_most` messages, settle() releases those behind the frontier from
// its log into `released_`: a copy of the segment's estimator
// fed with them in the rule's order, which is what replaying the segment
// from its first message gives up to there, so a re-cut by a message at or
// after the frontier replays from that copy and the segments stay the
// rule's. A message behind the released ones (late) joins the hull when it
// fits; one that would re-cut the released stretch cannot be replayed: it is
// left out and counted as late. Should the link bend once messages are
// released, its local bands come from the messages kept (they are computed
// in one batch): its map is the first segment's line over the released
// stretch, bridged to the local bands of the rest (honest, wider there).
//
// A bending clock squeezes a segment's feasible lines before they vanish,
// so its exact bound would shrink just when the line fails. So a segment's
// bound is the smaller of two that hold under the stated assumption
// (clock_stability.h): the band's (the exact region relaxed by the band's
// slack over the segment's length, relaxed_region.h) and the envelope of
// cones over the segment's messages, sloped by the band and capped by the
// rate limit (local_envelope.h), exactly as
// ExactHullEstimator bounds a whole link.
//
// With one segment every answer is that segment's ExactHullEstimator's, bit
// for bit, but for one: where the local bands' centres follow no line, the
// clocks bend (centre_line, local_band_map.h), and the clock map comes from
// the local bands, as a link of several segments' does.
//
// With several, estimate() is the single line through the clock map's ends
// over the messages' span: quality ACCURATE when every segment is,
// APPROXIMATE when some segment has no bound but the map exists, FAIL when
// no segment has a bound; accuracy the worst segment's; offset_uncertainty
// that line's honest distance from the truth: the largest, over the map's
// knots, of the line's distance to the knot plus the knot's bound.
class PiecewiseHullEstimator final : public LinkEstimator {
 public:
  // Messages a link keeps (16 bytes each) before it releases any: links
  // smaller than that answer exactly as if every message were kept.
  static constexpr std::size_t kKeepAtMost = std::size_t{1} << 22;

  explicit PiecewiseHullEstimator(ClockStability stability = {ClockStability::kDefaultPpm},
                                  std::size_t keep_at_most = kKeepAtMost);

  std::string_view algorithm() const override { return "hull"; }
  bool add(const LinkMessage& message) override;
  void settle(model::Nanoseconds frontier) override;
  LinkEstimate estimate() const override;
  std::optional<model::Quad> offset_uncertainty(const TimeSpan& span) const override;
  HullPoints hull_points() const override;
  std::vector<LinkSegment> segments(const TimeSpan& span) const override;
  std::optional<ClockMap> clock_map(const TimeSpan& span) const override;
  // The first message of every segment after the first that has no bound
  // (what makes the link APPROXIMATE or FAIL), against the messages pinning
  // the lines of the segment before it: no line fits it with them.
  std::vector<Contradiction> contradictions() const override;
  std::vector<Breach> breaches() const override;

  std::size_t segment_count() const { return segments_.size(); }
  // The messages kept (16 bytes each): every one, until some are released.
  std::size_t kept_messages() const;
  // Everything held for the bounds: kept messages, and the first segment's
  // envelope (pending messages, cones, corners) and its released copy's.
  std::size_t held_points() const;
  // The messages kept in the rule's order, and where each segment starts in it.
  std::vector<LinkMessage> sorted_messages() const;
  std::vector<std::size_t> segment_starts() const;

 private:
  struct Segment {
    LinkMessage first;  // its first and last messages in the rule's order
    LinkMessage last;
    ExactHullEstimator hull;
    mutable MessageLog messages;  // arrival order until sorted_messages()

    // The envelope's largest bound over `over`, kept until a message comes.
    struct EnvelopeCache {
      std::size_t messages;
      TimeSpan over;
      model::Quad value;
    };
    mutable std::optional<EnvelopeCache> envelope_cache;

    const MessageLog& sorted_messages() const;
    model::Quad envelope(const TimeSpan& over, const ClockStability& stability) const;
  };

  [[gnu::always_inline]] inline bool extend(const LinkMessage& message);
  bool open_segment(const LinkMessage& message);
  [[gnu::noinline]] bool add_before_last(const LinkMessage& message);
  void resegment_from(std::size_t k, const LinkMessage& message);
  void release_before(model::Nanoseconds frontier);
  TimeSpan stretch_of(std::size_t k) const;
  std::vector<ClockPiece> pieces(const TimeSpan& span) const;
  std::optional<TimeSpan> message_span() const;
  std::optional<EndBounds> bounds_of(std::size_t k, const TimeSpan& at) const;

  // With several segments, or one on clocks that bend (bends()), and a
  // stability above 0, the clock map comes from the local bands
  // (docs/local-band.md), computed once per message count.
  bool uses_local_bands() const { return stability_.ppm > 0 && (segments_.size() > 1 || bends()); }
  // One segment, and the local bands' centres follow no line
  // (centre_line): cached per message count.
  bool bends() const;
  // What the caches below are kept for: the messages kept, and where the
  // released ones end (a release changes the messages kept, not always their count).
  std::pair<std::size_t, model::Nanoseconds> cache_key() const;
  // Released: the first segment's line over the released stretch, then the
  // local bands of the messages kept, joined.
  ClockMap after_released(const ClockMap& local, const TimeSpan& span) const;
  const LocalBandMap& local_bands() const;

  struct LocalBandCache {
    std::pair<std::size_t, model::Nanoseconds> key;
    LocalBandMap map;
  };
  struct BendCache {
    std::pair<std::size_t, model::Nanoseconds> key;
    bool bends;
  };

  // The first segment's messages before `before`, released from its log.
  struct Released {
    ExactHullEstimator hull;  // of those messages, added in the rule's order
    LinkMessage first;        // the first and last of them in the rule's order
    LinkMessage last;
    model::Nanoseconds before;
  };
  std::vector<Segment> segments_;
  ClockStability stability_;
  std::optional<Released> released_;
  std::size_t keep_at_most_;
  std::size_t kept_after_release_ = 0;
  uint64_t left_out_late_ = 0;  // behind the released stretch, would re-cut it
  mutable std::optional<LocalBandCache> local_bands_;
  mutable std::optional<BendCache> bends_;
};

}  // namespace tracesync::hull
