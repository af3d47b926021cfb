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
  std::size_t longest_piece = 512;                 // candidates one simplified piece may cover at most: a
                                                   // piece's candidates are held until it ends, and on
                                                   // linear clocks it would never end (a stream's memory)
  std::size_t checked_per_side = 2;                // messages of each direction on each side within S that
                                                   // let the data check the stability assumption at t
  model::Nanoseconds probe_spacing = 1'000'000'000;  // centre_line: between two instants it probes,
  model::Nanoseconds least_probed = 60'000'000'000;  // and over at least this span of messages
  double estimate_stability = 0.25;                // the estimate: the centre of the band under this part of
                                                   // the stability (local_band.h, estimate_in),
  double estimate_shift = 0.6;                     // at most this part of the half-width from the band's centre
                                                   // (docs/clock-model.md, "The estimate's clamp")
  double end_line_reach = 0.25;                    // an end onto its neighbouring piece's line at most this
                                                   // times its length beyond it (onto_neighbouring_piece)
};

// The map of a's time onto b's from the local band at candidate instants
// (docs/local-band.md, "From instants to segments"). `lower` and `upper` are
// the link's a -> b and b -> a points, each sorted by (x, y); stability.ppm > 0.
//
// Each knot is a candidate instant's estimate, a point of its band
// (estimate_in, local_band.h: the centre of the band under a tighter
// stability, `estimate_stability` of it); its bound covers, on both of its
// pieces, every candidate's band: the band's half-width plus the distance
// of its centre from the piece's line (so the band's farther end), plus
// how far the truth may leave its chord between two candidates D apart:
// P * D / 4 when D is within the horizon (P the assumption's stability, or
// the needed one where it was breached), the rate limit's
// kMaxRateErrorPpm * D / 2 beyond. A candidate whose band centre does not
// rise above the previous one's is not used (fewer candidates only
// lengthen the stretches the slack covers), and knots rise strictly (where
// two estimates would not, the bands' centres stand in). Then a
// knot is dropped where the chord between its neighbours holds within their
// bounds (at most `merge_reach` knots joined into one piece).
LocalBandMap local_band_map(std::span<const model::Point> lower, std::span<const model::Point> upper,
                            const ClockStability& stability, const LocalBandSettings& settings = {});

// `knots` (strictly rising, non-empty) fitted to exactly `span`: cut by
// interpolation inside it, and stretched beyond its ends along the end
// pieces' lines, the bound growing by what the rate limit allows the truth
// to leave that line over the stretch.
ClockMap fitted_to(const ClockMap& knots, const TimeSpan& span);

// Whether the centres of a link's local bands follow one line, for a link
// whose messages one line fits (the piecewise model's one segment): if they
// do not, the clocks bend, slowly enough for one line to fit the messages,
// and that line may run a whole minimum delay from the truth, near the edge
// of the band they allow, where the bands' centres are within a few
// microseconds of it (docs/local-band.md, "As built": "One segment on
// bending clocks").
//
// At probe instants `probe_spacing` apart from the link's first message,
// each band's centre c and half-width h, as local_band_map computes them.
// Let f + a be the truth shifted by half the difference of the two
// directions' minimum delays (no method can see a), and h0 half their sum.
// f + a + h0 and f + a - h0 fit every message when the clocks are linear,
// so every band holds both, and c lies within h - h0 of f + a: exactly.
// The narrowest band's half-width h_min >= h0 stands for h0. So on linear
// clocks one line, f + a, passes within (h - h_min) + (h_min - h0) of every
// centre: the segmentation rule over those intervals (one exact hull) finds
// it. `least_slack` is the least s for which one line passes within
// (h - h_min) + s of every centre (whole nanoseconds; at most h_min);
// `typical_excess` the median of h - h_min, how far a typical centre may
// err: the centres' own scatter, in the bands' terms.
//
// The clocks bend when least_slack > typical_excess. On linear clocks
// least_slack <= h_min - h0, the narrowest band's own excess, and with many
// probes that is a small part of a typical band's: no proof, a statistical
// margin, measured in docs/local-band.md, thinner with fewer probes. So
// the test needs messages over at least `least_probed` (a minute), and at
// least as many probes with a band as fit in it; otherwise `probes` is 0
// and the test does not fire. `messages` is sorted (MessageLog::sort).
struct CentreLine {
  std::size_t probes = 0;
  model::Quad least_slack = 0;
  model::Quad typical_excess = 0;

  bool bends() const { return probes > 0 && least_slack > typical_excess; }
};

CentreLine centre_line(const MessageLog& messages, const ClockStability& stability,
                       const LocalBandSettings& settings = {});

}  // namespace tracesync::hull
