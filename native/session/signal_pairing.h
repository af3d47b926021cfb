// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/point.h"

namespace tracesync::session {

// Pairs the occurrences of one simultaneous signal on two hosts, a and b,
// by order (docs/signals.md). Clocks may run at rates that differ by up
// to kRateAllowance; each occurrence is recorded within the pair jitter
// `pair_jitter` (on b's clock) of what b's clock read at a's recording.
//
// Once aligned (b ~ a + offset within some uncertainty), each occurrence of
// a is paired with the one occurrence of b that its window admits; the
// window is the pair jitter twice plus the drift allowed since the last
// pair. An occurrence is left unpaired when its window holds none (one host
// missed it, or the other gained one), refused when it holds several, or
// when its window is so wide that it could reach a neighbour's partner (the
// pairing is then cut and aligned again). What cannot be excluded by order:
// an occurrence one host missed, replaced by an extra one within its
// window on that host (docs/signals.md).
inline constexpr double kRateAllowance = 1e-3;

struct Alignment {
  model::Nanoseconds offset = 0;       // b's clock - a's clock, about
  model::Nanoseconds uncertainty = 0;  // the true offset is within +- this
};

// An alignment at an instant of a's clock, from outside the signal (the
// link's messages, or clocks known to agree within a bound); nullopt when
// none is known there.
using AlignmentSource = std::function<std::optional<Alignment>(model::Nanoseconds on_a)>;

struct SignalPair {
  model::Nanoseconds a = 0;
  model::Nanoseconds b = 0;
  model::Nanoseconds window = 0;  // the half-width of a's window that found b (settle_margin)
};

struct PairingOutcome {
  std::vector<SignalPair> pairs;
  uint64_t unpaired_a = 0;   // a's occurrences with no partner in their window
  uint64_t unpaired_b = 0;   // b's occurrences paired with none
  uint64_t ambiguous = 0;    // a's occurrences whose window held several of b's, or b's that several of a's claimed
  uint64_t cuts = 0;         // times the pairing lost its alignment (too long without a pair)
  uint64_t not_aligned = 0;  // a's occurrences met while no alignment was known
  // Where each refusal or cut was, on a's clock, the first few of each.
  std::vector<std::string> notes;
  // How the pairing was aligned (first time): "messages", "clocks-within", "spacing", or empty.
  std::string aligned_by;
};

// `a` and `b` sorted, without repeats.
PairingOutcome pair_signal(std::span<const model::Nanoseconds> a, std::span<const model::Nanoseconds> b,
                           model::Nanoseconds pair_jitter, const AlignmentSource& from_messages,
                           std::optional<model::Nanoseconds> clocks_within);

// The alignment the signals' own spacing gives near a[first..]: the offset
// that pairs most of the next few occurrences, when no other offset pairs
// nearly as many (an irregular signal); nullopt for a regular one.
std::optional<Alignment> align_by_spacing(std::span<const model::Nanoseconds> a, std::size_t first,
                                          std::span<const model::Nanoseconds> b, model::Nanoseconds pair_jitter);

// How far past a pair, on either clock, the occurrences that decided it
// may lie: a's neighbours within reach of its window, b's candidates
// within the window. Once both hosts' occurrences are complete that far
// past the pair, no later occurrence can change the decision (`tracesync
// live` folds only such pairs while the hosts record).
model::Nanoseconds settle_margin(model::Nanoseconds window);

// The pair jitter of a signal recorded within +-jitter of its true instant
// by every host: two hosts' records are 2 * jitter apart at most in true
// time, which b's clock (rate within kRateAllowance of true time) reads as
// at most 2 * jitter * (1 + kRateAllowance), rounded up.
model::Nanoseconds pair_jitter(model::Nanoseconds jitter);

}  // namespace tracesync::session
