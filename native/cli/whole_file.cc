// SPDX-License-Identifier: EPL-2.0
#include "cli/whole_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace tracesync::cli {
namespace {

namespace fs = std::filesystem;

// Writes `path` with `write` through a stream; errno's words, or "". The
// stream says only that it failed; the system call's errno says why.
std::string write_through_stream(const std::string& path, const std::function<void(std::ostream&)>& write) {
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return std::strerror(errno);
  write(out);
  out.close();
  return out ? "" : std::strerror(errno);
}

// Makes a new, empty file beside `target` for the temporary copy; its name,
// or "" with errno set. Made with O_EXCL: never another's file, nor a file a
// link there points to.
std::string make_temporary_beside(const std::string& target) {
  const std::string stem = target + ".partial-" + std::to_string(getpid()) + "-";
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = stem + std::to_string(attempt);
    const int fd = open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);  // the umask applies
    if (fd >= 0) {
      close(fd);
      return name;
    }
    if (errno != EEXIST) return {};
  }
  return {};
}

}  // namespace

std::string write_whole_file(const std::string& path, const std::function<void(std::ostream&)>& write) {
  // Through a link, to the file it names: the link stays.
  fs::path target = path;
  if (std::error_code error; fs::is_symlink(path, error)) {
    fs::path named = fs::weakly_canonical(path, error);
    if (!error && !named.empty()) target = std::move(named);
  }
  struct stat existing {};
  const bool exists = stat(target.c_str(), &existing) == 0;
  if (exists && !S_ISREG(existing.st_mode)) return write_through_stream(path, write);

  const std::string temporary = make_temporary_beside(target.string());
  // No file can be made there: `path` itself may still be writable (an
  // existing file in a directory we may not write), or else says why not
  // (no such directory, no permission) as it did before.
  if (temporary.empty()) return write_through_stream(path, write);
  struct RemovedUnlessRenamed {
    const std::string& name;
    bool renamed = false;
    ~RemovedUnlessRenamed() {
      if (!renamed) std::remove(name.c_str());
    }
  } cleanup{temporary};
  if (std::string why = write_through_stream(temporary, write); !why.empty()) return why;
  // The old file's permissions, as writing it in place kept them.
  if (exists) chmod(temporary.c_str(), existing.st_mode & 07777);
  if (std::rename(temporary.c_str(), target.c_str()) != 0) return std::strerror(errno);
  cleanup.renamed = true;
  return {};
}

}  // namespace tracesync::cli
