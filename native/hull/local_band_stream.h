// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <queue>
#include <vector>

#include "hull/band_memo.h"
#include "hull/clock_stability.h"
#include "hull/link_message.h"
#include "hull/local_band.h"
#include "hull/local_band_candidate.h"
#include "hull/local_band_map.h"
#include "model/point.h"

namespace tracesync::hull {

// local_band_map computed while a link's points arrive, in a bounded window
// (docs/local-band.md, "The streamed map"): the same knots and breaches, bit
// for bit, as the batch over the points it used.
//
// Points come in any order; settle(F) says that every point with x < F has
// come. A candidate instant's band is computed once the frontier is far
// enough past it that no point still to come can enter it; the passes after
// the bands (breaches, the rising filter, the simplification, the knots'
// bounds, the joining) are the batch's greedy passes, run as streams. Points
// and candidates that nothing still to compute can read are released.
class LocalBandStream {
 public:
  explicit LocalBandStream(const ClockStability& stability, const LocalBandSettings& settings = {});

  // One point of the link: a -> b (lower) or b -> a (upper). A point behind
  // the frontier already settled is late: left out (fewer constraints, bands
  // only wider) and counted.
  void add(Direction direction, const model::Point& point);
  void add(const LinkMessage& message) { add(message.direction, message.point); }

  // Every point with x < frontier has come. Frontiers that do not advance
  // are ignored.
  void settle(model::Nanoseconds frontier);

  // No point is still to come: every candidate is computed and the map
  // completed. Nothing may be added after (a point added is late). What
  // only the computing read (points, programs, candidates) is let go, each
  // as soon as it is drained: a finished stream holds its knots, breaches
  // and probes.
  void finish();
  bool finished() const { return finished_; }

  // The knots final so far (after finish(): the whole map, equal to
  // local_band_map's over the points used) and the breaches (the last one
  // may still grow until finish()).
  const ClockMap& knots() const { return final_knots_; }
  const std::vector<Breach>& breaches() const { return breaches_; }
  LocalBandMap map() const { return {final_knots_, breaches_}; }

  // centre_line's verdict on the points used (local_band_map.h), after
  // finish(): its probes are computed as the candidates are, one band per
  // probe_spacing, and kept (the verdict needs them all).
  CentreLine centre_line() const;

  // What finish() would give now, from a copy finished while this stream
  // goes on (a result while the link is followed). The copy takes each band
  // the last copy computed that no point come since can change (BandMemo),
  // and this stream takes them too as its frontier reaches them: a band is
  // computed about once, not once per result. `computed` and `reused` count
  // the copy's bands (candidates and probes).
  struct Finished {
    LocalBandMap map;
    CentreLine centre_line;
    std::size_t computed = 0;
    std::size_t reused = 0;
  };
  Finished finished_now() const;

  // Points behind the frontier when they came, left out.
  uint64_t late_points() const { return late_; }
  // What the stream holds besides the final knots: the window's points and
  // fastest points, the points not yet settled, the candidates not yet
  // decided (instants and bands), the knots not yet final.
  std::size_t held() const;

 private:
  struct DirectionPoints {
    // Come, not yet settled: the earliest in (x, y) order on top.
    std::priority_queue<model::Point, std::vector<model::Point>, std::greater<>> pending;
    std::deque<model::Point> window;       // settled, sorted by (x, y)
    std::deque<model::Point> fastest;      // the fastest of each bucket over the window
    std::optional<model::Nanoseconds> first;  // the direction's first settled abscissa
    model::Nanoseconds last = 0;           // and its last (when `first`)
  };
  // A knot chosen by the simplification: the candidate it stands on, its
  // knot (bound from the pieces on both sides chosen so far).
  struct Chosen {
    uint64_t candidate;
    Knot knot;
  };

  void take_settled(model::Nanoseconds frontier);
  void offer_abscissa(model::Nanoseconds x);
  void offer_instant(model::Nanoseconds t);
  bool ready(model::Nanoseconds t) const;
  bool side_known(const DirectionPoints& d, model::Nanoseconds t) const;
  void compute(model::Nanoseconds t);
  model::Nanoseconds reach_of(model::Nanoseconds window) const;
  static bool take_bounded(const LocalBand& found, BandMemo::Band& out);
  BandMemo::Key key_at(model::Nanoseconds t) const;
  LocalBand band_at(model::Nanoseconds t, const BandMemo::Key& key);
  BandMemo::Band candidate_band(model::Nanoseconds t, const BandMemo::Key& key);
  const BandMemo::Band& reused_or_computed(model::Nanoseconds t, BandMemo& reuse, BandMemo& fresh, bool probe);
  void probe(model::Nanoseconds t);
  void compute_ready();
  void note_breach(model::Nanoseconds t, double needed_ppm);
  void complete_knots();
  void simplify_next();
  void choose(uint64_t index);
  void end_onto_neighbouring_piece(uint64_t end_knot, uint64_t a, uint64_t b);
  void bound_pieces(bool ended);
  model::Quad piece_bound(uint64_t a, uint64_t b) const;
  void keep(uint64_t k);
  model::Quad slack_between(uint64_t from, uint64_t to) const;
  void join(bool ended);
  void release();
  const band::Candidate& candidate(uint64_t index) const { return candidates_[index - candidates_base_]; }

  // The band's programs at one instant, reused: scratch, so a copy of the
  // stream (finished at a query, as the estimator answers) makes its own.
  class Scratch {
   public:
    Scratch() : program_(std::make_unique<BandProgram>()) {}
    Scratch(const Scratch&) : Scratch() {}
    Scratch& operator=(const Scratch&) { return *this; }
    Scratch(Scratch&&) noexcept = default;
    Scratch& operator=(Scratch&&) noexcept = default;
    ~Scratch() = default;
    BandProgram* operator->() const { return program_.get(); }
    BandProgram& operator*() const { return *program_; }
    // No band is computed any more (finish()): the programs' storage goes.
    void let_go() { program_.reset(); }

   private:
    std::unique_ptr<BandProgram> program_;
  };

  ClockStability stability_;
  LocalBandSettings settings_;
  int64_t milli_ppm_;
  model::Nanoseconds margin_;  // M: how far a band reads from its instant
  Scratch program_;

  DirectionPoints lower_;
  DirectionPoints upper_;
  std::optional<model::Nanoseconds> frontier_;
  bool finished_ = false;
  uint64_t late_ = 0;

  // Candidate instants: the last abscissa and instant offered, and the
  // instants whose bands are not computed yet.
  std::optional<model::Nanoseconds> last_abscissa_;
  std::optional<model::Nanoseconds> last_instant_;
  std::deque<model::Nanoseconds> instants_;

  // centre_line's probes: the next instant, those not yet computed, those with a band.
  std::optional<model::Nanoseconds> next_probe_;
  std::deque<model::Nanoseconds> probe_instants_;
  std::vector<band::Probe> probes_;

  std::vector<model::Point> near_lower_;
  std::vector<model::Point> near_upper_;

  // Breaches.
  std::vector<Breach> breaches_;
  bool in_breach_ = false;

  // Candidates with a band, numbered from 0; those from candidates_base_ on
  // are held. The simplification has taken those before candidate_count_;
  // the ones after may still have their estimates lowered to their bands'
  // centres by a later candidate (band::rising_estimates).
  std::deque<band::Candidate> candidates_;
  bool any_candidate_ = false;
  model::Quad last_centre_ = 0;  // the last candidate's band's centre: the next must rise above it
  uint64_t candidates_base_ = 0;
  uint64_t candidate_count_ = 0;

  // The simplification's piece: its start, least half-width, slope interval.
  uint64_t start_ = 0;
  model::Quad least_half_width_ = 0;
  model::Quad slope_low_ = 0;
  model::Quad slope_high_ = 0;

  // Knots chosen, numbered from 0; those from chosen_base_ on are held. A
  // knot's bound is complete once the piece after it is bounded
  // (bounded_ knots have had both their pieces counted).
  std::deque<Chosen> chosen_;
  uint64_t chosen_base_ = 0;
  uint64_t chosen_count_ = 0;
  uint64_t bounded_ = 0;  // pieces bounded: from knot p to p + 1 for p < bounded_

  // The joining: the last knot kept (`from_`), the slack since it, the next knot to decide.
  uint64_t from_ = 0;
  model::Quad join_slack_ = 0;
  uint64_t deciding_ = 1;

  // The last knot the joining kept, its bound so far (its joined piece on
  // the left), final once the next is kept; and its candidate.
  std::optional<Knot> kept_;
  uint64_t kept_candidate_ = 0;

  ClockMap final_knots_;

  // Bands computed by the last copy finished_now() finished, for the next
  // one and for this stream (a cache: mutable); a copy keeps what it
  // computes or reuses in `fresh_*`.
  mutable BandMemo reuse_candidates_;
  mutable BandMemo reuse_probes_;
  BandMemo fresh_candidates_;
  BandMemo fresh_probes_;
  bool keeps_fresh_ = false;
  // The least abscissa of the points added since the bands were kept.
  mutable model::Nanoseconds added_from_ = std::numeric_limits<model::Nanoseconds>::max();
  BandMemo::Entry computed_entry_;  // reused_or_computed's answer when computed
  std::size_t computed_ = 0;
  std::size_t reused_ = 0;
};

}  // namespace tracesync::hull
