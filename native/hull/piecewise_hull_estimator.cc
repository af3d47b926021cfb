// SPDX-License-Identifier: EPL-2.0
#include "hull/piecewise_hull_estimator.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <span>
#include <type_traits>

namespace tracesync::hull {
namespace {

using model::Quad;

// The rule's order: by abscissa, then direction, then ordinate.
bool sorts_before(const LinkMessage& a, const LinkMessage& b) {
  // Spelled out: on the hot path, and nearly always decided by x.
  if (a.point.x != b.point.x) return a.point.x < b.point.x;
  if (a.direction != b.direction) return a.direction < b.direction;
  return a.point.y < b.point.y;
}

}  // namespace

PiecewiseHullEstimator::PiecewiseHullEstimator(ClockStability stability, std::size_t keep_at_most)
    : stability_(stability), keep_at_most_(keep_at_most) {}

const MessageLog& PiecewiseHullEstimator::Segment::sorted_messages() const {
  messages.sort();
  return messages;
}

Quad PiecewiseHullEstimator::Segment::envelope(const TimeSpan& over, const ClockStability& stability) const {
  if (summary) return summary->peak(over);  // ended: `over` covers its stretch
  if (envelope_cache && envelope_cache->messages == messages.size() && envelope_cache->over == over) {
    return envelope_cache->value;
  }
  const LinkEstimate e = hull.estimate();
  const Quad value = envelope_bound(sorted_messages(), Line{e.alpha, e.beta}, over, cone_rate(e, stability));
  envelope_cache = EnvelopeCache{messages.size(), over, value};
  return value;
}

// The rule's step for a message that sorts after every other one: to the
// open segment (whose order stays as it was), or it opens the next.
bool PiecewiseHullEstimator::extend(const LinkMessage& message) {
  if (!segments_.empty()) {
    Segment& open = segments_.back();
    if (const auto changed = open.hull.add_unless_emptied(message)) {
      open.last = message;
      open.messages.append(message);
      return *changed;
    }
  }
  return open_segment(message);
}

bool PiecewiseHullEstimator::add(const LinkMessage& message) {
  if (!segments_.empty() && sorts_before(message, segments_.back().last)) return add_before_last(message);
  ++added_;
  if (stream_) stream_->add(message);
  return extend(message);  // the common case, time order
}

// Out of the hot path: a message that sorts before the last one.
bool PiecewiseHullEstimator::add_before_last(const LinkMessage& message) {
  // The segment it falls in: the last one whose first message is not after it.
  std::size_t k = 0;
  if (segments_.size() > 1) {
    k = static_cast<std::size_t>(std::partition_point(segments_.begin(), segments_.end(),
                                                      [&](const Segment& s) { return !sorts_before(message, s.first); }) -
                                 segments_.begin());
    if (k > 0) --k;
  }
  if (k < ended_) {  // its hull and summary are final
    ++left_out_late_;
    return false;
  }
  Segment& segment = segments_[k];
  // Only the segment holding the frontier releases (settle()).
  const bool late = k == ended_ && released_ && message.point.x < released_->before;
  if (const auto changed = segment.hull.add_unless_emptied(message)) {
    if (sorts_before(message, segment.first)) segment.first = message;
    if (sorts_before(segment.last, message)) segment.last = message;
    if (late) {
      // Into the copy to replay from too (a subset of the segment's
      // messages, so it fits there as well).
      released_->hull.add(message);
      if (sorts_before(message, released_->first)) released_->first = message;
    } else {
      segment.messages.append(message);
    }
    ++added_;
    if (stream_) stream_->add(message);
    return *changed;
  }
  if (late) {  // the messages a re-cut would replay are released
    ++left_out_late_;
    return false;
  }
  ++added_;
  if (stream_) stream_->add(message);
  resegment_from(k, message);
  return true;
}

// A segment starting at `message`, which no line fits with the one before.
bool PiecewiseHullEstimator::open_segment(const LinkMessage& message) {
  // segments_ moves its segments as it grows: a day has thousands, each
  // with its hull and some with their logs, that a copy would double.
  static_assert(std::is_nothrow_move_constructible_v<Segment>);
  // The first segment keeps a flat envelope (the linear model's), so that
  // its messages can be released; the others keep the envelope of their
  // log, and start a flat one if they release (release_before).
  const auto envelope = segments_.empty() ? ExactHullEstimator::Envelope::kOwn : ExactHullEstimator::Envelope::kNone;
  segments_.push_back({message, message, ExactHullEstimator(stability_, envelope), {}, std::nullopt, std::nullopt});
  segments_.back().messages.append(message);
  const bool changed = segments_.back().hull.add(message);
  return changed || segments_.size() > 1;  // as the single line does, until a second segment opens
}

void PiecewiseHullEstimator::resegment_from(std::size_t k, const LinkMessage& message) {
  // The messages to replay are held about once: each log is let go once
  // copied, and each message once replayed (a deque gives its blocks back
  // as they are taken from its front), while the new segments' logs grow.
  std::deque<LinkMessage> rest{message};
  for (std::size_t j = k; j < segments_.size(); ++j) {
    segments_[j].messages.for_each([&](const LinkMessage& m) { rest.push_back(m); });
    segments_[j].messages = MessageLog{};
  }
  std::sort(rest.begin(), rest.end(), sorts_before);
  segments_.erase(segments_.begin() + static_cast<std::ptrdiff_t>(k), segments_.end());
  if (k == ended_ && released_) {
    // Replaying segment k from its first message reaches, at the released
    // ones' end, the copy fed with them; every message left sorts after
    // them (none is behind `before`).
    segments_.push_back({released_->first, released_->last, released_->hull, {}, std::nullopt, std::nullopt, true});
  }
  for (; !rest.empty(); rest.pop_front()) extend(rest.front());
}

void PiecewiseHullEstimator::settle(model::Nanoseconds frontier) {
  if (segments_.empty()) return;
  segments_.front().hull.settle(frontier);
  if (!past_budget_ && added_ >= keep_at_most_) start_stream(frontier);
  if (!past_budget_ || (frontier_ && frontier <= *frontier_)) return;
  frontier_ = frontier;
  if (stream_) stream_->settle(frontier);
  end_segments(frontier);
  // The flat envelopes of segments that released (the first one's is settled above).
  for (std::size_t k = std::max<std::size_t>(ended_, 1); k < segments_.size(); ++k) segments_[k].hull.settle(frontier);
  // The segment holding the frontier releases while it is the last one (it
  // ends, and keeps only its hull, once its successor starts before the
  // frontier), whenever its log has grown a quarter past what its last
  // release kept (each release rewrites the log of what it keeps: about 4
  // copies a message).
  if (ended_ + 1 != segments_.size() || (released_ && frontier <= released_->before)) return;
  const std::size_t at = std::max<std::size_t>(kept_after_release_ + kept_after_release_ / 4, kReleaseAtLeast);
  if (segments_.back().messages.size() >= at) release_before(frontier);
}

// The budget reached: the local bands from here on come from a stream fed
// with every message so far. In the rule's order, settled as they go up to
// the frontier, so that its heap of unsettled points holds a horizon of
// them rather than the budget's (a heap keeps its capacity).
void PiecewiseHullEstimator::start_stream(model::Nanoseconds frontier) {
  past_budget_ = true;
  if (stability_.ppm <= 0) return;  // no local bands to stream
  uint64_t late = 0;
  for (const Segment& s : segments_) late += s.hull.estimate().counters.late_messages;
  late_before_stream_ = late;
  stream_.emplace(stability_);
  constexpr std::size_t kSettleEvery = 256;
  std::size_t fed = 0;
  // Segments follow each other in the rule's order.
  for (const Segment& s : segments_) {
    s.sorted_messages().for_each_in_rule_order([&](const LinkMessage& m) {
      stream_->add(m);
      // Every message before m has come (the logs hold every one so far).
      if (++fed % kSettleEvery == 0) stream_->settle(std::min(m.point.x, frontier));
    });
  }
}

// Segments whose successor starts before the frontier: no message at or
// after it can fall in them (it sorts after that first message), so their
// hull, line and cone rate are final. Each keeps the summary of its cones
// its envelope bound needs, and releases its log; one that released
// messages already keeps its hull and flat envelope only.
void PiecewiseHullEstimator::end_segments(model::Nanoseconds frontier) {
  while (ended_ + 1 < segments_.size() && segments_[ended_ + 1].first.point.x < frontier) {
    Segment& s = segments_[ended_];
    const LinkEstimate e = s.hull.estimate();
    // Released, it answers with its flat envelope (bounds_of).
    const bool enveloped = stability_.ppm > 0 && e.quality == Quality::kAccurate && !s.released;
    if (enveloped) {
      ConeEnvelope cones(Line{e.alpha, e.beta});
      for (const LinkMessage& m : s.messages.in_rule_order()) cones.add(m);
      s.summary = cones.summary(cone_rate(e, stability_));
    }
    s.messages = MessageLog{};
    s.envelope_cache.reset();
    // A released one's flat envelope commits what it still holds pending
    // (up to a commit interval of messages, kept for the day otherwise).
    s.hull.end_input();
    // No re-cut reaches it any more: the copy to replay from goes.
    released_.reset();
    kept_after_release_ = 0;
    ++ended_;
  }
}

// Moves the messages before `frontier` of the segment holding it from its
// log into the copy to replay from, in the rule's order. Its bound is then
// its flat envelope's: a segment after the first starts one here, over every
// message it has taken.
void PiecewiseHullEstimator::release_before(model::Nanoseconds frontier) {
  Segment& segment = segments_[ended_];
  MessageLog& log = segment.messages;
  log.sort();
  if (!released_) {
    segment.hull.start_envelope(log, frontier);
    released_.emplace(Released{ExactHullEstimator(stability_), segment.first, segment.first, frontier});
    segment.released = true;
  }
  MessageLog kept;
  log.for_each_in_rule_order([&](const LinkMessage& m) {
    if (m.point.x < frontier) {
      released_->hull.add(m);
      released_->last = m;
    } else {
      kept.append(m);
    }
  });
  log = std::move(kept);
  segment.envelope_cache.reset();
  released_->before = frontier;
  released_->hull.settle(frontier);
  kept_after_release_ = log.size();
}

std::size_t PiecewiseHullEstimator::held_points() const {
  std::size_t n = kept_messages();
  for (const Segment& s : segments_) n += s.hull.envelope_points();
  if (released_) n += released_->hull.envelope_points();
  if (stream_) n += stream_->held();
  return n;
}

std::size_t PiecewiseHullEstimator::kept_messages() const {
  std::size_t n = 0;
  for (const Segment& s : segments_) n += s.messages.size();
  return n;
}

std::vector<LinkMessage> PiecewiseHullEstimator::sorted_messages() const {
  std::vector<LinkMessage> out;
  for (const Segment& s : segments_) {
    const auto own = s.messages.in_rule_order();
    out.insert(out.end(), own.begin(), own.end());
  }
  return out;
}

std::vector<std::size_t> PiecewiseHullEstimator::segment_starts() const {
  std::vector<std::size_t> out;
  std::size_t at = 0;
  for (const Segment& s : segments_) {
    out.push_back(at);
    at += s.messages.size();
  }
  return out;
}

// Segment k's first and last message on a's clock.
TimeSpan PiecewiseHullEstimator::stretch_of(std::size_t k) const {
  return {segments_[k].first.point.x, segments_[k].last.point.x};
}

// Segment k's bounds at the ends of `at`, over `at` and the segment's
// messages together: exactly what ExactHullEstimator::end_bounds gives for
// the same messages.
std::optional<EndBounds> PiecewiseHullEstimator::bounds_of(std::size_t k, const TimeSpan& at) const {
  const ExactHullEstimator& hull = segments_[k].hull;
  // The first segment alone, or a segment that released messages: its flat
  // envelope (the linear model's bound); otherwise today's, of its log.
  if ((k == 0 && segments_.size() == 1) || segments_[k].released) return hull.end_bounds(at);
  const auto band = hull.band_bounds(at);
  if (!band || stability_.ppm <= 0 || hull.estimate().quality != Quality::kAccurate) return band;
  const TimeSpan stretch = stretch_of(k);
  return tightest(*band, segments_[k].envelope({std::min(at.first, stretch.first), std::max(at.last, stretch.last)}, stability_));
}

std::optional<TimeSpan> PiecewiseHullEstimator::message_span() const {
  if (segments_.empty()) return std::nullopt;
  return TimeSpan{segments_.front().first.point.x, segments_.back().last.point.x};
}

std::vector<LinkSegment> PiecewiseHullEstimator::segments(const TimeSpan& span) const {
  std::vector<LinkSegment> out;
  for (std::size_t k = 0; k < segments_.size(); ++k) {
    TimeSpan stretch = stretch_of(k);
    if (k == 0) stretch.first = std::min(stretch.first, span.first);
    if (k + 1 == segments_.size()) stretch.last = std::max(stretch.last, span.last);
    const ExactHullEstimator& hull = segments_[k].hull;
    LinkSegment segment{stretch, hull.estimate(), hull.hull_points(), std::nullopt, std::nullopt};
    if (const auto bounds = bounds_of(k, stretch)) {
      segment.uncertainty_first = bounds->first;
      segment.uncertainty_last = bounds->last;
    }
    out.push_back(std::move(segment));
  }
  return out;
}

// The segments that have a bound, the first and last stretched to `span`.
std::vector<ClockPiece> PiecewiseHullEstimator::pieces(const TimeSpan& span) const {
  std::vector<std::size_t> bounded;
  for (std::size_t k = 0; k < segments_.size(); ++k) {
    const Quality q = segments_[k].hull.estimate().quality;
    if (q == Quality::kAccurate) bounded.push_back(k);
  }
  std::vector<ClockPiece> out;
  for (std::size_t i = 0; i < bounded.size(); ++i) {
    const std::size_t k = bounded[i];
    TimeSpan stretch = stretch_of(k);
    if (i == 0) stretch.first = std::min(stretch.first, span.first);
    if (i + 1 == bounded.size()) stretch.last = std::max(stretch.last, span.last);
    const LinkEstimate e = segments_[k].hull.estimate();
    out.push_back({stretch, Line{e.alpha, e.beta}, *bounds_of(k, stretch)});
  }
  return out;
}

std::vector<Contradiction> PiecewiseHullEstimator::contradictions() const {
  if (segments_.size() == 1) return segments_.front().hull.contradictions();
  std::vector<Contradiction> out;
  for (std::size_t k = 1; k < segments_.size(); ++k) {
    if (segments_[k].hull.estimate().quality == Quality::kAccurate) continue;
    const ExactHullEstimator& before = segments_[k - 1].hull;
    out.push_back({segments_[k].first, pinning_messages(before.lmin(), before.lmax())});
  }
  return out;
}

void PiecewiseHullEstimator::end_input() {
  if (!stream_ || stream_->finished()) return;
  // Its copy, finished at the last answer, would hold as much again.
  stream_->finish();
  streamed_.reset();
}

const PiecewiseHullEstimator::Streamed& PiecewiseHullEstimator::streamed() const {
  if (streamed_ && streamed_->added == added_) return *streamed_;
  if (stream_->finished()) {
    streamed_ = Streamed{added_, stream_->map(), stream_->centre_line().bends()};
  } else {
    LocalBandStream::Finished finished = stream_->finished_now();
    streamed_ = Streamed{added_, std::move(finished.map), finished.centre_line.bends()};
  }
  return *streamed_;
}

bool PiecewiseHullEstimator::bends() const {
  if (segments_.size() != 1 || stability_.ppm <= 0) return false;
  if (bends_ && bends_->added == added_) return bends_->bends;
  const Segment& only = segments_.front();
  const LinkEstimate e = only.hull.estimate();
  // Its line is not needed: where the centres follow no line, the clocks
  // bend, and then the line runs where the messages' edges put it.
  const bool bends = e.quality == Quality::kAccurate &&
                     (stream_ ? streamed().bends : centre_line(only.sorted_messages(), stability_).bends());
  bends_ = BendCache{added_, bends};
  return bends;
}

const LocalBandMap& PiecewiseHullEstimator::local_bands() const {
  if (stream_) return streamed().map;
  if (local_bands_ && local_bands_->added == added_) return local_bands_->map;
  // Segments follow each other in the rule's order, so their sorted points
  // in turn are sorted.
  std::vector<model::Point> lower;
  std::vector<model::Point> upper;
  for (const Segment& s : segments_) {
    const MessageLog& log = s.sorted_messages();
    lower.insert(lower.end(), log.lower().begin(), log.lower().end());
    upper.insert(upper.end(), log.upper().begin(), log.upper().end());
  }
  local_bands_ = LocalBandCache{added_, local_band_map(lower, upper, stability_)};
  return local_bands_->map;
}

std::vector<Breach> PiecewiseHullEstimator::breaches() const {
  if (!uses_local_bands()) return {};
  return local_bands().breaches;
}

std::optional<ClockMap> PiecewiseHullEstimator::clock_map(const TimeSpan& span) const {
  // One segment: exactly the linear model's map, so that linear clocks give
  // the same report bit for bit whichever model is chosen; unless the local
  // bands show the clocks bend away from its line (bends()).
  if (segments_.size() == 1 && !bends()) return LinkEstimator::clock_map(span);
  if (uses_local_bands()) {
    const LocalBandMap& local = local_bands();
    if (!local.knots.empty()) return fitted_to(local.knots, span);
  }
  // No instant has a band (too few messages each way near every instant),
  // or the clocks are taken to be linear: the segments' lines, bridged.
  if (segments_.size() == 1) return LinkEstimator::clock_map(span);
  return join_pieces(pieces(span), stability_, span);
}

LinkEstimate PiecewiseHullEstimator::estimate() const {
  if (segments_.empty()) return ExactHullEstimator(stability_).estimate();
  if (segments_.size() == 1) {
    LinkEstimate e = segments_.front().hull.estimate();
    e.counters.late_messages = late_messages(e.counters.late_messages);
    return e;
  }
  LinkEstimate e;
  bool all_accurate = true;
  for (const Segment& s : segments_) {
    const LinkEstimate part = s.hull.estimate();
    all_accurate = all_accurate && part.quality == Quality::kAccurate;
    if (part.accuracy) e.accuracy = e.accuracy ? std::max(*e.accuracy, *part.accuracy) : *part.accuracy;
    e.counters.messages += part.counters.messages;
    e.counters.lower_messages += part.counters.lower_messages;
    e.counters.upper_messages += part.counters.upper_messages;
    e.counters.accurate_messages += part.counters.accurate_messages;
    e.counters.lower_hull += part.counters.lower_hull;
    e.counters.upper_hull += part.counters.upper_hull;
    e.counters.late_messages += part.counters.late_messages;
  }
  e.counters.late_messages = late_messages(e.counters.late_messages);
  const TimeSpan span = *message_span();
  const auto map = clock_map(span);
  if (!map) {
    e.quality = Quality::kFail;
    return e;
  }
  // A breach of the assumption leaves the link usable, but not ACCURATE.
  const bool breached = uses_local_bands() && !local_bands().breaches.empty();
  e.quality = all_accurate && !breached ? Quality::kAccurate : Quality::kApproximate;
  const Knot& first = map->front();
  const Knot& last = map->back();
  if (last.x > first.x) e.alpha = (last.y - first.y) / static_cast<Quad>(last.x - first.x);
  e.beta = first.y - e.alpha * static_cast<Quad>(first.x);
  return e;
}

std::optional<Quad> PiecewiseHullEstimator::offset_uncertainty(const TimeSpan& span) const {
  if (segments_.empty()) return std::nullopt;
  if (segments_.size() == 1) {
    const auto bounds = bounds_of(0, span);
    if (!bounds) return std::nullopt;
    return std::max(bounds->first, bounds->last);
  }
  const auto map = clock_map(span);
  if (!map) return std::nullopt;
  const LinkEstimate e = estimate();
  if (e.quality == Quality::kFail) return std::nullopt;
  Quad worst = 0;
  for (const Knot& k : *map) {
    worst = std::max(worst, model::abs(e.alpha * static_cast<Quad>(k.x) + e.beta - k.y) + k.bound);
  }
  return worst;
}

// Each late message once: left out of everything, or taken into the hulls
// but not into the stream (which started later than the frontier it was
// behind) or the first segment's envelope. Past the budget the envelope's
// late ones are the stream's too: it commits behind the frontier.
uint64_t PiecewiseHullEstimator::late_messages(uint64_t counted_by_hulls) const {
  if (!stream_) return counted_by_hulls + left_out_late_;
  return late_before_stream_ + stream_->late_points() + left_out_late_;
}

HullPoints PiecewiseHullEstimator::hull_points() const {
  if (segments_.size() == 1) return segments_.front().hull.hull_points();
  HullPoints out;
  for (const Segment& s : segments_) {
    HullPoints part = s.hull.hull_points();
    out.lower.insert(out.lower.end(), part.lower.begin(), part.lower.end());
    out.upper.insert(out.upper.end(), part.upper.begin(), part.upper.end());
  }
  return out;
}

}  // namespace tracesync::hull
