// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "apply/ctf_metadata.h"
#include "apply/trace_files.h"
#include "model/linear_transform.h"

namespace tracesync::apply {

// One clock of a copy: its mapping before and after, and what the integer
// freq and offset cost (ClockFit::worst_error_ns).
struct ClockChange {
  std::string name;
  std::string uuid;
  ClockMapping before;
  ClockMapping after;
  double rounding_ns = 0;
};

struct ClockOnlyCopy {
  std::string error;  // names the file and the problem; the copy is then incomplete
  std::vector<ClockChange> clocks;
  bool metadata_was_packetized = false;
  double rounding_ns = 0;  // the worst over the clocks
};

// Method 1, the clock-only rewrite: `to` gets the trace at `from` with its
// stream and index files untouched (linked or copied) and its metadata as
// TSDL text in which every clock maps the unchanged cycle values through
// `line` (t_ref = slope * t + offset) over [first_ns, last_ns]. Cycle values
// and index timestamps stay valid, and every reader, babeltrace2 or Trace
// Compass, shows the events on the reference's time base.
ClockOnlyCopy write_clock_only_copy(const std::filesystem::path& from, const std::filesystem::path& to,
                                    const model::LinearTransform& line, model::Nanoseconds first_ns,
                                    model::Nanoseconds last_ns, FilePolicy policy, FileCounts* counts);

}  // namespace tracesync::apply
