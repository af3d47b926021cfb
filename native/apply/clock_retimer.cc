// SPDX-License-Identifier: EPL-2.0
#include "apply/clock_retimer.h"

#include <quadmath.h>

#include <cmath>

namespace tracesync::apply {
namespace {

constexpr model::Quad kNsPerSecond = 1'000'000'000;
constexpr model::Quad kTwoTo64 = 0x1p64Q;

// The fast path stays within 2^32 cycles of its anchor and with a drift
// below 1e-2, so drift * distance stays below 4.3e7 and the double's error
// on it below 1e-8 cycle: a margin of 1e-6 from a half is then always safe.
constexpr uint64_t kAnchorReach = uint64_t{1} << 32;
constexpr double kFastDrift = 1e-2;
constexpr double kHalfMargin = 1e-6;

bool to_cycles(model::Quad value, uint64_t* out) {
  if (value < 0 || value >= kTwoTo64) return false;
  *out = static_cast<uint64_t>(value);
  return true;
}

}  // namespace

ClockRetimer::ClockRetimer(const ClockOrigin& clock, const PiecewiseTransform& transform) {
  const auto freq = static_cast<model::Quad>(clock.freq);
  const model::Quad origin = static_cast<model::Quad>(clock.offset_s) * kNsPerSecond +
                             static_cast<model::Quad>(clock.offset_cycles) * kNsPerSecond / freq;
  for (const TransformPiece& p : transform.pieces()) {
    const model::Quad last_cycles = floorq((static_cast<model::Quad>(p.last_ns) - origin) * freq / kNsPerSecond);
    pieces_.push_back({last_cycles < 0 ? 0 : last_cycles >= kTwoTo64 ? UINT64_MAX : static_cast<uint64_t>(last_cycles),
                       p.line.slope, ((p.line.slope - 1) * origin + p.line.offset) * freq / kNsPerSecond,
                       static_cast<double>(p.line.slope - 1)});
  }
}

std::size_t ClockRetimer::piece_of(uint64_t cycles) {
  // Times go forward within a stream: start from the piece used last.
  if (cycles < first_cycle_of(last_)) last_ = 0;
  while (last_ + 1 < pieces_.size() && cycles > pieces_[last_].last_cycles) ++last_;
  return last_;
}

bool ClockRetimer::map_exactly(uint64_t cycles, uint64_t* mapped) const {
  std::size_t i = 0;
  while (i + 1 < pieces_.size() && cycles > pieces_[i].last_cycles) ++i;
  const Piece& p = pieces_[i];
  return to_cycles(roundq(p.slope * static_cast<model::Quad>(cycles) + p.intercept), mapped);
}

bool ClockRetimer::map(uint64_t cycles, uint64_t* mapped) {
  const std::size_t piece = piece_of(cycles);
  if (anchored_ && piece == anchor_piece_ && cycles >= anchor_cycles_ && cycles - anchor_cycles_ < kAnchorReach &&
      std::abs(pieces_[piece].drift) < kFastDrift) {
    const uint64_t distance = cycles - anchor_cycles_;
    // image = whole + distance + (fraction + drift * distance); round the last term.
    const double tail = anchor_fraction_ + pieces_[piece].drift * static_cast<double>(distance) + 0.5;
    const double below = std::floor(tail);
    const double above_half = tail - below;
    if (above_half > kHalfMargin && above_half < 1 - kHalfMargin) {
      const __int128 out = anchor_whole_ + distance + static_cast<__int128>(below);
      if (out < 0 || out > static_cast<__int128>(UINT64_MAX)) return false;
      *mapped = static_cast<uint64_t>(out);
      return true;
    }
  }
  return anchor_and_map(cycles, mapped);
}

bool ClockRetimer::anchor_and_map(uint64_t cycles, uint64_t* mapped) {
  const Piece& p = pieces_[last_];
  const model::Quad image = p.slope * static_cast<model::Quad>(cycles) + p.intercept;
  const model::Quad whole = floorq(image);
  anchored_ = whole > -kTwoTo64 && whole < 2 * kTwoTo64;
  if (anchored_) {
    anchor_piece_ = last_;
    anchor_cycles_ = cycles;
    anchor_whole_ = static_cast<__int128>(whole);
    anchor_fraction_ = static_cast<double>(image - whole);
  }
  return to_cycles(roundq(image), mapped);
}

}  // namespace tracesync::apply
