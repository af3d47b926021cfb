// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ctf/trace_class.h"

namespace tracesync::ctf {

// CTF 2 metadata (a JSON text sequence: fragments each after a record
// separator, 0x1E) -> the TraceClass the TSDL parser also makes, so that
// the read plans read both alike. Fragments: preamble, field class
// aliases, trace class, clock classes, data stream classes, event record
// classes. Field classes: fixed-length bit arrays, booleans, integers and
// enumerations (with mappings), floating-point numbers, strings
// (null-terminated, static and dynamic length), BLOBs, structures, static
// and dynamic arrays, variants. Roles say what the scanner needs (packet
// sizes, the default clock, the event record class id).
//
// Both the CTF 2 specification's field locations ({"origin", "path"}) and
// the earlier draft's that babeltrace's CTF 2 test traces hold (an array
// whose first element is the origin) are read.
//
// nullopt with `error` set to "fragment N (TYPE): what" when the text is
// not CTF 2 metadata, says something impossible, or uses a construct this
// reader does not read (a bit order against its byte order, integers over
// 64 bits, several roles on one field, extensions): never a guess.
// The name CTF 2 gives a scope as a field location's origin
// ("packet-context", "event-record-payload", ...): read and written alike.
const char* ctf2_origin_name(Scope scope);

std::optional<TraceClass> parse_ctf2(std::string_view text, std::string* error);

// Of a CTF 2 metadata text still being written (`tracesync live` on a
// folder), the bytes that hold whole fragments: those before its last
// record separator, and the last fragment too once it is a whole JSON text.
std::size_t ctf2_whole_fragments(std::string_view text);

}  // namespace tracesync::ctf
