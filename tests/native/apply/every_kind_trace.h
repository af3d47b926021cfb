// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>

namespace tracesync::apply::testing {

// Writes, into the new directory `directory`, a small CTF 1.8 trace whose
// metadata (written by hand, LTTng-style: underscored names, relative
// tags) has every field class kind src.ctf.fs makes: integers of odd
// sizes and every display base, signed and unsigned enumerations (a label
// with two ranges, negative ranges), single and double reals, a string, a
// text array (read as a string), a static array, a sequence, a nested
// structure, nested variants, an event context and a packet context
// (cpu_id), a log level and an EMF URI, a quoted environment entry; two
// packets, the second counting 3 discarded events.
void write_every_kind_trace(const std::string& directory);

// The same, plus an event class "extra" (id 2) of no event whose payload
// has `extra_event_fields` (TSDL member declarations): for traces the
// writer must refuse (it plans every class before writing).
void write_every_kind_trace(const std::string& directory, const std::string& extra_event_fields);

}  // namespace tracesync::apply::testing
