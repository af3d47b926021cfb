// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <filesystem>
#include <string>

#include "apply/piecewise_transform.h"

namespace tracesync::apply {

// Method 2, the full rewrite: `to` gets the trace at `from` as babeltrace2
// writes it (sink.ctf.fs) after every timestamp went through `transform`
// (a src.ctf.fs -> retime filter -> sink.ctf.fs graph). Every event, field
// and context is kept; only times change, each rounded to the nearest cycle.
// The index files are left out (sink.ctf.fs writes none). Returns an error
// naming what babeltrace2 refused, empty when done.
std::string write_full_rewrite_copy(const std::filesystem::path& from, const std::filesystem::path& to,
                                    const PiecewiseTransform& transform);

}  // namespace tracesync::apply
