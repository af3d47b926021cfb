// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <compare>
#include <cstdint>

namespace tracesync::model {

using Int128 = __int128;
using UInt128 = unsigned __int128;

// A signed 256-bit integer, just wide enough for the exact predicates of the
// hull: products of two 65-bit coordinate differences, and sums of a few
// products of three 65-bit values (about 197 bits). Two's complement in two
// 128-bit words. Operations wrap modulo 2^256; callers keep their values in
// range by construction and say so where they multiply.
class Int256 {
 public:
  constexpr Int256() = default;
  constexpr Int256(Int128 value)  // NOLINT: implicit widening is the point
      : lo_(static_cast<UInt128>(value)), hi_(value < 0 ? ~UInt128{0} : UInt128{0}) {}

  // a * b, exact for any two 128-bit operands.
  static Int256 product(Int128 a, Int128 b) { return Int256(a).times(b); }

  // *this * factor; exact while the true product has at most 255 bits.
  Int256 times(Int128 factor) const;

  Int256 operator-() const;
  friend Int256 operator+(const Int256& a, const Int256& b);
  friend Int256 operator-(const Int256& a, const Int256& b) { return a + (-b); }

  bool negative() const { return static_cast<int64_t>(static_cast<uint64_t>(hi_ >> 64)) < 0; }
  int sign() const { return negative() ? -1 : (lo_ == 0 && hi_ == 0 ? 0 : 1); }

  friend bool operator==(const Int256& a, const Int256& b) = default;
  friend std::strong_ordering operator<=>(const Int256& a, const Int256& b);

  // Nearest __float128 (at most one ulp off: the two words round separately).
  __float128 to_quad() const;

 private:
  constexpr Int256(UInt128 lo, UInt128 hi) : lo_(lo), hi_(hi) {}

  UInt128 lo_ = 0;
  UInt128 hi_ = 0;
};

}  // namespace tracesync::model
