// SPDX-License-Identifier: EPL-2.0
#include "network/piecewise_transform.h"

#include <algorithm>
#include <stdexcept>

namespace tracesync::network {
namespace {

using model::Quad;

constexpr Quad kJoinSlack = 1e-6Q;  // ns

Quad max_of(Quad x, Quad y) { return x < y ? y : x; }
Quad min_of(Quad x, Quad y) { return x < y ? x : y; }

Quad bound_slope(const TransformPiece& p) {
  return p.last > p.first ? (p.bound_last - p.bound_first) / (p.last - p.first) : Quad(0);
}

// The piece continued over [from, to] beyond one end of a transform,
// `end_bound` being its bound at that end. Nothing measured the map there,
// so no message checks the stability assumption: the truth may leave the
// piece's line as fast as the rate limit lets a clock's rate leave 1, plus
// the line's own distance from slope 1, `growth + |slope - 1|` per ns (as a
// link's map beyond its own ends, hull::fitted_to). None with growth 0 (the
// linear premise), and none for the reference's identity, exact anywhere.
TransformPiece continued(const TransformPiece& end, Quad end_x, Quad end_bound, Quad from, Quad to, Quad growth) {
  const bool reference = end.exact == model::ExactTransform::identity() && end.bound_first == 0 && end.bound_last == 0;
  const Quad rate = growth == 0 || reference ? Quad(0) : growth + model::abs(end.map.slope - 1);
  const auto bound = [&](Quad x) { return end_bound + rate * model::abs(x - end_x); };
  return TransformPiece{from, to, end.exact, bound(from), bound(to)};
}

}  // namespace

Quad TransformPiece::bound_at(Quad t) const {
  if (bound_first == bound_last || t == first) return bound_first;
  if (t == last) return bound_last;
  if (last == first) return max_of(bound_first, bound_last);
  return bound_first + (bound_last - bound_first) * (t - first) / (last - first);
}

PiecewiseTransform::PiecewiseTransform(std::vector<TransformPiece> pieces) : pieces_(std::move(pieces)) {
  if (pieces_.empty()) throw std::invalid_argument("a piecewise transform needs at least one piece");
}

PiecewiseTransform PiecewiseTransform::identity(Quad first, Quad last) {
  return PiecewiseTransform({TransformPiece{first, last, model::ExactTransform::identity(), 0, 0}});
}

Quad PiecewiseTransform::at(Quad t) const {
  // The first piece that ends at or after t; the last one beyond the span.
  const auto holder = std::lower_bound(pieces_.begin(), pieces_.end(), t,
                                       [](const TransformPiece& p, Quad at) { return p.last < at; });
  return (holder == pieces_.end() ? pieces_.back() : *holder).at(t);
}

PiecewiseTransform PiecewiseTransform::inverse() const {
  std::vector<TransformPiece> out;
  out.reserve(pieces_.size());
  for (const TransformPiece& p : pieces_) {
    // A breakpoint's image is computed once, so the pieces stay contiguous.
    const Quad first = out.empty() ? p.at(p.first) : out.back().last;
    out.push_back(TransformPiece{first, max_of(first, p.at(p.last)), p.exact.inverse(), p.bound_first, p.bound_last});
  }
  return PiecewiseTransform(std::move(out));
}

PiecewiseTransform PiecewiseTransform::over(Quad first, Quad last, Quad growth) const {
  const TransformPiece& front = pieces_.front();
  const TransformPiece& back = pieces_.back();
  std::vector<TransformPiece> out;
  if (first < front.first) {
    out.push_back(continued(front, front.first, front.bound_first, first, min_of(last, front.first), growth));
  }
  for (const TransformPiece& p : pieces_) {
    const Quad lo = max_of(p.first, first);
    const Quad hi = min_of(p.last, last);
    if (lo > hi) continue;
    // A point-sized overlap only counts when the whole span is that point.
    if (lo == hi && first != last && !(p.first == p.last)) continue;
    if (lo == hi && !out.empty()) continue;
    out.push_back(TransformPiece{lo, hi, p.exact, p.bound_at(lo), p.bound_at(hi)});
  }
  if (last > back.last && !(first == last && !out.empty())) {
    out.push_back(continued(back, back.last, back.bound_last, max_of(first, back.last), last, growth));
  }
  if (out.empty()) {
    // [first, last] is a point inside a zero-length transform's gap; cannot
    // happen for contiguous pieces, but stay total.
    out.push_back(TransformPiece{first, last, front.exact, front.bound_at(first), front.bound_at(last)});
  }
  PiecewiseTransform result(std::move(out));
  result.merge_neighbours();
  return result;
}

PiecewiseTransform PiecewiseTransform::after(const PiecewiseTransform& inner, Quad growth) const {
  Quad image_first = inner.pieces_.front().at(inner.first());
  Quad image_last = inner.pieces_.back().at(inner.last());
  const PiecewiseTransform outer = over(min_of(first(), image_first), max_of(last(), image_last), growth);

  std::vector<TransformPiece> out;
  for (const TransformPiece& p : inner.pieces_) {
    const Quad u_first = p.at(p.first);
    const Quad u_last = p.at(p.last);
    const auto preimage = [&](Quad u) {
      return std::clamp((u - p.map.offset) / p.map.slope, p.first, p.last);
    };
    Quad s_first = p.first;
    bool emitted = false;
    for (const TransformPiece& q : outer.pieces_) {
      if (q.last < u_first || q.first > u_last) continue;
      const bool point = u_first == u_last;
      if (!point && (q.last == u_first || q.first == u_last)) continue;  // touches only
      const bool starts_inside = q.first > u_first;
      const bool ends_inside = q.last < u_last;
      const Quad s_last = ends_inside ? max_of(s_first, preimage(q.last)) : p.last;
      if (s_last == s_first && emitted && !point) continue;
      const Quad q_first_bound = starts_inside ? q.bound_first : q.bound_at(u_first);
      const Quad q_last_bound = ends_inside ? q.bound_last : q.bound_at(u_last);
      out.push_back(TransformPiece{s_first, s_last, q.exact.after(p.exact), p.bound_at(s_first) + q_first_bound,
                                   p.bound_at(s_last) + q_last_bound});
      emitted = true;
      s_first = s_last;
      if (point) break;
    }
  }
  PiecewiseTransform result(std::move(out));
  result.merge_neighbours();
  return result;
}

void PiecewiseTransform::merge_neighbours() {
  std::vector<TransformPiece> out;
  out.reserve(pieces_.size());
  for (const TransformPiece& p : pieces_) {
    if (!out.empty()) {
      TransformPiece& q = out.back();
      if (q.exact == p.exact) {
        const TransformPiece joined{q.first, p.last, q.exact, q.bound_first, p.bound_last};
        // Both bounds are linear, so the joined one covers them everywhere
        // when it does at the meeting point; joining where that makes it
        // looser than kJoinSlack would throw precision away.
        const Quad at_meeting = max_of(q.bound_last, p.bound_first);
        const Quad joined_at_meeting = joined.bound_at(q.last);
        if (joined_at_meeting >= at_meeting && joined_at_meeting - at_meeting <= kJoinSlack) {
          q = joined;
          continue;
        }
      }
    }
    out.push_back(p);
  }
  pieces_ = std::move(out);
}

Quad PiecewiseTransform::worst_bound() const {
  Quad worst = 0;
  for (const TransformPiece& p : pieces_) worst = max_of(worst, max_of(p.bound_first, p.bound_last));
  return worst;
}

std::vector<ReportedPiece> PiecewiseTransform::reported(model::Nanoseconds first, model::Nanoseconds last,
                                                        Quad growth) const {
  const PiecewiseTransform t = over(static_cast<Quad>(first), static_cast<Quad>(last), growth);
  const std::vector<TransformPiece>& p = t.pieces_;
  if (p.size() == 1) return {ReportedPiece{first, last, p[0].map, p[0].bound_first, p[0].bound_last, p[0].exact}};

  // Knots at integers: the span's ends and each breakpoint rounded. `exact`
  // says the knot is a breakpoint (or end) itself, so the pieces on either
  // side keep their maps.
  struct Knot {
    model::Nanoseconds x;
    std::size_t piece;  // the piece whose exact map holds at x (the right one at a breakpoint)
    Quad extra_bound;   // the chord allowance
    bool exact;
  };
  std::vector<Knot> knots{{first, 0, 0, true}};
  for (std::size_t i = 1; i < p.size(); ++i) {
    const Quad c = p[i].first;
    model::Nanoseconds n = std::clamp(model::round_to_int64(c), first, last);
    const bool exact = static_cast<Quad>(n) == c;
    const Quad allowance =
        exact ? Quad(0) : model::abs(p[i].map.slope - p[i - 1].map.slope) + model::abs(bound_slope(p[i]) - bound_slope(p[i - 1]));
    // The exact map at n: the right piece from its breakpoint on.
    const std::size_t holder = static_cast<Quad>(n) >= c ? i : i - 1;
    if (knots.back().x == n) {
      Knot& k = knots.back();
      k.extra_bound += allowance;
      k.exact = k.exact && exact && k.x != first;
      if (k.x != first) k.piece = holder;
      continue;
    }
    knots.push_back({n, holder, allowance, exact});
  }
  if (knots.back().x == last) {
    knots.back().exact = false;  // a breakpoint rounded onto the span's end
  } else {
    knots.push_back({last, p.size() - 1, 0, true});
  }
  knots.back().piece = p.size() - 1;
  knots.front().piece = 0;

  std::vector<ReportedPiece> out;
  out.reserve(knots.size() - 1);  // a day's bending trace: thousands, each with exact rationals
  for (std::size_t j = 0; j + 1 < knots.size(); ++j) {
    const Knot& from = knots[j];
    const Knot& to = knots[j + 1];
    const auto value = [&](const Knot& k) { return p[k.piece].exact.apply(model::Rational(k.x)); };
    const auto bound = [&](const Knot& k) { return p[k.piece].bound_at(static_cast<Quad>(k.x)) + k.extra_bound; };
    ReportedPiece r{from.x, to.x, {}, bound(from), bound(to), {}};
    // Between two exact knots lies exactly one piece: keep its map.
    if (from.exact && to.exact && (from.piece + 1 == to.piece || (j + 2 == knots.size() && from.piece == to.piece))) {
      r.exact = p[from.piece].exact;
    } else {
      // The chord through the exact values at the knots, exactly: over one
      // piece it is that piece's line, not a line rounded twice.
      r.exact = model::exact_chord(model::Rational(from.x), value(from), model::Rational(to.x), value(to));
    }
    r.map = r.exact.rounded();
    out.push_back(std::move(r));
  }
  // Neighbours on one line whose bounds one chord covers are one piece:
  // the original bound is then below the chord everywhere, so this is
  // honest. It keeps a trace on linear clocks in one piece when its bound
  // only grows past the end of a link's span (a convex bound). Only the
  // very same line joins: each piece's line stays the exact composition at
  // its ends. Joined in place: the first `kept` pieces are the result.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    ReportedPiece& r = out[i];
    if (kept > 0 && r.last > out[kept - 1].first) {
      ReportedPiece& m = out[kept - 1];
      if (m.exact == r.exact) {
        const Quad at = static_cast<Quad>(m.last - m.first) / static_cast<Quad>(r.last - m.first);
        const Quad last_bound = r.bound_last;
        const Quad chord = m.bound_first + (last_bound - m.bound_first) * at;
        if (m.bound_last <= chord && r.bound_first <= chord) {
          m.last = r.last;
          m.bound_last = last_bound;
          continue;
        }
      }
    }
    if (kept != i) out[kept] = std::move(r);
    ++kept;
  }
  out.erase(out.begin() + static_cast<std::ptrdiff_t>(kept), out.end());
  return out;
}

namespace {

struct BoundedKnot {
  Quad x, y, bound;
};

// Knots nearer than this (ns) to the hull below are kept: far more than the
// quad rounding of the values the search computes (about 1e-16 ns).
constexpr Quad kHullMargin = 1e-6;

// The knots on or near the upper hull of the points (x, y + bound)
// (`upper`), or the lower hull of (x, y - bound); `knots` by x. The hull is
// taken over the highest value at each x; a knot more than kHullMargin
// inside it (vertically) is never the extreme one for any slope, even as
// rounded, so the search reading only the knots kept finds the line it
// finds reading every knot. (A knot dropped lies that far below the chord
// between two kept ones, which lie on or below the final chain; at one x,
// every knot within the margin of the highest is kept.)
std::vector<BoundedKnot> chain_of(const std::vector<BoundedKnot>& knots, bool upper) {
  // The value, turned so that the upper hull is wanted in both cases.
  const auto value = [&](const BoundedKnot& k) { return upper ? k.y + k.bound : -(k.y - k.bound); };
  struct Column {
    Quad x, v;               // the highest value at x
    std::size_t first, end;  // its knots, [first, end) in `knots`
  };
  std::vector<Column> chain;
  for (std::size_t i = 0; i < knots.size();) {
    Column c{knots[i].x, value(knots[i]), i, i};
    for (; c.end < knots.size() && knots[c.end].x == c.x; ++c.end) c.v = max_of(c.v, value(knots[c.end]));
    i = c.end;
    while (chain.size() >= 2) {
      const Column& a = chain[chain.size() - 2];
      const Column& b = chain.back();
      // How far b lies below the chord from a to c, times (c.x - a.x).
      const Quad below = (a.v - b.v) * (c.x - a.x) + (c.v - a.v) * (b.x - a.x);
      if (!(below > kHullMargin * (c.x - a.x))) break;
      chain.pop_back();
    }
    chain.push_back(c);
  }
  std::vector<BoundedKnot> out;
  for (const Column& c : chain) {
    for (std::size_t i = c.first; i < c.end; ++i) {
      if (value(knots[i]) >= c.v - kHullMargin) out.push_back(knots[i]);
    }
  }
  return out;
}

}  // namespace

PiecewiseTransform composed_onto_parent(const PiecewiseTransform& parent, const PiecewiseTransform& onto_parent,
                                        Quad first, Quad last, Quad growth) {
  const PiecewiseTransform hop =
      onto_parent.over(min_of(first, onto_parent.first()), max_of(last, onto_parent.last()), growth);
  return parent.after(hop, growth);
}

SingleLine best_single_line(const std::vector<ReportedPiece>& pieces) {
  if (pieces.size() == 1) {
    return {pieces[0].map, max_of(pieces[0].bound_first, pieces[0].bound_last), pieces[0].exact};
  }
  using Knot = BoundedKnot;
  std::vector<Knot> knots;
  for (const ReportedPiece& p : pieces) {
    knots.push_back({static_cast<Quad>(p.first), p.map.apply(p.first), p.bound_first});
    knots.push_back({static_cast<Quad>(p.last), p.map.apply(p.last), p.bound_last});
  }
  const Quad x0 = knots.front().x;
  // For a slope s, the highest of y + bound - s x over the knots is on the
  // upper hull of the points (x, y + bound), the lowest of y - bound - s x
  // on the lower hull of (x, y - bound): the search below reads only those
  // (a few dozen, not one per piece).
  const std::vector<Knot> tops = chain_of(knots, true);
  const std::vector<Knot> bottoms = chain_of(knots, false);
  // For a slope s, the best offset centres the knots' residual band; the
  // worst error is half the band's width, convex in s.
  const auto band = [&](Quad s) {
    Quad high = 0, low = 0;
    bool any = false;
    for (const Knot& k : tops) {
      const Quad r = k.y - s * (k.x - x0);
      if (!any || r + k.bound > high) high = r + k.bound;
      any = true;
    }
    any = false;
    for (const Knot& k : bottoms) {
      const Quad r = k.y - s * (k.x - x0);
      if (!any || r - k.bound < low) low = r - k.bound;
      any = true;
    }
    return std::pair{high, low};
  };
  Quad lo = pieces.front().map.slope, hi = lo;
  for (const ReportedPiece& p : pieces) {
    lo = min_of(lo, p.map.slope);
    hi = max_of(hi, p.map.slope);
  }
  for (int i = 0; i < 200 && lo < hi; ++i) {
    const Quad m1 = lo + (hi - lo) / 3;
    const Quad m2 = hi - (hi - lo) / 3;
    const auto [h1, l1] = band(m1);
    const auto [h2, l2] = band(m2);
    if (h1 - l1 <= h2 - l2) {
      hi = m2;
    } else {
      lo = m1;
    }
  }
  const Quad slope = (lo + hi) / 2;
  const auto [high, low] = band(slope);
  const Quad at_x0 = (high + low) / 2;
  SingleLine line{{slope, at_x0 - slope * x0}, 0, std::nullopt};
  // The bound is measured, not derived: it holds whatever the search found.
  for (const Knot& k : knots) line.bound = max_of(line.bound, model::abs(line.map.slope * k.x + line.map.offset - k.y) + k.bound);
  return line;
}

}  // namespace tracesync::network
