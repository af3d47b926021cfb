// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>

#include "ctf/trace_class.h"

namespace tracesync::ctf {

// A TraceClass written as CTF 1.8 TSDL that describes the same stream
// files: with the TSDL parser and ctf2_metadata.h, a CTF 2 to CTF 1.8
// translator of our own. apply's full rewrite uses it to have babeltrace2
// 2.0, which reads CTF 1.8 only, read a CTF 2 trace's unchanged streams.
//
// What CTF 1.8 cannot say is refused with `error` naming the field, never
// approximated: variable-length integers, optional fields, strings in
// UTF-16 or UTF-32, a location climbing with `null`, a variant whose
// options its selector's mappings do not pick by their names (or an
// unnamed option), a role on a member not named as CTF 1.8 names that
// role (readers of CTF 1.8 know members by name), names that are not TSDL
// identifiers, floating-point numbers of other than 16, 32, 64 or 128 bits.
std::optional<std::string> write_tsdl(const TraceClass& trace, std::string* error);

}  // namespace tracesync::ctf
