// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string_view>

#include <vector>

#include "hull/link_estimate.h"
#include "hull/local_band_map.h"
#include "hull/link_message.h"
#include "hull/link_segment.h"

namespace tracesync::hull {

// A message that no line fits together with the link's other messages (or
// with those of the segment before it), and the messages pinning the lines
// it crosses: what turned the link APPROXIMATE or FAIL, named in the report
// so that a user can find the damaged timestamp, if that is the cause.
struct Contradiction {
  LinkMessage message;
  std::vector<LinkMessage> against;
};

// One estimator per link (a, b): it takes the link's messages one at a time,
// in either direction and in any order, and says what they imply about the
// line y = alpha * x + beta that maps a's clock onto b's.
class LinkEstimator {
 public:
  virtual ~LinkEstimator() = default;

  // The name it is selected by (`--algorithm`).
  virtual std::string_view algorithm() const = 0;

  // Adds one message. Returns true when the published estimate (quality,
  // alpha, beta or accuracy) changed.
  virtual bool add(const LinkMessage& message) = 0;

  // No message of a's time before `frontier` is still to come (the link's
  // newest message less the match horizon, from the session): estimators
  // that keep messages may release what only such messages could change.
  // A message behind it later is late (LinkCounters::late_messages).
  virtual void settle(model::Nanoseconds /*frontier*/) {}

  // Closes any partial window (window estimators); a no-op for the others.
  // Returns true when the estimate changed.
  virtual bool finish() { return false; }

  // No message will come any more, ever (the last snapshot of a sync): an
  // estimator that answers from a copy of a state still taking messages may
  // finish that state in place instead, its answers the same. A message
  // added after is late. A no-op for most.
  virtual void end_input() {}

  virtual LinkEstimate estimate() const = 0;

  // The largest vertical distance, over the span's two ends, between the
  // estimate and the lines the messages still allow (ns of b's clock).
  // nullopt when no bound exists (quality INCOMPLETE, FAIL or ABSENT).
  virtual std::optional<model::Quad> offset_uncertainty(const TimeSpan& span) const = 0;

  virtual HullPoints hull_points() const = 0;

  // The link's segments in time order (DESIGN.md, "Clock model"). Estimators
  // of one line give one segment: the whole link, bounded over `span`.
  virtual std::vector<LinkSegment> segments(const TimeSpan& span) const;

  // a's time onto b's over `span`, continuous and strictly increasing, with
  // its bound at every instant; nullopt when the link has no bound. One line:
  // two knots at the span's ends, each with the bound over the span.
  virtual std::optional<ClockMap> clock_map(const TimeSpan& span) const;

  // The messages that contradict the others, when that made the link
  // APPROXIMATE or FAIL (empty otherwise, and for estimators that do not
  // tell): the first of them and what it contradicts.
  virtual std::vector<Contradiction> contradictions() const { return {}; }
  // Where the messages contradicted the clock-stability assumption
  // (docs/local-band.md, "Breaches"); none for estimators that do not rest
  // on local bands.
  virtual std::vector<Breach> breaches() const { return {}; }
};

}  // namespace tracesync::hull
