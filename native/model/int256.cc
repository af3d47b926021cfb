// SPDX-License-Identifier: EPL-2.0
#include "model/int256.h"

#include <array>

namespace tracesync::model {
namespace {

using Limbs = std::array<uint64_t, 4>;  // little-endian 64-bit limbs

Limbs to_limbs(UInt128 lo, UInt128 hi) {
  return {static_cast<uint64_t>(lo), static_cast<uint64_t>(lo >> 64), static_cast<uint64_t>(hi),
          static_cast<uint64_t>(hi >> 64)};
}

UInt128 magnitude(Int128 v) { return v < 0 ? UInt128{0} - static_cast<UInt128>(v) : static_cast<UInt128>(v); }

}  // namespace

Int256 Int256::operator-() const {
  const UInt128 lo = ~lo_ + 1;
  const UInt128 hi = ~hi_ + (lo == 0 ? 1 : 0);
  return Int256(lo, hi);
}

Int256 operator+(const Int256& a, const Int256& b) {
  const UInt128 lo = a.lo_ + b.lo_;
  const UInt128 carry = lo < a.lo_ ? 1 : 0;
  return Int256(lo, a.hi_ + b.hi_ + carry);
}

Int256 Int256::times(Int128 factor) const {
  // Multiply magnitudes limb by limb (schoolbook, 4x2 limbs), then restore the sign.
  const bool result_negative = negative() != (factor < 0);
  const Int256 self_magnitude = negative() ? -*this : *this;
  const Limbs a = to_limbs(self_magnitude.lo_, self_magnitude.hi_);
  const UInt128 m = magnitude(factor);
  const uint64_t b[2] = {static_cast<uint64_t>(m), static_cast<uint64_t>(m >> 64)};

  Limbs out{};
  for (int j = 0; j < 2; ++j) {
    uint64_t carry = 0;
    for (int i = 0; i + j < 4; ++i) {
      const UInt128 cell = static_cast<UInt128>(a[i]) * b[j] + out[i + j] + carry;
      out[i + j] = static_cast<uint64_t>(cell);
      carry = static_cast<uint64_t>(cell >> 64);
    }
  }
  const Int256 product((static_cast<UInt128>(out[1]) << 64) | out[0],
                       (static_cast<UInt128>(out[3]) << 64) | out[2]);
  return result_negative ? -product : product;
}

std::strong_ordering operator<=>(const Int256& a, const Int256& b) {
  if (a.negative() != b.negative()) {
    return a.negative() ? std::strong_ordering::less : std::strong_ordering::greater;
  }
  // Same sign: two's complement words compare as unsigned.
  if (a.hi_ != b.hi_) return a.hi_ < b.hi_ ? std::strong_ordering::less : std::strong_ordering::greater;
  if (a.lo_ != b.lo_) return a.lo_ < b.lo_ ? std::strong_ordering::less : std::strong_ordering::greater;
  return std::strong_ordering::equal;
}

__float128 Int256::to_quad() const {
  const Int256 m = negative() ? -*this : *this;
  constexpr __float128 kTwoTo128 = 340282366920938463463374607431768211456.0Q;
  const __float128 value = static_cast<__float128>(m.hi_) * kTwoTo128 + static_cast<__float128>(m.lo_);
  return negative() ? -value : value;
}

}  // namespace tracesync::model
