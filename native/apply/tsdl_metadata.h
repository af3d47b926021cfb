// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <babeltrace2/babeltrace.h>

#include <optional>
#include <string>

namespace tracesync::apply {

// The TSDL metadata (CTF 1.8 text) of a copy of `trace`, as babeltrace2's
// src.ctf.fs gave it in its IR: the environment entry by entry, the trace
// UUID, every stream class's clock (name, description, UUID, frequency,
// precision, offset, origin), stream classes and event classes (ids, names,
// log levels, EMF URIs) and their field classes, laid out as the writer
// writes packets (ctf_layout.h).
//
// Field names carry a leading underscore, as LTTng writes them: a CTF
// reader removes one, so babeltrace2 reads the same names, and no name can
// collide with a TSDL keyword. A variant's options take the labels of the
// selector's mappings with the same ranges (babeltrace2 pairs them by name).
//
// The IR subset is what src.ctf.fs makes of CTF 1.8: integers and
// enumerations, reals, strings, structures, static arrays, sequences with a
// length field, variants with an enumeration selector. Anything else gives
// nullopt and `unsupported` says what it was and where.
std::optional<std::string> tsdl_metadata(const bt_trace* trace, std::string* unsupported);

}  // namespace tracesync::apply
