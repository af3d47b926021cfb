// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <span>

#include "ctf/trace_class.h"

namespace tracesync::ctf {

// The field class a reference (a variant's selector, a sequence's length)
// names, as the metadata writers find it: from its scope's root when
// absolute, else from the innermost of the `enclosing` structures (outermost
// first) that has its first name. Null when it leads nowhere. `stream` and
// `event` are the classes being written (null outside them).
const FieldClass* lookup_field_path(const FieldPath& path, const TraceClass& trace, const StreamClass* stream,
                                    const EventClass* event, std::span<const FieldClass* const> enclosing);

}  // namespace tracesync::ctf
