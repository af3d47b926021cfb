// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdio>
#include <functional>
#include <ostream>
#include <string>
#include <sys/types.h>

namespace tracesync::base {

// The file `path` written whole or not at all: what is written goes to a
// temporary file beside it (PATH.partial-PID-N, in the same directory and
// so on the same file system), which commit() flushes to the disk (fsync),
// renames over `path`, and makes the rename last (the directory fsynced
// too). The temporary is removed when anything fails (a full disk, a file
// size limit, an exception, which goes on) or the WholeFile is destroyed
// uncommitted. A reader of `path` sees the old file or the new one, never
// part of one, even after a crash; a failed write leaves the old file as it
// was.
//
// Written in place, as before: a path that names no regular file but a
// device, a FIFO or a socket (/dev/null, /dev/stdout, a pipe: it cannot be
// replaced), and an existing file in a directory where no file can be made.
// A symbolic link stays one: the file it names is replaced.
//
// Errors are given in the system's words (strerror).
class WholeFile {
 public:
  explicit WholeFile(std::string path);
  ~WholeFile();
  WholeFile(const WholeFile&) = delete;
  WholeFile& operator=(const WholeFile&) = delete;

  // Makes the file to write (the temporary, or `path` itself where it is
  // written in place); "" or why it cannot be written.
  std::string open();
  // Where to write, once open() succeeded.
  std::FILE* stream() const { return stream_; }
  // Puts what was written in place of `path`: "" or why it could not be
  // (the temporary then removed). `failed_errno`, when not 0, is the error
  // a write through stream() met first: it is the answer.
  std::string commit(int failed_errno = 0);

 private:
  std::string path_;
  std::string target_;     // the file replaced: `path`, or the file its link names
  std::string temporary_;  // empty when written in place
  std::FILE* stream_ = nullptr;
  bool existed_ = false;
  mode_t mode_ = 0;  // the old file's permissions, which the new one keeps
};

// Writes the file `path` whole or not at all (a WholeFile) with `write`;
// "" or why it failed.
std::string write_whole_file(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace tracesync::base
