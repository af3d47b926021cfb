// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <vector>

#include "model/exact_transform.h"
#include "model/linear_transform.h"
#include "model/point.h"
#include "model/quad.h"

namespace tracesync::network {

// One piece of a piecewise transform: over [first, last] of the source
// clock, target = map(source), the truth within the linear interpolation of
// bound_first and bound_last (ns of the target clock).
//
// `exact` is the map itself, an exact composition of links' lines; `map` is
// it rounded once to quad, for evaluating. Lines are only ever combined in
// `exact` (issue 36: rounding at every step lost the 22nd digit).
struct TransformPiece {
  model::Quad first = 0;
  model::Quad last = 0;
  model::LinearTransform map;
  model::Quad bound_first = 0;
  model::Quad bound_last = 0;
  model::ExactTransform exact;

  TransformPiece() = default;
  TransformPiece(model::Quad first_, model::Quad last_, model::ExactTransform exact_, model::Quad bound_first_,
                 model::Quad bound_last_)
      : first(first_), last(last_), map(exact_.rounded()), bound_first(bound_first_), bound_last(bound_last_),
        exact(std::move(exact_)) {}
  // A quad map, taken at its exact value. Spell a braced map
  // model::LinearTransform{slope, offset}: with a bare {slope, offset} of
  // quads clang 14 also tries the exact overload and fails inside Boost.
  TransformPiece(model::Quad first_, model::Quad last_, const model::LinearTransform& map_, model::Quad bound_first_,
                 model::Quad bound_last_)
      : TransformPiece(first_, last_, model::ExactTransform::of(map_), bound_first_, bound_last_) {}

  model::Quad at(model::Quad t) const { return map.slope * t + map.offset; }
  // The bound at t, interpolated (or extrapolated) linearly; exact at the ends.
  model::Quad bound_at(model::Quad t) const;
};

// A piece with int64 ends, as a trace's transform is reported: `exact` is
// the exact composition (printed rounded once), `map` it rounded to quad.
struct ReportedPiece {
  model::Nanoseconds first = 0;
  model::Nanoseconds last = 0;
  model::LinearTransform map;
  model::Quad bound_first = 0;
  model::Quad bound_last = 0;
  model::ExactTransform exact;
};

// A continuous, strictly increasing, piecewise linear map of one clock onto
// another over a closed span, with a bound at every instant (DESIGN.md,
// "Per-trace transform"): what composing link clock maps along a path gives.
// Pieces are contiguous (each starts where the previous ends) and non-empty.
//
// Beyond its span a transform continues its end pieces; there the bound
// grows by `growth + |slope - 1|` ns per ns of distance, slope the end
// piece's: `growth` is the rate limit R, for nothing was measured there, so
// nothing checks the clock-stability assumption (0: no growth, the linear
// premise). The reference's identity (bound 0) is exact anywhere and does
// not grow.
class PiecewiseTransform {
 public:
  // Needs at least one piece; pieces contiguous, in order.
  explicit PiecewiseTransform(std::vector<TransformPiece> pieces);
  // t onto t, bound 0.
  static PiecewiseTransform identity(model::Quad first, model::Quad last);

  const std::vector<TransformPiece>& pieces() const { return pieces_; }
  model::Quad first() const { return pieces_.front().first; }
  model::Quad last() const { return pieces_.back().last; }

  // The target time of source time t: the piece holding t maps it (at a
  // breakpoint, the piece that ends there: pieces meet, so both agree up to
  // rounding); beyond the span, the end piece continued.
  model::Quad at(model::Quad t) const;

  // The map the other way: target onto source, with the same bounds.
  PiecewiseTransform inverse() const;

  // Cut to [first, last], the end pieces continued where it reaches beyond.
  PiecewiseTransform over(model::Quad first, model::Quad last, model::Quad growth) const;

  // `inner` then this, over inner's span; bounds add (the slopes are within
  // ppm of 1, so a bound carried through a map keeps its size).
  PiecewiseTransform after(const PiecewiseTransform& inner, model::Quad growth) const;

  // The largest bound anywhere in the span (bounds are linear in a piece).
  model::Quad worst_bound() const;

  // With int64 ends, over [first, last] (an integer span). A breakpoint that
  // falls between two integers moves to the nearest one: the pieces around
  // it become chords through the exact values at their integer ends
  // (computed exactly: a chord of one line is that line), and
  // the bound there grows by the slope change over 1 ns, which covers the
  // chord's departure from the exact map. A lone piece keeps its map bit
  // for bit.
  std::vector<ReportedPiece> reported(model::Nanoseconds first, model::Nanoseconds last, model::Quad growth) const;

 private:
  // Joins neighbours with the same map whose joined bound still covers the
  // bound at their meeting point.
  void merge_neighbours();

  std::vector<TransformPiece> pieces_;
};

// A domain's transform onto its island's reference: `onto_parent` (its
// link's map onto the parent domain) then `parent` (the parent's transform).
// It covers the domain's own span [first, last] and all of onto_parent's:
// a child's image can fall anywhere the link map was measured, and there the
// map's own pieces and bounds hold, not its end piece continued by `growth`
// (that gave a bound below the sum of the links' bounds). verify and the
// tests' exact recomputation continue maps by the same rule.
PiecewiseTransform composed_onto_parent(const PiecewiseTransform& parent, const PiecewiseTransform& onto_parent,
                                        model::Quad first, model::Quad last, model::Quad growth);

// The best single line over a reported transform, with its honest bound:
// the line that minimises max over knots of |line - map| + bound, and that
// maximum (which holds everywhere: both terms are linear between knots).
// A lone piece is its own best line.
struct SingleLine {
  model::LinearTransform map;
  model::Quad bound = 0;
  // The lone piece's exact map; nullopt for a line fitted over several.
  std::optional<model::ExactTransform> exact;
};
SingleLine best_single_line(const std::vector<ReportedPiece>& pieces);

}  // namespace tracesync::network
