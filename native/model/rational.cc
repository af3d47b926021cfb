// SPDX-License-Identifier: EPL-2.0
#include "model/rational.h"

#include <quadmath.h>

#include <cctype>
#include <stdexcept>

namespace tracesync::model {
namespace {

using boost::multiprecision::cpp_int;

cpp_int power_of_ten(long n) {
  cpp_int p = 1;
  for (long i = 0; i < n; ++i) p *= 10;
  return p;
}

// Rounds num / den (both > 0) to the nearest integer, ties to even.
cpp_int rounded_quotient(const cpp_int& num, const cpp_int& den) {
  cpp_int q, r;
  boost::multiprecision::divide_qr(num, den, q, r);
  const cpp_int twice = 2 * r;
  if (twice > den || (twice == den && (q & 1) != 0)) ++q;
  return q;
}

// floor(log10(x)) for x > 0, exactly.
long decimal_exponent(const cpp_int& num, const cpp_int& den) {
  // An estimate from the bit lengths, then corrected.
  const long bits = static_cast<long>(boost::multiprecision::msb(num)) - static_cast<long>(boost::multiprecision::msb(den));
  long e = static_cast<long>(static_cast<double>(bits) * 0.30102999566398120);
  const auto at_least = [&](long k) {  // x >= 10^k
    return k >= 0 ? num >= den * power_of_ten(k) : num * power_of_ten(-k) >= den;
  };
  while (!at_least(e)) --e;
  while (at_least(e + 1)) ++e;
  return e;
}

}  // namespace

Rational exact(Quad value) {
  if (isnanq(value) || isinfq(value)) throw std::invalid_argument("exact(): not a finite number");
  if (value == 0) return 0;
  int exponent = 0;
  const Quad mantissa = frexpq(value, &exponent);  // value = mantissa * 2^exponent, 0.5 <= |mantissa| < 1
  // The mantissa's 113 bits as an integer, in two exact halves.
  const Quad scaled = fabsq(ldexpq(mantissa, 113));
  const Quad high = floorq(ldexpq(scaled, -64));
  const Quad low = scaled - ldexpq(high, 64);
  const cpp_int acc = (cpp_int(static_cast<unsigned long long>(high)) << 64) + cpp_int(static_cast<unsigned long long>(low));
  Rational r(acc);
  const int shift = exponent - 113;
  if (shift >= 0) {
    r *= Rational(cpp_int(1) << shift);
  } else {
    r /= Rational(cpp_int(1) << -shift);
  }
  return value < 0 ? Rational(-r) : r;
}

std::optional<Rational> parse_rational(std::string_view text) {
  std::size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  cpp_int digits = 0;
  long fraction = 0;
  bool any = false, point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.' && !point) {
      point = true;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      digits = digits * 10 + (c - '0');
      any = true;
      if (point) ++fraction;
    } else {
      break;
    }
  }
  if (!any) return std::nullopt;
  long exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) exp_negative = text[i++] == '-';
    bool exp_any = false;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
      if (exponent > 100000) return std::nullopt;
      exponent = exponent * 10 + (text[i] - '0');
      exp_any = true;
    }
    if (!exp_any) return std::nullopt;
    if (exp_negative) exponent = -exponent;
  }
  if (i != text.size()) return std::nullopt;
  const long scale = exponent - fraction;
  Rational r = scale >= 0 ? Rational(digits * power_of_ten(scale)) : Rational(digits, power_of_ten(-scale));
  return negative ? Rational(-r) : r;
}

std::string rounded_decimal(const Rational& value, int digits) {
  if (value == 0) return "0";
  const bool negative = value < 0;
  const cpp_int num = boost::multiprecision::abs(boost::multiprecision::numerator(value));
  const cpp_int den = boost::multiprecision::denominator(value);
  long e = decimal_exponent(num, den);
  // value / 10^(e - digits + 1), rounded: `digits` digits (or digits + 1 on carry).
  const long shift = e - digits + 1;
  cpp_int m = shift >= 0 ? rounded_quotient(num, den * power_of_ten(shift)) : rounded_quotient(num * power_of_ten(-shift), den);
  std::string mantissa = m.str();
  if (static_cast<long>(mantissa.size()) > digits) {  // 9.99... rounded up to 10.00...
    ++e;
    mantissa.pop_back();
  }
  std::string out = negative ? "-" : "";
  const long integer_digits = e + 1;
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

Quad to_quad(const Rational& value) {
  if (value == 0) return 0;
  const bool negative = value < 0;
  const cpp_int num = boost::multiprecision::abs(boost::multiprecision::numerator(value));
  const cpp_int den = boost::multiprecision::denominator(value);
  // value = q * 2^shift with q of 113 bits, rounded once.
  long shift = static_cast<long>(boost::multiprecision::msb(num)) - static_cast<long>(boost::multiprecision::msb(den)) - 113;
  const auto scaled = [&](long s) {
    return s >= 0 ? rounded_quotient(num, den << s) : rounded_quotient(num << -s, den);
  };
  cpp_int q = scaled(shift);
  while (boost::multiprecision::msb(q) > 112) q = scaled(++shift);
  while (boost::multiprecision::msb(q) < 112) q = scaled(--shift);
  // q has exactly 113 bits (a carry to 2^113 was handled by the first loop).
  // Beyond quad's range the result saturates to inf or to zero: transforms
  // never come near it.
  Quad result = 0;
  cpp_int rest = q;
  Quad unit = 1;
  while (rest != 0) {
    const auto low = static_cast<unsigned long long>(rest & 0xffffffffu);
    result += static_cast<Quad>(low) * unit;
    unit *= 4294967296.0Q;
    rest >>= 32;
  }
  result = ldexpq(result, static_cast<int>(shift));
  return negative ? -result : result;
}

}  // namespace tracesync::model
