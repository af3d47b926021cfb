// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <memory>
#include <string>

namespace tracesync::ingest {

// The private directory in which a followed folder's reader stages the
// packets it reads (GrowingTraceReader): PARENT/tracesync-follow-XXXXXX,
// removed when it goes.
//
// A follower that dies cannot remove it (babeltrace2 aborting ends `live
// --in-process`), so its owner holds PARENT/tracesync-follow-XXXXXX/lock
// locked (flock) while it lives; the kernel releases the lock however the
// owner ends, and the next directory made in PARENT removes those whose lock
// is free: their owners are gone. The lock file is locked under another
// name, then renamed, so that a lock file found is one held, whatever the
// timing. Directories without a lock file (being made, or an older
// tracesync's) are left alone.
class StagingDirectory {
 public:
  // Makes a directory in `parent`, first removing the abandoned ones there;
  // null with `problem` when it cannot be made.
  static std::unique_ptr<StagingDirectory> make(const std::string& parent, std::string& problem);
  ~StagingDirectory();
  StagingDirectory(const StagingDirectory&) = delete;
  StagingDirectory& operator=(const StagingDirectory&) = delete;

  const std::string& path() const { return path_; }

  // Removes the staging directories in `parent` whose owner ended.
  static void remove_abandoned(const std::string& parent);

 private:
  StagingDirectory(std::string path, int lock) : path_(std::move(path)), lock_(lock) {}

  std::string path_;
  int lock_ = -1;  // held while this lives
};

}  // namespace tracesync::ingest
