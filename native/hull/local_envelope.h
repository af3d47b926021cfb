// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <deque>
#include <optional>
#include <vector>

#include "hull/clock_stability.h"
#include "hull/link_estimate.h"
#include "hull/link_message.h"
#include "hull/message_log.h"
#include "hull/relaxed_region.h"
#include "model/quad.h"

namespace tracesync::hull {

// A bound that assumes no line at all, only a limit on the truth's rate:
// the truth f never runs more than `rate` (ns per ns) faster or slower than
// the estimate line (cone_rate). A lower point (x_i, y_i) says f(x_i) <= y_i, so f(x) - line(x) <=
// r_i + rate * |x - x_i| with r_i = y_i - line(x_i); an upper point bounds
// line(x) - f(x) likewise. The tightest of these cones, over the messages,
// bounds the truth at every instant: close to the messages by about the
// smallest nearby one-way delay, and growing with the distance to them, in
// gaps and beyond the messages' ends.
//
// envelope_bound is the largest such bound over `over`; infinite when one
// direction has no message. The lower envelope of the cones is computed
// exactly at every message by one pass each way, and between two
// consecutive messages its peak is where their cones meet.
class ConeEnvelope {
 public:
  explicit ConeEnvelope(const Line& line) : line_(line) {}
  // Messages in increasing x.
  void add(const LinkMessage& message);
  model::Quad peak(const TimeSpan& over, model::Quad rate);

  struct Residual {
    double x;  // ns from the first message
    double r;  // how far the truth may lie beyond the line on the message's side
  };

  // What peak() needs of the messages under a fixed rate, for every span
  // that covers them all: an ended segment's bound without its messages
  // (docs/local-band.md, "Wiring it into the piecewise estimator", 2). Over
  // such a span every gap between neighbouring messages lies inside it, so
  // its peak does not depend on the span; only the ends' cones do. Per
  // direction: the first and last residuals after the sweeps and the
  // gaps' largest peak. peak(over) is peak(over, rate) bit for bit when
  // `over` covers every message.
  struct Summary {
    struct Side {
      Residual front;
      Residual back;
      double gaps;
    };
    model::Nanoseconds origin = 0;
    double rate = 0;
    std::optional<Side> above;
    std::optional<Side> below;

    model::Quad peak(const TimeSpan& over) const;
  };
  Summary summary(model::Quad rate) const;

 private:
  Line line_;
  std::optional<model::Point> origin_;  // the first message
  double slope_minus_one_ = 0;
  double offset_at_origin_ = 0;  // line(x0) - y0
  std::vector<Residual> above_;  // lower points: f(x_i) <= y_i
  std::vector<Residual> below_;  // upper points: f(x_j) >= y_j
};

// Any range of LinkMessage sorted in the rule's order (x, direction, y).
template <typename SortedMessages>
model::Quad envelope_bound(const SortedMessages& sorted_by_x, const Line& line, const TimeSpan& over,
                           model::Quad rate) {
  ConeEnvelope envelope(line);
  for (const LinkMessage& m : sorted_by_x) envelope.add(m);
  return envelope.peak(over, rate);
}

// The same over a sorted MessageLog. Its first message in the rule's order
// is the origin, and each direction comes in the same order as in the rule's,
// so the bound is the one of the same messages as a sorted range, bit for bit.
model::Quad envelope_bound(const MessageLog& sorted, const Line& line, const TimeSpan& over, model::Quad rate);
// The same over each direction's points sorted by (x, y) (FlatEnvelope's).
model::Quad envelope_bound(const std::deque<model::Point>& lower, const std::deque<model::Point>& upper,
                           const Line& line, const TimeSpan& over, model::Quad rate);

// The rate limit around a line of slope `slope`: ClockStability's
// kMaxRateErrorPpm from 1, plus how far the slope itself is from 1.
model::Quad rate_limit_around(model::Quad slope);

// How fast the truth may leave an ACCURATE estimate's line over the
// messages it was fitted to: the rate limit, or less by the band. alpha_max
// is the slope from an upper point to a lower point on its right, so the
// truth's mean rate between those two messages is at most alpha_max, and
// likewise at least alpha_min between two others. The band puts every rate
// of the truth within `ppm` of every such mean: the truth's rate lies in
// [alpha_min - ppm, alpha_max + ppm], and the cone's slope is the farther of
// those from the estimate's slope (accuracy / 2 + ppm for the bisector).
// Without lmin and lmax, or with a band of 0, the rate limit alone.
model::Quad cone_rate(const LinkEstimate& estimate, const ClockStability& stability);

// The band's bounds at a segment's ends, or the envelope's largest bound at
// both ends when it is smaller than both: whichever holds, the smaller one
// does, and a constant bound interpolates honestly.
EndBounds tightest(const EndBounds& band, model::Quad envelope);

}  // namespace tracesync::hull
