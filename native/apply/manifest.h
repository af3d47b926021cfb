// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "apply/clock_only_copy.h"
#include "apply/piecewise_transform.h"
#include "snapshot/tracesync.pb.h"

namespace tracesync::apply {

// What the manifest says about one trace of the snapshot.
struct ManifestEntry {
  const v1::Trace* trace = nullptr;
  std::string output;  // relative to the output directory; empty: no copy
  std::string method;  // "clock-only", or empty when there is no copy
  std::string note;    // why there is no copy, or what the method falls short of
  std::optional<PiecewiseTransform> transform;  // what the copy applies
  std::optional<ClockOnlyCopy> clock_only;
  double method_rounding_ns = 0;  // what the method adds to the bound
};

// The manifest (tracesync-manifest.json, "format": "tracesync-manifest/1"):
// for every trace its input and identity, the method used, the transform
// pieces, the synchronization's bound and what the method added to it; the
// traces that were skipped and why; the tracesync version and the options.
std::string manifest_json(const v1::Snapshot& snapshot, const std::vector<ManifestEntry>& entries,
                          const std::string& version, const std::vector<std::string>& command_line);

}  // namespace tracesync::apply
