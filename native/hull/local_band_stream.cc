// SPDX-License-Identifier: EPL-2.0
#include "hull/local_band_stream.h"

#include <algorithm>
#include <limits>

#include "hull/local_band.h"

namespace tracesync::hull {
namespace {

// Empties a container and gives its storage back (clear() keeps it).
template <typename Container>
void let_go(Container& c) {
  c = Container();
}

}  // namespace

using model::Nanoseconds;
using model::Point;
using model::Quad;

LocalBandStream::LocalBandStream(const ClockStability& stability, const LocalBandSettings& settings)
    : stability_(stability),
      settings_(settings),
      milli_ppm_(band::milli_ppm_of(stability)),
      // A band at t reads the k-th point on each side when it lies within
      // the widest window (beyond, `reach` clamps to it), the points within
      // W and within S, and the fastest of every bucket holding a point
      // within the far reach: whole buckets, two of them at most beyond it
      // (bucket 0 spans both signs).
      margin_(std::max({settings.widest_window, settings.horizon, settings.far_reach + 2 * settings.bucket})) {}

void LocalBandStream::add(Direction direction, const Point& point) {
  if (finished_ || (frontier_ && point.x < *frontier_)) {
    ++late_;
    return;
  }
  (direction == Direction::kAtoB ? lower_ : upper_).pending.push(point);
  added_from_ = std::min(added_from_, point.x);
}

void LocalBandStream::settle(Nanoseconds frontier) {
  if (finished_ || (frontier_ && frontier <= *frontier_)) return;
  frontier_ = frontier;
  take_settled(frontier);
  compute_ready();
  release();
}

// The candidates and probes whose bands can be computed, each in time order.
void LocalBandStream::compute_ready() {
  for (; !instants_.empty() && ready(instants_.front()); instants_.pop_front()) compute(instants_.front());
  for (; !probe_instants_.empty() && ready(probe_instants_.front()); probe_instants_.pop_front()) {
    probe(probe_instants_.front());
  }
}

// The pending points before `frontier`, in (x, y) order (popped from the
// heap: O(log n) a point, however often the frontier moves), onto each
// direction's window and buckets' fastest; their abscissae, both
// directions' merged, offered as candidate instants. Every point settled
// before lies behind the previous frontier, so they continue the sequence.
// They are read back from the windows' ends, where they were put (no copy:
// at finish() a horizon of points settles at once).
void LocalBandStream::take_settled(Nanoseconds frontier) {
  std::size_t taken[2] = {0, 0};
  std::size_t* n = taken;
  for (DirectionPoints* d : {&lower_, &upper_}) {
    for (; !d->pending.empty() && d->pending.top().x < frontier; d->pending.pop()) {
      const Point& p = d->pending.top();
      d->window.push_back(p);
      band::keep_fastest(d->fastest, p, d == &lower_, settings_.bucket);
      ++*n;
    }
    if (finished_) let_go(d->pending);  // drained for good: its capacity goes before the other side's grows
    if (*n > 0) {
      if (!d->first) d->first = d->window[d->window.size() - *n].x;
      d->last = d->window.back().x;
    }
    ++n;
  }
  auto lower = lower_.window.cend() - static_cast<std::ptrdiff_t>(taken[0]);
  auto upper = upper_.window.cend() - static_cast<std::ptrdiff_t>(taken[1]);
  const auto lower_end = lower_.window.cend();
  const auto upper_end = upper_.window.cend();
  while (lower != lower_end || upper != upper_end) {
    const bool from_lower = upper == upper_end || (lower != lower_end && !(upper->x < lower->x));
    offer_abscissa((from_lower ? lower++ : upper++)->x);
  }
}

// Every abscissa, and the middle of every gap longer than `gap_midpoint`:
// local_band_map's candidate_instants, one abscissa at a time.
void LocalBandStream::offer_abscissa(Nanoseconds x) {
  // centre_line's probes, probe_spacing apart from the first abscissa on,
  // up to the last one.
  if (!next_probe_) next_probe_ = x;
  for (; *next_probe_ <= x; *next_probe_ += settings_.probe_spacing) probe_instants_.push_back(*next_probe_);
  if (last_abscissa_ && x - *last_abscissa_ > settings_.gap_midpoint) {
    offer_instant(*last_abscissa_ + (x - *last_abscissa_) / 2);
  }
  offer_instant(x);
  last_abscissa_ = x;
}

void LocalBandStream::offer_instant(Nanoseconds t) {
  if (last_instant_ && t - *last_instant_ < settings_.least_spacing) return;
  instants_.push_back(t);
  last_instant_ = t;
}

// Whether `checkable` can tell, for one direction at t, whether its traffic
// goes on beyond t + S: it does not need to when the points within S after t
// are enough, and it knows when a point beyond has settled.
bool LocalBandStream::side_known(const DirectionPoints& d, Nanoseconds t) const {
  if (d.first && d.last > t + settings_.horizon) return true;
  return band::within(d.window, t + 1, t + settings_.horizon).size() >= settings_.checked_per_side;
}

bool LocalBandStream::ready(Nanoseconds t) const {
  if (finished_) return true;
  // Both directions have points (the batch's map is empty otherwise), every
  // point the band at t reads has come, and `checkable` can be decided.
  return lower_.first && upper_.first && *frontier_ > t + margin_ && side_known(lower_, t) && side_known(upper_, t);
}

// How far from t the band at t reads points, its window being W: W, or the
// far reach's buckets.
Nanoseconds LocalBandStream::reach_of(Nanoseconds window) const {
  return std::max(window, settings_.far_reach + 2 * settings_.bucket);
}

// A bounded band's centre and half-width into `out`; false, and `out` left
// unbounded, for any other band.
bool LocalBandStream::take_bounded(const LocalBand& found, BandMemo::Band& out) {
  if (found.kind != LocalBand::Kind::kBounded) return false;
  out.bounded = true;
  out.centre = (found.low() + found.high()) / 2;
  out.half_width = found.half_width();
  return true;
}

// What the band at t reads (BandMemo::Key): its window W, whether the data
// check the stability assumption there (local_band_map's `checkable`: if
// not, the band is taken under the rate limit), and how many points of
// each direction lie within its reach, W or the far reach's buckets.
BandMemo::Key LocalBandStream::key_at(Nanoseconds t) const {
  BandMemo::Key key;
  key.window = band::window_at(lower_.window, upper_.window, t, settings_);
  auto is_sparse = [&](const DirectionPoints& d) {
    return band::sparse(d.window, t, *d.first < t - settings_.horizon, d.last > t + settings_.horizon, settings_);
  };
  key.checked = !is_sparse(lower_) && !is_sparse(upper_);
  const Nanoseconds reach = reach_of(key.window);
  key.lower = band::within(lower_.window, t - reach, t + reach).size();
  key.upper = band::within(upper_.window, t - reach, t + reach).size();
  return key;
}

// The band at t, as local_band_map's BandsOf computes it: under the
// assumption's stability, or the rate limit's where the messages cannot
// check it.
LocalBand LocalBandStream::band_at(Nanoseconds t, const BandMemo::Key& key) {
  const Nanoseconds w = key.window;
  band::gather(near_lower_, band::within(lower_.window, t - w, t + w), lower_.fastest, t, w, settings_);
  band::gather(near_upper_, band::within(upper_.window, t - w, t + w), upper_.fastest, t, w, settings_);
  program_->set(near_lower_, near_upper_, t, settings_.horizon);
  return program_->under(key.checked ? milli_ppm_ : band::kCap);
}

// The band at candidate instant t, as local_band_map computes it: where it
// is empty (a breach), the stability that makes it not, and the band under
// that; the estimate in it.
BandMemo::Band LocalBandStream::candidate_band(Nanoseconds t, const BandMemo::Key& key) {
  BandMemo::Band out;
  out.milli_ppm = key.checked ? milli_ppm_ : band::kCap;
  LocalBand found = band_at(t, key);
  if (found.kind == LocalBand::Kind::kEmpty) {
    out.empty = true;
    const auto needed = key.checked ? program_->needed(milli_ppm_, band::kCap) : std::nullopt;
    if (!needed) return out;
    out.needed_ppm = static_cast<double>(*needed) / 1000;
    out.milli_ppm = *needed;
    found = program_->under(out.milli_ppm);
  }
  if (!take_bounded(found, out)) return out;
  out.estimate = band::estimate_of(*program_, found, std::min(out.milli_ppm, milli_ppm_), settings_).value;
  return out;
}

// The band at t: the one `reuse` kept if no point come since changes it, or
// computed (a candidate's, or a probe's: the band alone); kept in `fresh` by
// a copy finished_now() finishes.
const BandMemo::Band& LocalBandStream::reused_or_computed(Nanoseconds t, BandMemo& reuse, BandMemo& fresh, bool probe) {
  const BandMemo::Entry* kept = reuse.at(t);
  std::optional<BandMemo::Key> key;
  if (kept && !BandMemo::untouched(*kept, added_from_)) {
    key = key_at(t);
    if (!(*key == kept->key)) kept = nullptr;
  }
  if (kept) {
    ++reused_;
    if (keeps_fresh_) fresh.keep(*kept);
    return kept->band;
  }
  if (!key) key = key_at(t);
  BandMemo::Entry& entry = computed_entry_;
  entry = {t, *key, t + reach_of(key->window), true, {}};
  for (const DirectionPoints* d : {&lower_, &upper_}) {
    entry.checked_after = entry.checked_after && band::within(d->window, t + 1, t + settings_.horizon).size() >=
                                                     settings_.checked_per_side;
  }
  if (probe) {
    entry.band.milli_ppm = key->checked ? milli_ppm_ : band::kCap;
    take_bounded(band_at(t, *key), entry.band);
  } else {
    entry.band = candidate_band(t, *key);
  }
  ++computed_;
  if (keeps_fresh_) fresh.keep(entry);
  return entry.band;
}

void LocalBandStream::probe(Nanoseconds t) {
  const BandMemo::Band& band = reused_or_computed(t, reuse_probes_, fresh_probes_, true);
  if (band.bounded) probes_.push_back({t, band.centre, band.half_width});
}

CentreLine LocalBandStream::centre_line() const {
  if (!lower_.first || !upper_.first) return {};
  const Nanoseconds first = std::min(*lower_.first, *upper_.first);
  const Nanoseconds last = std::max(lower_.last, upper_.last);
  if (static_cast<uint64_t>(last) - static_cast<uint64_t>(first) < static_cast<uint64_t>(settings_.least_probed)) return {};
  return band::centre_line_of(probes_, settings_);
}

// The candidate at instant t, as local_band_map makes it.
void LocalBandStream::compute(Nanoseconds t) {
  const BandMemo::Band& band = reused_or_computed(t, reuse_candidates_, fresh_candidates_, false);
  if (band.empty) {
    note_breach(t, band.needed_ppm);
    in_breach_ = true;
  } else {
    in_breach_ = false;
  }
  if (!band.bounded) return;
  if (any_candidate_ && !(band.centre > last_centre_)) return;  // the bands' centres must rise
  any_candidate_ = true;
  last_centre_ = band.centre;
  candidates_.push_back({t, band.estimate, band.half_width, band.milli_ppm, band.centre});
  band::rising_estimates(candidates_);
  // A candidate whose band's centre rises above the estimate before it is
  // never reached by a later rising_estimates (it stops there), so the
  // candidates before it are final; after a rising_estimates that acted,
  // the newest is such a candidate.
  const band::Candidate& newest = candidates_.back();
  const uint64_t newest_index = candidates_base_ + candidates_.size() - 1;
  if (newest_index == 0 || newest.band_centre > candidate(newest_index - 1).centre) {
    while (candidate_count_ < newest_index) simplify_next();
  }
}

void LocalBandStream::note_breach(Nanoseconds t, double needed_ppm) {
  if (in_breach_ && !breaches_.empty()) {
    Breach& last = breaches_.back();
    last.span.last = t;
    last.needed_ppm = (last.needed_ppm == 0 || needed_ppm == 0) ? 0 : std::max(last.needed_ppm, needed_ppm);
  } else {
    breaches_.push_back({{t, t}, needed_ppm});
  }
}

// The simplification (local_band_map's `simplified`), one candidate at a
// time: a piece ends where its chord would leave some covered candidate's
// centre by more than tau, or before a stretch whose slack alone exceeds
// tau; the candidate is then taken again, next to the new piece's start.
void LocalBandStream::simplify_next() {
  const uint64_t i = candidate_count_++;
  const band::Candidate& c = candidate(i);
  const Quad kInfinity = std::numeric_limits<double>::infinity();
  auto restart = [&](uint64_t at) {
    start_ = at;
    least_half_width_ = candidate(at).half_width;
    slope_low_ = -kInfinity;
    slope_high_ = kInfinity;
    choose(at);
  };
  if (i == 0) {
    restart(0);
    return;
  }
  for (;;) {
    least_half_width_ = std::min(least_half_width_, c.half_width);
    const Quad tau = std::max(static_cast<Quad>(settings_.least_tau_ns),
                              static_cast<Quad>(settings_.tau_fraction) * least_half_width_);
    const bool forced = band::chord_slack(candidate(i - 1), c, settings_) > tau;
    const band::Candidate& s = candidate(start_);
    const Quad run = static_cast<Quad>(c.x - s.x);
    const Quad slope = (c.centre - s.centre) / run;
    const bool too_long = i - start_ > settings_.longest_piece;
    if (i > start_ + 1 && (forced || too_long || slope < slope_low_ || slope > slope_high_)) {
      restart(i - 1);
      continue;
    }
    if (forced) {
      restart(i);
      return;
    }
    slope_low_ = std::max(slope_low_, (c.centre - tau - s.centre) / run);
    slope_high_ = std::min(slope_high_, (c.centre + tau - s.centre) / run);
    return;
  }
}

void LocalBandStream::choose(uint64_t index) {
  const band::Candidate& c = candidate(index);
  chosen_.push_back({index, {c.x, c.centre, 0}});
  ++chosen_count_;
  bound_pieces(false);
  join(false);
}

// One end of the map onto its neighbouring piece, from knot a to knot b
// (band::onto_neighbouring_piece), its knot with it.
void LocalBandStream::end_onto_neighbouring_piece(uint64_t end_knot, uint64_t a, uint64_t b) {
  Chosen& end = chosen_[end_knot - chosen_base_];
  band::Candidate& c = candidates_[end.candidate - candidates_base_];
  const uint64_t inner = end_knot == 0 ? end.candidate + 1 : end.candidate - 1;
  band::onto_neighbouring_piece(c, candidate(chosen_[a - chosen_base_].candidate),
                                candidate(chosen_[b - chosen_base_].candidate), candidate(inner), settings_);
  end.knot.y = c.centre;
}

// The knots' bounds (local_band_map's `knots_of` and `piece_bound`): each
// piece's bound, the largest half-width plus distance from its chord over
// the candidates it covers plus the largest slack between two of them,
// raises the knots at both its ends. A piece waits for the knot after its
// end (its end may be the map's last, which finish() moves onto the piece
// before it), and the first piece for the fourth knot (then the first
// moves onto the second piece), as local_band_map moves both ends before
// it bounds.
void LocalBandStream::bound_pieces(bool ended) {
  const bool ends_move = chosen_count_ >= band::kKnotsForEndsToMove;
  const uint64_t ready = ended ? chosen_count_ : (ends_move ? chosen_count_ - 1 : 0);
  if (bounded_ == 0 && ready >= 2 && ends_move) end_onto_neighbouring_piece(0, 1, 2);
  while (bounded_ + 1 < ready) {
    Chosen& from = chosen_[bounded_ - chosen_base_];
    Chosen& to = chosen_[bounded_ + 1 - chosen_base_];
    const Quad bound = piece_bound(from.candidate, to.candidate);
    from.knot.bound = std::max(from.knot.bound, bound);
    to.knot.bound = std::max(to.knot.bound, bound);
    ++bounded_;
  }
}

// The largest slack between two consecutive candidates in [from, to].
Quad LocalBandStream::slack_between(uint64_t from, uint64_t to) const {
  Quad slack = 0;
  for (uint64_t i = from; i < to; ++i) slack = std::max(slack, band::chord_slack(candidate(i), candidate(i + 1), settings_));
  return slack;
}

// The joining (local_band_map's `merged`), greedy from the left: knot k is
// dropped when the chord from the last kept knot to knot k + 1 holds within
// both their bounds, decided once knot k + 1's bound is complete (the piece
// after it bounded, or the stream ended).
void LocalBandStream::join(bool ended) {
  auto knot = [&](uint64_t k) -> const Chosen& { return chosen_[k - chosen_base_]; };
  while (deciding_ + 1 < chosen_count_ && (ended || bounded_ >= deciding_ + 2)) {
    const uint64_t k = deciding_++;
    if (k == 1) {
      keep(0);
      join_slack_ = slack_between(knot(0).candidate, knot(1).candidate);
    }
    join_slack_ = std::max(join_slack_, slack_between(knot(k).candidate, knot(k + 1).candidate));
    const uint64_t a = knot(from_).candidate;
    const uint64_t b = knot(k + 1).candidate;
    const Quad limit = std::min(knot(from_).knot.bound, knot(k + 1).knot.bound);
    bool holds = k + 1 - from_ <= settings_.merge_reach && join_slack_ + band::kRoundingPad <= limit;
    const band::Candidate& ca = candidate(a);
    const band::Candidate& cb = candidate(b);
    const Quad slope = (cb.centre - ca.centre) / static_cast<Quad>(cb.x - ca.x);
    for (uint64_t i = a; holds && i <= b; ++i) {
      const band::Candidate& c = candidate(i);
      const Quad on_line = ca.centre + slope * static_cast<Quad>(c.x - ca.x);
      holds = band::need(c, on_line) + join_slack_ + band::kRoundingPad <= limit;
    }
    if (holds) continue;
    keep(k);
    from_ = k;
    join_slack_ = slack_between(knot(k).candidate, knot(k + 1).candidate);
  }
}

// Knot k of the simplification is kept by the joining. As local_band_map's
// `merged` does once all are kept, each kept knot's bound becomes the
// largest of its joined pieces' (piece_bound over the candidates from one
// kept knot to the next): the previous kept knot is final once this one's
// piece is bounded.
void LocalBandStream::keep(uint64_t k) {
  const Chosen& chosen = chosen_[k - chosen_base_];
  Knot knot = chosen.knot;
  knot.bound = 0;
  if (kept_) {
    const Quad piece = piece_bound(kept_candidate_, chosen.candidate);
    kept_->bound = std::max(kept_->bound, piece);
    final_knots_.push_back(*kept_);
    knot.bound = piece;
  }
  kept_ = knot;
  kept_candidate_ = chosen.candidate;
}

// local_band_map's piece_bound, over the candidates held.
Quad LocalBandStream::piece_bound(uint64_t a, uint64_t b) const {
  return band::piece_bound([this](uint64_t i) -> const band::Candidate& { return candidate(i); }, a, b, settings_);
}

void LocalBandStream::finish() {
  if (finished_) return;
  finished_ = true;
  take_settled(std::numeric_limits<Nanoseconds>::max());
  if (!lower_.first || !upper_.first) {  // one direction has no message: no band anywhere
    const uint64_t late = late_;
    *this = LocalBandStream(stability_, settings_);
    late_ = late;
    finished_ = true;
    return;
  }
  compute_ready();
  // Every band is computed: the points, the programs and the bands kept
  // for reuse go before the passes that follow.
  for (DirectionPoints* d : {&lower_, &upper_}) {
    let_go(d->window);
    let_go(d->fastest);
  }
  let_go(near_lower_);
  let_go(near_upper_);
  program_.let_go();
  // (A copy finished by finished_now() hands its fresh bands back.)
  let_go(reuse_candidates_);
  let_go(reuse_probes_);
  complete_knots();
  release();
  // Only the knots, the breaches and the probes are read from here on.
  let_go(candidates_);
  let_go(chosen_);
  let_go(instants_);
  let_go(probe_instants_);
}

// finish()'s passes after the bands: the simplification's last pieces, the
// map's last end moved onto its neighbouring piece, the knots' bounds and
// the joining, to the last knot.
void LocalBandStream::complete_knots() {
  while (candidate_count_ < candidates_base_ + candidates_.size()) simplify_next();
  if (candidate_count_ == 0) return;
  if (chosen_.back().candidate != candidate_count_ - 1) choose(candidate_count_ - 1);
  if (chosen_count_ >= band::kKnotsForEndsToMove) {
    end_onto_neighbouring_piece(chosen_count_ - 1, chosen_count_ - 3, chosen_count_ - 2);
  }
  bound_pieces(true);
  join(true);
  if (chosen_count_ == 1) {
    Chosen& only = chosen_.back();
    only.knot.bound = band::need(candidate(only.candidate), only.knot.y) + band::kRoundingPad;
    final_knots_.push_back(only.knot);
  } else if (chosen_count_ == 2) {
    // Two knots are not joined, and keep knots_of's bounds.
    final_knots_.push_back(chosen_.front().knot);
    final_knots_.push_back(chosen_.back().knot);
  } else {
    keep(chosen_count_ - 1);
    final_knots_.push_back(*kept_);
  }
}

// Drops what nothing still to compute reads: points older than the oldest
// candidate or probe instant still to come less M, candidates before the
// last kept knot's, knots before it.
void LocalBandStream::release() {
  std::optional<Nanoseconds> oldest;
  if (!instants_.empty()) {
    oldest = instants_.front();
  } else if (last_abscissa_) {
    oldest = last_abscissa_;  // every instant still to come lies after it
  }
  if (!probe_instants_.empty()) oldest = oldest ? std::min(*oldest, probe_instants_.front()) : probe_instants_.front();
  if (oldest && !finished_) {
    const Nanoseconds keep_from = *oldest - margin_;
    for (DirectionPoints* d : {&lower_, &upper_}) {
      while (!d->window.empty() && d->window.front().x < keep_from) d->window.pop_front();
      while (!d->fastest.empty() && d->fastest.front().x < keep_from) d->fastest.pop_front();
    }
  }
  if (chosen_count_ == 0) return;
  while (chosen_base_ < from_) {
    chosen_.pop_front();
    ++chosen_base_;
  }
  const uint64_t keep_candidates = chosen_.front().candidate;
  while (candidates_base_ < keep_candidates) {
    candidates_.pop_front();
    ++candidates_base_;
  }
}

LocalBandStream::Finished LocalBandStream::finished_now() const {
  // The bands kept go to the copy (which drops those before its instants)
  // rather than being copied with it; what it keeps comes back.
  BandMemo candidates = std::move(reuse_candidates_);
  BandMemo probes = std::move(reuse_probes_);
  reuse_candidates_ = {};
  reuse_probes_ = {};
  LocalBandStream copy(*this);
  copy.reuse_candidates_ = std::move(candidates);
  copy.reuse_probes_ = std::move(probes);
  copy.keeps_fresh_ = true;
  copy.computed_ = 0;
  copy.reused_ = 0;
  copy.finish();
  reuse_candidates_ = std::move(copy.fresh_candidates_);
  reuse_probes_ = std::move(copy.fresh_probes_);
  added_from_ = std::numeric_limits<Nanoseconds>::max();  // what they kept holds every point come so far
  return {copy.map(), copy.centre_line(), copy.computed_, copy.reused_};
}

std::size_t LocalBandStream::held() const {
  std::size_t n = instants_.size() + candidates_.size() + chosen_.size() + probe_instants_.size() + probes_.size() +
                  reuse_candidates_.size() + reuse_probes_.size();
  for (const DirectionPoints* d : {&lower_, &upper_}) n += d->pending.size() + d->window.size() + d->fastest.size();
  return n;
}

}  // namespace tracesync::hull
