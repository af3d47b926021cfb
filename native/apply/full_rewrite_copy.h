// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <filesystem>
#include <string>

#include "apply/piecewise_transform.h"

namespace tracesync::apply {

// Method 2, the full rewrite: `to` gets a CTF 1.8 copy of the trace at
// `from` with every timestamp through `transform`, read by babeltrace2
// (src.ctf.fs, without the muxer) and written by tracesync's own writer
// (ctf_writer_sink.h). Every event, field, context and packet is kept;
// only times change, each rounded to the nearest cycle. The index files are
// left out (readers rebuild them). Returns an error naming what babeltrace2
// refused or what the writer does not support, empty when done; on an
// error `to` is not left behind.
std::string write_full_rewrite_copy(const std::filesystem::path& from, const std::filesystem::path& to,
                                    const PiecewiseTransform& transform);

}  // namespace tracesync::apply
