// SPDX-License-Identifier: EPL-2.0
#include "hull/piecewise_clock_map.h"

#include <quadmath.h>

#include <algorithm>

#include "hull/local_envelope.h"

namespace tracesync::hull {
namespace {

using model::Quad;

Quad bridge_drift(const Knot& left, const Knot& right, const ClockStability& stability) {
  const model::Nanoseconds gap = right.x - left.x;
  if (gap <= 0) return 0;
  const Quad length = static_cast<Quad>(gap);
  const Quad chord_slope = (right.y - left.y) / length;
  return std::min(static_cast<Quad>(stability.slack(gap)), rate_limit_around(chord_slope) * length / 2);
}

// Knots of one abscissa become one whose interval covers both of theirs.
Knot merged(const Knot& a, const Knot& b) {
  const Quad low = std::min(a.y - a.bound, b.y - b.bound);
  const Quad high = std::max(a.y + a.bound, b.y + b.bound);
  return {a.x, (low + high) / 2, (high - low) / 2};
}

Knot interpolated(const Knot& a, const Knot& b, model::Nanoseconds x) {
  const Quad t = static_cast<Quad>(x - a.x) / static_cast<Quad>(b.x - a.x);
  return {x, a.y + (b.y - a.y) * t, a.bound + (b.bound - a.bound) * t};
}

// A knot that would not rise above its predecessor is moved up to `lowest`
// (1 ns per ns above it). Were the map then to run straight to the next
// knot, the whole piece after it would be tilted off its segment's line:
// seen as messages received before they were sent for tens of seconds after
// a 50 ppm step, in copies that `apply` rewrote. Instead the map rises at
// half speed from the moved knot until it meets the piece again, at the
// knot returned (none when the piece ends first): only that stretch, about
// twice the move long, leaves the segment's line, and never by more than
// the move, which the moved knot's bound carries.
std::optional<Knot> rejoined(const Knot& moved, const Knot& next, Quad lowest) {
  const Quad rise = lowest - moved.y;
  const Quad slope = (next.y - moved.y) / static_cast<Quad>(next.x - moved.x);
  constexpr Quad kHalfSpeed = 0.5;
  if (slope <= kHalfSpeed) return std::nullopt;
  const Quad meeting = rise / (slope - kHalfSpeed);
  const model::Nanoseconds after = static_cast<model::Nanoseconds>(ceilq(meeting)) + 1;
  if (after >= next.x - moved.x) return std::nullopt;
  return interpolated(moved, next, moved.x + after);
}

ClockMap cut(const ClockMap& map, const TimeSpan& span) {
  ClockMap out;
  for (std::size_t i = 0; i < map.size(); ++i) {
    const Knot& k = map[i];
    if (k.x < span.first) {
      if (i + 1 < map.size() && map[i + 1].x > span.first) out.push_back(interpolated(k, map[i + 1], span.first));
      continue;
    }
    if (k.x > span.last) {
      if (i > 0 && map[i - 1].x < span.last) out.push_back(interpolated(map[i - 1], k, span.last));
      break;
    }
    out.push_back(k);
  }
  return out;
}

}  // namespace

std::optional<ClockMap> join_pieces(const std::vector<ClockPiece>& pieces, const ClockStability& stability,
                                    const TimeSpan& span) {
  if (pieces.empty()) return std::nullopt;
  ClockMap knots;
  for (const ClockPiece& piece : pieces) {
    const Knot first{piece.span.first, piece.line.at(piece.span.first), piece.bounds.first};
    if (!knots.empty()) {  // a bridge from the previous piece
      Knot& left = knots.back();
      const Quad bound = std::max(left.bound, first.bound) + bridge_drift(left, first, stability);
      left.bound = bound;
      knots.push_back({first.x, first.y, bound});
    } else {
      knots.push_back(first);
    }
    if (piece.span.last > piece.span.first) {
      knots.push_back({piece.span.last, piece.line.at(piece.span.last), piece.bounds.last});
    }
  }

  ClockMap map;
  for (const Knot& k : knots) {
    if (!map.empty() && map.back().x == k.x) {
      map.back() = merged(map.back(), k);
    } else {
      map.push_back(k);
    }
  }
  for (std::size_t i = 1; i < map.size(); ++i) {
    if (map[i].y > map[i - 1].y) continue;
    const Quad lowest = map[i - 1].y + static_cast<Quad>(map[i].x - map[i - 1].x);
    if (i + 1 < map.size()) {
      if (const auto back = rejoined(map[i], map[i + 1], lowest)) map.insert(map.begin() + static_cast<long>(i) + 1, *back);
    }
    map[i].bound += lowest - map[i].y;
    map[i].y = lowest;
  }
  // Every piece's span lies within the messages' span widened to `span`,
  // and the first and last pieces reach `span`'s ends.
  return cut(map, span);
}

}  // namespace tracesync::hull
