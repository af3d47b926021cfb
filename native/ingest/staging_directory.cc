// SPDX-License-Identifier: EPL-2.0
#include "ingest/staging_directory.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace tracesync::ingest {

namespace fs = std::filesystem;

namespace {

constexpr const char* kPrefix = "tracesync-follow-";

}  // namespace

std::unique_ptr<StagingDirectory> StagingDirectory::make(const std::string& parent, std::string& problem) {
  remove_abandoned(parent);
  std::string pattern = parent + "/" + kPrefix + "XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    problem = "cannot make a staging directory '" + pattern + "': " + std::strerror(errno);
    return nullptr;
  }
  // Locked before it is named `lock`: a cleaner never finds it free while we live.
  const std::string locking = pattern + "/lock.new";
  const int lock = ::open(locking.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock < 0 || ::flock(lock, LOCK_EX | LOCK_NB) != 0 || ::rename(locking.c_str(), (pattern + "/lock").c_str()) != 0) {
    problem = "cannot lock the staging directory '" + pattern + "': " + std::strerror(errno);
    if (lock >= 0) ::close(lock);
    std::error_code ignored;
    fs::remove_all(pattern, ignored);
    return nullptr;
  }
  return std::unique_ptr<StagingDirectory>(new StagingDirectory(std::move(pattern), lock));
}

StagingDirectory::~StagingDirectory() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
  ::close(lock_);
}

void StagingDirectory::remove_abandoned(const std::string& parent) {
  std::error_code error;
  for (fs::directory_iterator it(parent, error), end; !error && it != end; it.increment(error)) {
    if (it->path().filename().string().rfind(kPrefix, 0) != 0) continue;
    const int lock = ::open((it->path() / "lock").c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (lock < 0) continue;  // being made, or an older tracesync's: not ours to judge
    if (::flock(lock, LOCK_EX | LOCK_NB) == 0) {  // its owner ended
      std::error_code ignored;
      fs::remove_all(it->path(), ignored);
    }
    ::close(lock);
  }
}

}  // namespace tracesync::ingest
