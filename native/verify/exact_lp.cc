// SPDX-License-Identifier: EPL-2.0
#include "verify/exact_lp.h"

#include <algorithm>
#include <random>
#include <vector>

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

// The box's half-planes on M, which have no V (b = 0): kept apart from
// HalfPlane, whose b is +-1, so that a line can be parametrised by M.
struct Bound {
  Int128 a;
  int b;
  Int128 c;
};

// The lexicographic optimum on the line a M + b V = c (V = b (c - a M)),
// under the half-planes `before` and the box; false when none meets them all.
bool optimum_on_line(const HalfPlane& line, std::span<const Bound> before, Vertex& out) {
  Fraction lo{-kSlopeBox, 1};
  Fraction hi{kSlopeBox, 1};
  for (const Bound& h : before) {
    // h.a M + h.b b (c - a M) <= h.c, i.e. e M <= f.
    const Int128 e = h.a - h.b * line.b * line.a;
    const Int128 f = h.c - h.b * line.b * line.c;
    if (e == 0) {
      if (f < 0) return false;
      continue;
    }
    const Fraction edge = e > 0 ? Fraction{f, e} : Fraction{-f, -e};
    if (e > 0) {
      if (less(edge, hi)) hi = edge;
    } else if (less(lo, edge)) {
      lo = edge;
    }
  }
  if (less(hi, lo)) return false;
  // V rises with M when -a b > 0; when it does not change, the greater M.
  const Fraction m = -line.a * line.b < 0 ? lo : hi;
  out = {m.num, line.b * (line.c * m.den - line.a * m.num), m.den};
  return true;
}

}  // namespace

LpOptimum highest_point(std::span<const HalfPlane> constraints) {
  std::vector<HalfPlane> order(constraints.begin(), constraints.end());
  std::mt19937_64 random(0x5eed);
  std::shuffle(order.begin(), order.end(), random);
  // The half-planes met so far, the box's first.
  std::vector<Bound> before{{1, 0, kSlopeBox}, {-1, 0, kSlopeBox}, {0, 1, kValueBox}};
  before.reserve(order.size() + 3);
  Vertex best{kSlopeBox, kValueBox, 1};
  for (const HalfPlane& h : order) {
    if (!satisfies(best, h) && !optimum_on_line(h, before, best)) return {};
    before.push_back({h.a, h.b, h.c});
  }
  return {LpOptimum::Kind::kOptimal, best.m, best.v, best.den};
}

}  // namespace tracesync::verify
