// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "apply/piecewise_transform.h"

namespace tracesync::apply {

// A CTF clock as its cycle values read: `freq` Hz, origin at offset_s
// seconds plus offset_cycles cycles after the epoch.
struct ClockOrigin {
  uint64_t freq = 1'000'000'000;
  int64_t offset_s = 0;
  uint64_t offset_cycles = 0;
};

// Maps cycle values of one clock through a transform in pieces, keeping the
// clock: the new cycle value of c is the nearest cycle to transform(time of
// c). Within a piece, ns = origin + c * 1e9 / freq and t_ref = slope * ns +
// offset, so the new value is round(slope * c + intercept) with intercept =
// ((slope - 1) * origin + offset) * freq / 1e9, in quad precision.
//
// Quad arithmetic costs ~100 ns a value in software; the copy maps one
// value per event. Times of a stream come in order and close together, so
// map() keeps an anchor (a cycle value, its exact image split into an
// integer and a fraction) and maps a nearby later value with one double
// multiply-add of the drift (slope - 1) on the fraction. It falls back to
// quad, and re-anchors, whenever the double could round the other way than
// the exact value (a fraction within 1e-6 of a half), so the result is
// always the quad result. One retimer per stream: the anchor is per stream.
class ClockRetimer {
 public:
  ClockRetimer(const ClockOrigin& clock, const PiecewiseTransform& transform);

  // False when the new value falls before the clock's origin or beyond 64
  // bits (a cycle value is unsigned).
  bool map(uint64_t cycles, uint64_t* mapped);

  // The same with quad arithmetic only: the reference map() must equal.
  bool map_exactly(uint64_t cycles, uint64_t* mapped) const;

 private:
  struct Piece {
    uint64_t last_cycles;
    model::Quad slope;
    model::Quad intercept;  // in cycles
    double drift;           // slope - 1, for the fast path
  };
  std::size_t piece_of(uint64_t cycles);
  uint64_t first_cycle_of(std::size_t piece) const { return piece == 0 ? 0 : pieces_[piece - 1].last_cycles + 1; }
  bool anchor_and_map(uint64_t cycles, uint64_t* mapped);

  std::vector<Piece> pieces_;
  std::size_t last_ = 0;  // the piece used last
  // The anchor: slope * anchor_cycles_ + intercept = anchor_whole_ + anchor_fraction_, in piece anchor_piece_.
  bool anchored_ = false;
  std::size_t anchor_piece_ = 0;
  uint64_t anchor_cycles_ = 0;
  __int128 anchor_whole_ = 0;
  double anchor_fraction_ = 0;
};

}  // namespace tracesync::apply
