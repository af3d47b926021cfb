// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <boost/program_options/options_description.hpp>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "snapshot/tracesync.pb.h"

namespace tracesync::cli {

// A command that synchronizes exactly as `tracesync sync` does (the same
// options, the same report on stdout) and then does more with the result:
// `tracesync apply`.
struct SyncExtension {
  std::string_view command;
  std::string usage;  // the help text's opening lines
  // Adds the command's own options (it has no --matches; --output is its own).
  std::function<void(boost::program_options::options_description&)> add_options;
  // Checks the command's options before any trace is read; an error in words, or empty.
  std::function<std::string(const std::vector<std::string>& traces)> check;
  // After the report is written: gets sync's exit code, returns the command's.
  std::function<int(const v1::Snapshot& snapshot, int exit_code)> after_report;
};

// `tracesync sync`, or, with an extension, a command built on it.
int run_sync_command(const std::vector<std::string>& arguments, const SyncExtension* extension);

}  // namespace tracesync::cli
