// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <boost/multiprecision/cpp_int.hpp>

#include "model/quad.h"

namespace tracesync::model {

// An exact rational number (Boost.Multiprecision, header-only; Boost is
// already a dependency). Transforms are composed in it so that a trace's
// transform is rounded once, when it is reported (issue 36).
using Rational = boost::multiprecision::cpp_rational;

// The exact value of a finite quad (every binary float is a rational).
Rational exact(Quad value);

// The exact value of a plain decimal ("-12.5", "0.000123", "7"), as
// to_decimal writes it; an exponent ("1.5e-3") is accepted too. nullopt when
// the text is not a decimal number.
std::optional<Rational> parse_rational(std::string_view text);

// `value` rounded once to `digits` significant digits (ties to even),
// written like to_decimal(Quad) (a name of its own: an overload taking a
// Rational would make clang try, and fail, to convert a quad to one): plain positional, no exponent, "0" for zero.
std::string rounded_decimal(const Rational& value, int digits = kDecimalDigits);

// The nearest quad (ties to even): the value rounded once to binary128.
Quad to_quad(const Rational& value);

// The value as the report prints it: rounded once to kDecimalDigits
// significant digits, then read back exactly. A link's line is taken at
// its printed value, so that anyone can recompute a trace's transform from
// the report alone.
inline Rational as_printed(Quad value) { return *parse_rational(to_decimal(value)); }

// |value|, exactly.
inline Rational magnitude(const Rational& value) { return value < 0 ? Rational(-value) : value; }

}  // namespace tracesync::model
