// SPDX-License-Identifier: EPL-2.0
#include "verify/exact_lp.h"

#include <algorithm>
#include <random>
#include <vector>

#include "base/scratch_pool.h"

namespace tracesync::verify {
namespace {

using model::Int128;

// A fraction num / den with den > 0.
struct Fraction {
  Int128 num;
  Int128 den;
};

// a < b, by cross products (|num| < 2^82 and den < 2^42: 124 bits).
bool less(const Fraction& a, const Fraction& b) { return a.num * b.den < b.num * a.den; }

struct Vertex {
  Int128 m, v, den;
};

bool satisfies(const Vertex& p, const HalfPlane& h) { return h.a * p.m + h.b * p.v <= h.c * p.den; }

// Narrows [lo, hi] on the line a M + b V = c (V = b (c - a M)) by the
// half-plane h: h.a M + h.b b (c - a M) <= h.c, i.e. e M <= f; false when
// nothing of the line is left.
bool narrow(const HalfPlane& line, Int128 ha, int hb, Int128 hc, Fraction& lo, Fraction& hi) {
  const Int128 e = ha - hb * line.b * line.a;
  const Int128 f = hc - hb * line.b * line.c;
  if (e == 0) return f >= 0;
  if (e > 0) {
    const Fraction edge{f, e};
    if (less(edge, hi)) hi = edge;
  } else {
    const Fraction edge{-f, -e};
    if (less(lo, edge)) lo = edge;
  }
  return true;
}

// The lexicographic optimum on the line of `line`, under the half-planes
// `before` and the box; false when none meets them all.
bool optimum_on_line(const HalfPlane& line, std::span<const HalfPlane> before, Vertex& out) {
  Fraction lo{-kSlopeBox, 1};  // the box's |M| <= kSlopeBox
  Fraction hi{kSlopeBox, 1};
  if (!narrow(line, 0, 1, kValueBox, lo, hi)) return false;  // the box's V <= kValueBox
  for (const HalfPlane& h : before) {
    if (!narrow(line, h.a, h.b, h.c, lo, hi)) return false;
  }
  if (less(hi, lo)) return false;
  // V rises with M when -a b > 0; when it does not change, the greater M.
  const Fraction m = -line.a * line.b < 0 ? lo : hi;
  out = {m.num, line.b * (line.c * m.den - line.a * m.num), m.den};
  return true;
}

// The constraints in random order, kept between calls for their capacity.
constinit base::ScratchPool<std::vector<HalfPlane>> orders;

}  // namespace

LpOptimum highest_point(std::span<const HalfPlane> constraints) {
  const auto lent = orders.borrow();
  std::vector<HalfPlane>& order = *lent;
  order.assign(constraints.begin(), constraints.end());
  std::mt19937_64 random(0x5eed);
  std::shuffle(order.begin(), order.end(), random);
  Vertex best{kSlopeBox, kValueBox, 1};  // the box's optimum
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (!satisfies(best, order[k]) && !optimum_on_line(order[k], std::span(order).first(k), best)) return {};
  }
  return {LpOptimum::Kind::kOptimal, best.m, best.v, best.den};
}

}  // namespace tracesync::verify
