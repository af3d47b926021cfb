// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <filesystem>
#include <string>

#include "apply/piecewise_transform.h"

namespace tracesync::apply {

// Method 2, the full rewrite, on a CTF 2 trace (LTTng 2.15's default):
// babeltrace2 2.0 reads CTF 1.8 only, so it reads the trace's unchanged
// stream files through CTF 1.8 metadata translated from its CTF 2
// (ctf/tsdl_writer.h), in a view beside `to` (the stream files linked, the
// view removed after); write_full_rewrite_copy writes its CTF 1.8 copy to
// `to`, whose metadata is then translated to CTF 2 (ctf/ctf2_writer.h): a
// CTF 2 copy. Returns an error naming what CTF 1.8 cannot say of the trace
// or what the rewrite refused, empty when done; on an error `to` is not
// left behind. `bad_input` is set when the error is the trace's (its
// metadata unreadable, or beyond CTF 1.8).
std::string write_ctf2_full_rewrite_copy(const std::filesystem::path& from, const std::filesystem::path& to,
                                         const PiecewiseTransform& transform, bool* bad_input);

}  // namespace tracesync::apply
