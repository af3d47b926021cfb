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
#include "hull/local_band_stream.h"
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
// until the link reaches its budget (below).
//
// Memory past a budget (issue 31 part 1, docs/local-band.md, "Wiring it
// into the piecewise estimator"): within `keep_at_most` messages nothing
// below applies and every answer comes from the messages kept. When the
// link reaches it (settle()), its messages are fed to a LocalBandStream,
// settled with the frontier from then on, and the link's local bands and
// centre_line verdict come from a copy of it finished at the query: the
// batch's over every message, bit for bit. From then on a segment whose
// successor starts before the frontier is ended (no message still to come
// can fall in it or re-cut it): it keeps its hull and the summary of its
// cones (ConeEnvelope::Summary) instead of its log. The segment holding the
// frontier, while it is the last one, releases its messages behind the
// frontier into `released_`: a copy of the segment's estimator fed with them
// in the rule's order, which is what replaying the segment from its first
// message gives up to there, so a re-cut by a message at or after the
// frontier replays from that copy and the segments stay the rule's. A
// segment that released keeps a FlatEnvelope, as the linear model does (the
// first one from its start, a later one from its first release), and its
// own bound is that envelope's: the one answer that differs from a link
// keeping every message, whose segment bound is the envelope of cones
// around the segment's final line over every message of it, which no
// bounded summary gives exactly (docs/local-band.md, "Why not exactly").
// A late message (behind the frontier) that falls in an ended
// segment, or would re-cut the released stretch, is left out and counted
// (late_messages); one behind the released ones that fits joins the hull.
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
  // Messages a link keeps (16 bytes each) before it streams its local bands
  // and releases what the frontier settles: links smaller than that keep
  // every message; larger ones answer the same (but for a released
  // segment's own bound), holding about a horizon and a window of messages
  // whatever their length (docs/local-band.md, "Wired into the piecewise
  // estimator"). 1 Mi (16 MiB of log) since s37; 4 Mi before.
  static constexpr std::size_t kKeepAtMost = std::size_t{1} << 20;
  // Past the budget the segment holding the frontier releases once it holds
  // this many more than its last release kept (a release rewrites its log).
  static constexpr std::size_t kReleaseAtLeast = 1024;

  explicit PiecewiseHullEstimator(ClockStability stability = {ClockStability::kDefaultPpm},
                                  std::size_t keep_at_most = kKeepAtMost);

  std::string_view algorithm() const override { return "hull"; }
  bool add(const LinkMessage& message) override;
  void settle(model::Nanoseconds frontier) override;
  // Past the budget: the local bands' stream is finished in place, where
  // every answer before finished a copy of it (the same map and verdict).
  void end_input() override;
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
  // Everything held for the bounds: kept messages, the first segment's
  // envelope (pending messages, cones, corners) and its released copy's,
  // and the local bands' stream (its window, pending points, candidates).
  std::size_t held_points() const;
  // Past the budget: the local bands are streamed and settled messages released.
  bool streams() const { return past_budget_; }
  // Segment k released messages while it held the frontier. Its own bound
  // (segments()) is then its flat envelope's (the linear model's) when
  // other segments follow, where a link that kept them all would give the
  // envelope of its log: the one answer a released link does not share.
  bool released(std::size_t k) const { return segments_[k].released; }
  // The messages kept in the rule's order, and where each segment starts in it.
  std::vector<LinkMessage> sorted_messages() const;
  std::vector<std::size_t> segment_starts() const;

 private:
  struct Segment {
    LinkMessage first;  // its first and last messages in the rule's order
    LinkMessage last;
    ExactHullEstimator hull;
    mutable MessageLog messages;  // arrival order until sorted_messages()

    // Once ended (past the budget): what its envelope bound needs, its log released.
    std::optional<ConeEnvelope::Summary> summary;

    // The envelope's largest bound over `over`, kept until a message comes.
    struct EnvelopeCache {
      std::size_t messages;
      TimeSpan over;
      model::Quad value;
    };
    mutable std::optional<EnvelopeCache> envelope_cache;

    // Some of its messages went into `released_` while it held the
    // frontier: its bound is its hull's flat envelope's.
    bool released = false;

    const MessageLog& sorted_messages() const;
    model::Quad envelope(const TimeSpan& over, const ClockStability& stability) const;
  };

  [[gnu::always_inline]] inline bool extend(const LinkMessage& message);
  bool open_segment(const LinkMessage& message);
  [[gnu::noinline]] bool add_before_last(const LinkMessage& message);
  void resegment_from(std::size_t k, const LinkMessage& message);
  void release_before(model::Nanoseconds frontier);
  void start_stream(model::Nanoseconds frontier);
  void end_segments(model::Nanoseconds frontier);
  uint64_t late_messages(uint64_t counted_by_hulls) const;
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
  const LocalBandMap& local_bands() const;

  // The local bands and centre_line's verdict from the stream finished on a
  // copy, past the budget (LocalBandStream::finished_now: each copy reuses
  // the bands of the one before that no message since can change), or the
  // stream itself once the input ended; cached per message added.
  struct Streamed {
    uint64_t added;
    LocalBandMap map;
    bool bends;
  };
  const Streamed& streamed() const;

  struct LocalBandCache {
    uint64_t added;
    LocalBandMap map;
  };
  struct BendCache {
    uint64_t added;
    bool bends;
  };

  // The messages before `before` of the segment holding the frontier
  // (segments_[ended_]), released from its log; gone once it ends.
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
  uint64_t added_ = 0;          // messages taken (not left out): what the caches are kept for
  uint64_t left_out_late_ = 0;  // in an ended segment, or would re-cut the released stretch
  bool past_budget_ = false;
  std::optional<model::Nanoseconds> frontier_;
  std::optional<LocalBandStream> stream_;  // past the budget, with a stability above 0
  uint64_t late_before_stream_ = 0;        // what the hulls counted late before it started
  std::size_t ended_ = 0;                  // segments before this one are ended
  mutable std::optional<LocalBandCache> local_bands_;
  mutable std::optional<BendCache> bends_;
  mutable std::optional<Streamed> streamed_;
};

}  // namespace tracesync::hull
