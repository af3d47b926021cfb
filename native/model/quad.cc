// SPDX-License-Identifier: EPL-2.0
#include "model/quad.h"

#include <quadmath.h>

#include <array>
#include <cstdlib>
#include <limits>

namespace tracesync::model {

std::string to_decimal(Quad value, int digits) {
  if (isnanq(value)) return "nan";
  if (isinfq(value)) return value < 0 ? "-inf" : "inf";
  if (value == 0) return "0";

  // Let libquadmath do the correctly rounded digit generation in scientific
  // form ("-d.ddd...e+XX"), then move the decimal point.
  std::array<char, 128> buffer{};
  quadmath_snprintf(buffer.data(), buffer.size(), "%.*Qe", digits - 1, value);
  const std::string scientific(buffer.data());
  const bool negative = scientific[0] == '-';
  const std::size_t mantissa_begin = negative ? 1 : 0;
  const std::size_t e = scientific.find('e');
  std::string mantissa;
  for (std::size_t i = mantissa_begin; i < e; ++i) {
    if (scientific[i] != '.') mantissa.push_back(scientific[i]);
  }
  const long exponent = std::strtol(scientific.c_str() + e + 1, nullptr, 10);

  std::string out = negative ? "-" : "";
  const long integer_digits = exponent + 1;
  if (integer_digits <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-integer_digits), '0');
    out += mantissa;
  } else if (integer_digits >= static_cast<long>(mantissa.size())) {
    out += mantissa;
    out.append(static_cast<std::size_t>(integer_digits) - mantissa.size(), '0');
  } else {
    out += mantissa.substr(0, static_cast<std::size_t>(integer_digits));
    out += '.';
    out += mantissa.substr(static_cast<std::size_t>(integer_digits));
  }
  return out;
}

namespace {
std::string format(const char* pattern, int decimals, Quad value) {
  std::array<char, 128> buffer{};
  quadmath_snprintf(buffer.data(), buffer.size(), pattern, decimals, value);
  return buffer.data();
}
}  // namespace

std::string to_fixed(Quad value, int decimals) { return format("%.*Qf", decimals, value); }
std::string to_scientific(Quad value, int decimals) { return format("%.*Qe", decimals, value); }

std::optional<Quad> parse_decimal(std::string_view text) {
  const std::string copy(text);
  if (copy.empty()) return std::nullopt;
  char* end = nullptr;
  const Quad value = strtoflt128(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size()) return std::nullopt;
  return value;
}

int64_t round_to_int64(Quad value) {
  constexpr Quad kMax = static_cast<Quad>(std::numeric_limits<int64_t>::max());
  constexpr Quad kMin = static_cast<Quad>(std::numeric_limits<int64_t>::min());
  const Quad rounded = roundq(value);
  if (rounded >= kMax) return std::numeric_limits<int64_t>::max();
  if (rounded <= kMin) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(rounded);
}

}  // namespace tracesync::model
