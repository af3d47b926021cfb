// SPDX-License-Identifier: EPL-2.0
#include "session/signal_pairing.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tracesync::session {

namespace {

// Occurrences the spacing alignment looks at, and how far apart (either
// way) the two clocks may be for it.
constexpr std::size_t kVote = 16;
constexpr model::Nanoseconds kVoteReach = 600'000'000'000;  // 10 min
constexpr std::size_t kNotesPerKind = 3;

model::Nanoseconds drift(model::Nanoseconds elapsed) {
  return static_cast<model::Nanoseconds>(std::ceil(kRateAllowance * static_cast<double>(elapsed < 0 ? -elapsed : elapsed))) + 1;
}

std::string seconds(model::Nanoseconds t) {
  const model::Nanoseconds whole = t / 1'000'000'000, part = t % 1'000'000'000;
  std::string fraction = std::to_string(part < 0 ? -part : part);
  fraction.insert(0, 9 - fraction.size(), '0');
  return std::to_string(whole) + "." + fraction + " s";
}

}  // namespace

model::Nanoseconds pair_jitter(model::Nanoseconds jitter) {
  const model::Nanoseconds twice = 2 * jitter;
  return twice + (twice + 999) / 1000;  // 1 + kRateAllowance, rounded up
}

model::Nanoseconds settle_margin(model::Nanoseconds window) { return 2 * window + drift(4 * window) + 1; }

std::optional<Alignment> align_by_spacing(std::span<const model::Nanoseconds> a, std::size_t first,
                                          std::span<const model::Nanoseconds> b, model::Nanoseconds pair_jitter) {
  const std::size_t count = std::min(kVote, a.size() - std::min(first, a.size()));
  if (count < 4) return std::nullopt;
  const model::Nanoseconds span = a[first + count - 1] - a[first];
  const model::Nanoseconds half = pair_jitter + drift(span);  // one offset's pairs spread over +-half
  std::vector<model::Nanoseconds> offsets;
  for (std::size_t k = first; k < first + count; ++k) {
    const auto from = std::lower_bound(b.begin(), b.end(), a[k] - kVoteReach);
    const auto to = std::upper_bound(b.begin(), b.end(), a[k] + kVoteReach);
    for (auto it = from; it != to; ++it) offsets.push_back(*it - a[k]);
  }
  std::sort(offsets.begin(), offsets.end());
  // Windows of width 2 * half: the fullest, and the fullest of those that
  // do not overlap it.
  auto fullest = [&](auto allowed) {
    std::size_t best = 0, best_at = 0, end = 0;
    for (std::size_t start = 0; start < offsets.size(); ++start) {
      end = std::max(end, start);
      while (end < offsets.size() && offsets[end] - offsets[start] <= 2 * half) ++end;
      if (allowed(offsets[start], offsets[end - 1]) && end - start > best) {
        best = end - start;
        best_at = start;
      }
    }
    return std::pair(best, best_at);
  };
  const auto [votes, at] = fullest([](model::Nanoseconds, model::Nanoseconds) { return true; });
  if (votes < 4 || 2 * votes < count) return std::nullopt;
  const model::Nanoseconds low = offsets[at], high = offsets[at + votes - 1];
  const auto [rival, rival_at] = fullest([&](model::Nanoseconds from, model::Nanoseconds to) {
    return to < low - 2 * half || from > high + 2 * half;
  });
  (void)rival_at;
  if (2 * rival >= votes) return std::nullopt;  // a regular signal: several offsets pair about as many
  // The true offset at a[first] is within half of every pair's.
  return Alignment{offsets[at + votes / 2], (high - low) + half};
}

PairingOutcome pair_signal(std::span<const model::Nanoseconds> a, std::span<const model::Nanoseconds> b,
                           model::Nanoseconds pj, const AlignmentSource& from_messages,
                           std::optional<model::Nanoseconds> clocks_within) {
  PairingOutcome out;
  std::vector<bool> b_paired(b.size(), false);
  std::vector<model::Nanoseconds> unpaired_a;  // counted between the first and last pair only
  bool aligned = false;
  bool paired_since_aligned = false;
  model::Nanoseconds offset = 0;   // b - a at the anchor
  model::Nanoseconds known = 0;    // the true offset at the anchor is within offset +- known
  model::Nanoseconds anchor = 0;   // on a's clock
  std::size_t spacing_retry = 0;
  std::size_t spacing_failures = 0;
  std::size_t notes[4] = {0, 0, 0, 0};
  auto note = [&](int kind, const std::string& text) {
    if (notes[kind]++ < kNotesPerKind) out.notes.push_back(text);
  };
  constexpr model::Nanoseconds kFar = std::numeric_limits<model::Nanoseconds>::max() / 4;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const model::Nanoseconds t = a[i];
    if (!aligned) {
      std::optional<Alignment> alignment;
      std::string by;
      if (from_messages && (alignment = from_messages(t))) by = "messages";
      if (!alignment && clocks_within) {
        alignment = Alignment{0, *clocks_within};
        by = "clocks-within";
      }
      if (!alignment && i >= spacing_retry) {
        if ((alignment = align_by_spacing(a, i, b, pj))) {
          by = "spacing";
          spacing_failures = 0;
        } else {
          // A regular signal stays regular: try again later and later
          // (16, 32, 64... occurrences on, at most 1024).
          spacing_retry = i + (kVote << std::min<std::size_t>(spacing_failures++, 6));
        }
      }
      if (!alignment) {
        ++out.not_aligned;
        note(0, "no alignment at " + seconds(t) +
                    " (no messages on the link there, no clocks-within=, and the signal too regular to align by "
                    "its spacing)");
        continue;
      }
      aligned = true;
      paired_since_aligned = false;
      offset = alignment->offset;
      known = alignment->uncertainty;
      anchor = t;
      if (out.aligned_by.empty()) out.aligned_by = by;
    }
    const model::Nanoseconds window = known + pj + drift(t - anchor);
    // A window this wide could reach the partner of a neighbour.
    const model::Nanoseconds reach = settle_margin(window) - 1;
    const model::Nanoseconds nearest = std::min(i > 0 ? t - a[i - 1] : kFar, i + 1 < a.size() ? a[i + 1] - t : kFar);
    if (nearest <= reach) {
      if (paired_since_aligned) {
        ++out.cuts;
        note(1, "cut at " + seconds(t) + ": " + std::to_string(window) + " ns of doubt since the last pair, occurrences " +
                    std::to_string(nearest) + " ns apart");
        aligned = false;
        --i;  // this occurrence again, with an alignment of its own
        continue;
      } else {
        note(1, "the alignment at " + seconds(t) + " (+-" + std::to_string(known) +
                    " ns) is too coarse for occurrences " + std::to_string(nearest) + " ns apart");
      }
      ++out.not_aligned;
      aligned = false;
      continue;
    }
    const auto from = std::lower_bound(b.begin(), b.end(), t + offset - window);
    const auto to = std::upper_bound(b.begin(), b.end(), t + offset + window);
    if (from == to) {
      unpaired_a.push_back(t);
      continue;
    }
    const auto j = static_cast<std::size_t>(from - b.begin());
    if (to - from > 1 || b_paired[j]) {
      ++out.ambiguous;
      note(3, std::to_string(to - from) + " candidates at " + seconds(t));
      continue;
    }
    b_paired[j] = true;
    out.pairs.push_back({t, b[j], window});
    offset = b[j] - t;
    known = pj;
    anchor = t;
    paired_since_aligned = true;
  }
  if (!out.pairs.empty()) {
    for (const model::Nanoseconds t : unpaired_a) {
      if (t < out.pairs.front().a || t > out.pairs.back().a) continue;  // the other trace had not begun, or had ended
      ++out.unpaired_a;
      note(2, "no partner at " + seconds(t));
    }
    const auto first = std::lower_bound(b.begin(), b.end(), out.pairs.front().b) - b.begin();
    const auto last = std::lower_bound(b.begin(), b.end(), out.pairs.back().b) - b.begin();
    for (auto k = first; k <= last; ++k) out.unpaired_b += b_paired[static_cast<std::size_t>(k)] ? 0 : 1;
  }
  return out;
}

}  // namespace tracesync::session
