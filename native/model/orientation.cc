// SPDX-License-Identifier: EPL-2.0
#include "model/orientation.h"

namespace tracesync::model {
namespace {

// Differences of int64 values always fit in 65 bits. Below 2^62 in
// magnitude their products fit in 124 bits, and a difference of two such
// products in 125: one widening 64x64 multiply each is exact, and far
// cheaper than 128x128 or 256-bit arithmetic.
constexpr int64_t kFastLimit = int64_t{1} << 62;

bool small(Int128 v) { return v > -kFastLimit && v < kFastLimit; }

int sign_of(Int128 v) { return (v > 0) - (v < 0); }

Int128 widening_product(int64_t a, int64_t b) { return static_cast<Int128>(a) * b; }

// Sign of p*q - r*s, exactly.
int sign_of_difference_of_products(Int128 p, Int128 q, Int128 r, Int128 s) {
  if (small(p) && small(q) && small(r) && small(s)) {
    return sign_of(widening_product(static_cast<int64_t>(p), static_cast<int64_t>(q)) -
                   widening_product(static_cast<int64_t>(r), static_cast<int64_t>(s)));
  }
  return (Int256::product(p, q) - Int256::product(r, s)).sign();
}

}  // namespace

int orientation_wide(const Point& a, const Point& b, const Point& c) {
  const Int128 abx = Int128{b.x} - a.x;
  const Int128 aby = Int128{b.y} - a.y;
  const Int128 acx = Int128{c.x} - a.x;
  const Int128 acy = Int128{c.y} - a.y;
  return sign_of_difference_of_products(abx, acy, aby, acx);
}

int compare(const Slope& a, const Slope& b) {
  // runs are positive, so a.rise/a.run <=> b.rise/b.run has the sign of
  // a.rise*b.run - b.rise*a.run.
  return sign_of_difference_of_products(a.rise, b.run, b.rise, a.run);
}

__float128 difference(const Slope& a, const Slope& b) {
  const Int256 numerator = Int256::product(a.rise, b.run) - Int256::product(b.rise, a.run);
  const Int256 denominator = Int256::product(a.run, b.run);
  return numerator.to_quad() / denominator.to_quad();
}

}  // namespace tracesync::model
