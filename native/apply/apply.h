// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "apply/trace_files.h"
#include "snapshot/tracesync.pb.h"

namespace tracesync::apply {

// What `tracesync apply` was asked to do, beyond synchronizing.
struct ApplyOptions {
  std::filesystem::path output;
  bool force = false;  // replace a non-empty output directory
  FilePolicy files = FilePolicy::kLinkWhenPossible;
  // The method: by default, the clock-only rewrite for a one-piece
  // transform and the full rewrite for several pieces.
  bool rewrite = false;     // the full rewrite for every trace (--rewrite)
  bool clock_only = false;  // the clock-only rewrite for every trace, a transform in pieces as its best line (--clock-only)
  // Recorded in the manifest, so a person can tell how the copies were made.
  std::string version;
  std::vector<std::string> command_line;
};

// What happened to one trace of the snapshot.
struct TraceCopy {
  std::string name;
  bool written = false;
  std::string reason;  // why there is no copy, or what the copy falls short of
  bool input_missing = false;  // no copy: its trace is not at its path (it was synchronized from an extract)
};

struct ApplyOutcome {
  std::string error;  // the output could not be written: nothing was
  bool bad_input = false;  // and because of the input (a trace it cannot copy), not the machine
  std::vector<TraceCopy> traces;
  FileCounts files;
};

// Writes a synchronized copy of every synchronized trace of `snapshot` under
// options.output, at its report name, and the manifest
// (tracesync-manifest.json) saying what was done to each and why a trace
// has no copy. Skipped traces (snapshot problems) are listed in the
// manifest. Either the whole output appears or none of it; `cancel`, when
// set, stops the writing and leaves nothing.
ApplyOutcome apply_snapshot(const v1::Snapshot& snapshot, const ApplyOptions& options,
                            const std::atomic<bool>* cancel = nullptr);

// The file name of the manifest inside the output directory.
inline constexpr const char* kManifestName = "tracesync-manifest.json";

}  // namespace tracesync::apply
