// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "hull/clock_stability.h"
#include "hull/link_estimate.h"
#include "hull/link_segment.h"
#include "hull/message_log.h"
#include "model/point.h"

namespace tracesync::hull {

// Where the messages near some instants contradicted the stability
// assumption (docs/local-band.md, "Breaches"): over [span.first, span.last]
// of a's clock the local band was empty under `--clock-stability`, and
// non-empty only from `needed_ppm` on (0 when not even the rate limit's
// 2 * kMaxRateErrorPpm makes it so: those instants have no band at all).
struct Breach {
  TimeSpan span;
  double needed_ppm = 0;

  friend bool operator==(const Breach&, const Breach&) = default;
};

// A link's clock map from its local bands, before it is fitted to a span.
struct LocalBandMap {
  ClockMap knots;  // over the candidates' span; empty when no instant has a band
  std::vector<Breach> breaches;
};

// The parameters of the construction, docs/local-band.md (constants, not
// options: the result must be a function of the messages and the assumption).
struct LocalBandSettings {
  model::Nanoseconds horizon = 10'000'000'000;     // S: the stability assumption's reach
  model::Nanoseconds widest_window = 60'000'000'000;  // W at most (beyond S the rate limit widens the points)
  std::size_t per_side = 32;                       // k: messages of each direction on each side
  model::Nanoseconds least_window = 10'000'000;    // W is at least this
  model::Nanoseconds least_spacing = 10'000'000;   // between two candidate instants
  model::Nanoseconds far_reach = 2'000'000'000;    // beyond W and within this: the fastest message per bucket
  model::Nanoseconds bucket = 50'000'000;
  model::Nanoseconds gap_midpoint = 2'000'000;     // a gap longer than this gets a candidate in its middle
  double tau_fraction = 0.05;                      // simplification: a piece stays within tau of every centre,
  double least_tau_ns = 500;                       // tau = max(least_tau_ns, tau_fraction * the least half-width)
  std::size_t merge_reach = 64;                    // knots one joined piece may cover at most
  std::size_t checked_per_side = 2;                // messages of each direction on each side within S that
                                                   // let the data check the stability assumption at t
  model::Nanoseconds probe_spacing = 1'000'000'000;  // line_departure: between two instants it probes
};

// The map of a's time onto b's from the local band at candidate instants
// (docs/local-band.md, "From instants to segments"). `lower` and `upper` are
// the link's a -> b and b -> a points, each sorted by (x, y); stability.ppm > 0.
//
// Each knot is a candidate instant's band centre; its bound covers, on both
// of its pieces, every candidate's half-width plus its distance from the
// piece's line, plus how far the truth may leave its chord between two
// candidates D apart: P * D / 4 when D is within the horizon (P the
// assumption's stability, or the needed one where it was breached), the
// rate limit's kMaxRateErrorPpm * D / 2 beyond. Knots rise strictly: a
// candidate whose centre does not rise above the previous one's is not used
// (fewer candidates only lengthen the stretches the slack covers). Then a
// knot is dropped where the chord between its neighbours holds within their
// bounds (at most `merge_reach` knots joined into one piece).
LocalBandMap local_band_map(std::span<const model::Point> lower, std::span<const model::Point> upper,
                            const ClockStability& stability, const LocalBandSettings& settings = {});

// `knots` (strictly rising, non-empty) fitted to exactly `span`: cut by
// interpolation inside it, and stretched beyond its ends along the end
// pieces' lines, the bound growing by what the rate limit allows the truth
// to leave that line over the stretch.
ClockMap fitted_to(const ClockMap& knots, const TimeSpan& span);

// Whether the local bands show that a line which every message of a link
// fits (the piecewise model's one segment) errs by far more than their own
// centres do: the clocks bend, slowly enough for one line to fit the
// messages, yet the line runs near the edge of the band they allow
// (docs/local-band.md, "As built": "One segment on bending clocks").
//
// At probe instants `probe_spacing` apart from the link's first message,
// each band's centre c and half-width h (as local_band_map computes them).
// Let f + a be the truth shifted by half the difference of the two
// directions' minimum delays (no method can see a), and h0 half their sum.
// f + a + h0 and f + a - h0 fit every message when the clocks are linear,
// and within the horizon when they keep the stability assumption, so every
// band holds both: c lies within h - h0 of f + a. The narrowest band's
// half-width, h_min >= h0, stands for h0, so a probe shows the line off
// f + a by at least |c - line| - (h - h_min), less the narrowest band's own
// excess h_min - h0. `departure` is the largest of those over the probes;
// `typical_excess` the median of h - h_min: how far a typical band's centre
// may err, the centres' own scatter in the bands' terms.
//
// The test fires when departure > typical_excess. On linear clocks the
// departure is at most h_min - h0 plus the line's own distance from f + a
// (the exact hull's bisector: nanoseconds where messages are dense), and
// with many probes the narrowest band's excess is a small part of a typical
// one's: no proof, a statistical margin, measured in docs/local-band.md
// (at most 0.30 of typical_excess on linear clocks; 8.6 to 14.5 times it on
// the bending pairs there). Probes are taken only over at least twice the
// horizon (2S), and at least as many as fit in 2S must have a band;
// otherwise `probes` is 0 and the test does not fire. `messages` is sorted
// (MessageLog::sort).
struct LineDeparture {
  std::size_t probes = 0;
  model::Quad departure = 0;
  model::Quad typical_excess = 0;

  bool bends() const { return probes > 0 && departure > typical_excess; }
};

LineDeparture line_departure(const MessageLog& messages, const Line& line, const ClockStability& stability,
                             const LocalBandSettings& settings = {});

}  // namespace tracesync::hull
