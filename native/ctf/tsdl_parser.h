// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ctf/trace_class.h"

namespace tracesync::ctf {

// CTF 1.8 TSDL text -> TraceClass, by a recursive-descent parser of the
// grammar of CTF 1.8's section 7 as tracers write it: type aliases and
// typedefs, named and anonymous structures, variants, enumerations,
// integers, floating-point numbers, strings, arrays and sequences; the
// trace, env, clock, stream, event and callsite blocks.
//
// nullopt with `error` set to "line N: what is wrong" when the text is not
// TSDL or says something impossible (an unknown type, an integer of 0 bits,
// an event of an undeclared stream).
std::optional<TraceClass> parse_tsdl(std::string_view text, std::string* error);

}  // namespace tracesync::ctf
