// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace tracesync::apply {

// The output directory of `apply`, written whole or not at all: everything
// goes into a hidden staging directory beside it, which is renamed onto it
// once complete. A failure (or an interrupt) removes the staging directory;
// a process killed outright leaves only that hidden `.NAME.tracesync-*`
// directory, never a half-written NAME.
class StagedOutput {
 public:
  // Checks that `output` may be written: not an input, not inside one, not
  // above one; absent or empty unless `force`. An error in words, or empty.
  static std::string check(const std::filesystem::path& output, const std::vector<std::string>& inputs, bool force);

  // Creates the staging directory beside `output`; error() says why not.
  StagedOutput(std::filesystem::path output, bool force);
  ~StagedOutput();  // removes the staging directory unless committed
  StagedOutput(const StagedOutput&) = delete;
  StagedOutput& operator=(const StagedOutput&) = delete;

  const std::string& error() const { return error_; }
  // Where to write now.
  const std::filesystem::path& staging() const { return staging_; }
  // Renames the staging directory onto the output (replacing an existing
  // one with --force); returns an error, empty when done.
  std::string commit();

 private:
  std::filesystem::path output_;
  bool force_;
  std::filesystem::path staging_;
  std::string error_;
  bool committed_ = false;
};

}  // namespace tracesync::apply
