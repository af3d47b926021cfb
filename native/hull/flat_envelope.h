// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "hull/clock_stability.h"
#include "hull/link_estimate.h"
#include "hull/link_message.h"
#include "model/point.h"
#include "model/quad.h"

namespace tracesync::hull {

// The envelope bound of a one-line link (local_envelope.h) in memory flat in
// the link's length: what the linear clock model keeps instead of every
// message (docs/local-band.md, "As built": issue 31 part 1, issue 36 part 3).
//
// Today's envelope slopes its cones by the final estimate and reads every
// message against the final line, known only at the end. Here the cones'
// slopes come from the messages of the link's first kEarlySpan instead: the
// truth's rate lies in [alpha_min - P, alpha_max + P] for the extreme lines
// of ANY subset of the messages (cone_rate's argument), and within the rate
// limit 1 +- R; a subset's lines are looser than the final ones, so the
// cones are wider (0.4 % on the 15-minute pair at 1,000 messages/s) and
// honest. Cones of fixed slopes bound the truth itself, whatever the final
// line: their lower envelope U is one function, and the bound against a line
// L is the largest U - L, reached at one of U's corners. The corners are
// kept as the upper hull of points (x, U(x)): a query for any L is one pass
// over its few vertices.
//
// Messages come in any order within a frontier (the link's newest message
// less the match horizon, passed by the session): those ahead of the last
// settled instant wait, sorted, in `pending`; at every whole kCommitEvery of
// the link's time behind the frontier they join the envelope in the rule's
// order and only the corners stay. Each commit keeps the last cone as a
// barrier that later cones meet but do not remove: a later, faster message
// would have lowered U just left of the commit, and not counting that only
// widens the bound (by nanoseconds, near the commit instants). The commits
// sit on a grid fixed by the first message, so the bound is a function of the
// set of messages, whatever their order, as long as none comes behind the
// last commit: such a message is late, left out of the envelope (which stays
// honest, only wider) and counted.
//
// The bound asked before a commit (or without a frontier at all) makes the
// same commits on copies, so it is a function of the messages alone (none
// late): the same whatever the horizon. A link whose messages span less
// than kEarlySpan keeps today's bound, bit for bit.
class FlatEnvelope {
 public:
  // The messages that fix the cones' slopes, and the grid of commits.
  static constexpr model::Nanoseconds kEarlySpan = 60'000'000'000;
  static constexpr model::Nanoseconds kCommitEvery = 1'000'000'000;

  explicit FlatEnvelope(ClockStability stability) : stability_(stability) {}

  // False when the message is late (behind the last commit): not counted in
  // the envelope.
  bool add(const LinkMessage& message);
  // No message before `frontier` (a's clock) is still to come.
  void settle(model::Nanoseconds frontier);
  // No message will come at all: the pending messages are committed on the
  // grid, as bound() would commit them on copies, so every bound stays the
  // same and they are let go (an ended segment of the piecewise model kept
  // up to a commit interval of them, and a day has ~100). Unless the
  // messages span less than kEarlySpan: their bound is today's, which
  // needs them all. A message added after is late.
  void end_input();
  // Takes in `other`'s messages. Exact while neither has committed (every
  // message is pending); otherwise the merged envelope has no bound
  // (infinite: the band's bound holds alone), which is honest.
  void merge(const FlatEnvelope& other);

  // The largest bound over `over` (which covers every message) of the
  // truth's distance from the ACCURATE estimate `e`'s line; infinite when a
  // direction has no message.
  model::Quad bound(const LinkEstimate& e, const TimeSpan& over) const;

  // Changes with every message, late ones too (they move the estimate): what
  // a cached bound depends on.
  uint64_t revision() const { return revision_; }
  uint64_t late_messages() const { return late_; }
  // What the envelope holds now: pending messages, cones and hull corners.
  std::size_t held_points() const;
  bool committed() const { return cones_.has_value(); }

 private:
  using Points = std::deque<model::Point>;

  // A cone's apex (x from the origin, residual from the reference line,
  // negated for upper points) or a corner of U.
  struct Apex {
    double x;
    double r;
  };

  // One direction's envelope of committed messages.
  struct Side {
    std::vector<Apex> stack;    // the cones still below their neighbours, the barrier first
    bool barrier = false;       // stack.front() is the last commit's barrier
    std::vector<Apex> corners;  // the upper hull of U's corners, by x
    double left_min = 0;        // min of r + h x: U left of every message
    double right_min = 0;       // min of r - h x: U right of every message
    bool any = false;
  };

  // The fixed cones: a reference line of slope 1 + m0_minus_one through the
  // origin, and the half-width h of the truth's rate around it.
  struct Cones {
    model::Point origin;
    model::Quad m0_minus_one;
    double reference_slope_minus_one;
    double h;
  };

  void commit_before(model::Nanoseconds instant);
  std::optional<model::Nanoseconds> earliest_pending() const;
  // The cones fixed by the pending messages before `cut`.
  Cones cones_for(model::Nanoseconds cut) const;
  static Apex apex_of(const Cones& cones, const model::Point& p, bool lower);
  static void push(std::vector<Apex>& stack, std::size_t keep, const Apex& cone, double h);
  template <typename Emit>
  static void corners_of(const std::vector<Apex>& stack, double h, Emit&& emit);
  static void add_corner(std::vector<Apex>& hull, const Apex& corner);

  ClockStability stability_;
  Points pending_lower_;
  Points pending_upper_;
  std::optional<Cones> cones_;
  Side lower_;
  Side upper_;
  model::Nanoseconds next_commit_ = 0;   // once committed: the next grid instant
  model::Nanoseconds committed_to_ = 0;  // every message before it is in the envelope
  uint64_t revision_ = 0;
  uint64_t late_ = 0;
  bool spoiled_ = false;  // merged after a commit: no bound
};

}  // namespace tracesync::hull
