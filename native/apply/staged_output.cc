// SPDX-License-Identifier: EPL-2.0
#include "apply/staged_output.h"

#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

namespace tracesync::apply {
namespace fs = std::filesystem;
namespace {

// The absolute, symlink-free form of `path` as far as it exists.
fs::path resolved(const fs::path& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? fs::absolute(path).lexically_normal() : p;
}

bool is_within(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (o->empty()) continue;  // a trailing separator
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

// The hidden name of the staging directory beside `output`, for mkdtemp: the
// one thing a killed apply may leave, and the one the documentation names.
std::string staging_pattern(const fs::path& directory, const fs::path& output) {
  return (directory / ("." + output.filename().string() + ".tracesync-XXXXXX")).string();
}

// The staging directory goes beside the output: try making one now, so that
// an unwritable place is said before the traces are read. The probe takes the
// staging directory's name, so that a kill between its making and its removal
// leaves nothing of another kind.
std::string can_write_beside(const fs::path& output) {
  fs::path parent = output.parent_path();
  while (!parent.empty() && !fs::exists(parent) && parent != parent.parent_path()) parent = parent.parent_path();
  std::string pattern = staging_pattern(parent, output);
  if (::mkdtemp(pattern.data()) == nullptr) {
    return "cannot write --output " + output.string() + " (in " + parent.string() + "): " + std::strerror(errno);
  }
  ::rmdir(pattern.c_str());
  return {};
}

}  // namespace

std::string StagedOutput::check(const fs::path& output, const std::vector<std::string>& inputs, bool force) {
  const fs::path out = resolved(output);
  for (const std::string& input : inputs) {
    const fs::path in = resolved(input);
    if (is_within(out, in)) return "--output " + output.string() + " is inside the input " + input + ": inputs are never written to";
    if (is_within(in, out)) return "--output " + output.string() + " holds the input " + input + ": it cannot be replaced";
  }
  std::error_code ec;
  const fs::file_status status = fs::status(out, ec);
  if (!fs::exists(status)) return can_write_beside(out);
  if (!fs::is_directory(status)) return "--output " + output.string() + " exists and is not a directory";
  if (!force && !fs::is_empty(out, ec)) return "--output " + output.string() + " is not empty (give --force to replace it)";
  if (ec) return "cannot read --output " + output.string() + ": " + ec.message();
  return can_write_beside(out);
}

StagedOutput::StagedOutput(fs::path output, bool force) : output_(resolved(output)), force_(force) {
  const fs::path parent = output_.parent_path();
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) {
    error_ = "cannot create " + parent.string() + ": " + ec.message();
    return;
  }
  std::string pattern = staging_pattern(parent, output_);
  if (::mkdtemp(pattern.data()) == nullptr) {
    error_ = "cannot write beside " + output_.string() + " (in " + parent.string() + "): " + std::strerror(errno);
    return;
  }
  staging_ = pattern;
  // mkdtemp makes it private; the result is an ordinary directory.
  fs::permissions(staging_, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                fs::perms::others_read | fs::perms::others_exec, ec);
}

StagedOutput::~StagedOutput() {
  if (committed_ || staging_.empty()) return;
  std::error_code ec;
  fs::remove_all(staging_, ec);
}

std::string StagedOutput::commit() {
  std::error_code ec;
  // An empty directory is replaced by rename(2) itself; a full one (--force)
  // is moved aside first and removed once the new one is in place.
  fs::path previous;
  if (fs::exists(output_, ec) && !fs::is_empty(output_, ec)) {
    if (!force_) return output_.string() + " was filled while apply was running";
    previous = staging_.string() + ".previous";
    fs::rename(output_, previous, ec);
    if (ec) return "cannot move the previous " + output_.string() + " aside: " + ec.message();
  }
  fs::rename(staging_, output_, ec);
  if (ec) {
    std::error_code ignored;
    if (!previous.empty()) fs::rename(previous, output_, ignored);
    return "cannot rename " + staging_.string() + " to " + output_.string() + ": " + ec.message();
  }
  committed_ = true;
  if (!previous.empty()) fs::remove_all(previous, ec);
  return {};
}

}  // namespace tracesync::apply
