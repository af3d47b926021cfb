// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tracesync::model {

// 113-bit binary floating point (IEEE binary128, libquadmath). A 1.7e18 ns
// timestamp needs 61 bits, so a slope times a timestamp keeps ~50 bits of
// fraction: mapping through a transform is exact to far below 1 ns.
using Quad = __float128;

// The number of significant digits we print: IEEE decimal128 precision,
// which is what Trace Compass's BigDecimal arithmetic (DECIMAL128) uses.
inline constexpr int kDecimalDigits = 34;

// Plain positional decimal (no exponent) with `digits` significant digits,
// e.g. "1.000000000000000000000000000000000" or "-12.50000...". Zero prints
// as "0"; NaN and infinities print as "nan", "inf", "-inf".
std::string to_decimal(Quad value, int digits = kDecimalDigits);

// printf-style rendering for people: "%.<decimals>Qf" (fixed) or "Qe" (scientific).
std::string to_fixed(Quad value, int decimals);
std::string to_scientific(Quad value, int decimals);

// Parses a decimal written by to_decimal (or any strtoflt128 input).
std::optional<Quad> parse_decimal(std::string_view text);

inline Quad abs(Quad value) { return value < 0 ? -value : value; }

// The nearest double, for display and for JSON numbers.
inline double to_double(Quad value) { return static_cast<double>(value); }

// Rounds to the nearest integer, ties away from zero; saturates at the int64 range.
int64_t round_to_int64(Quad value);

}  // namespace tracesync::model
