// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace tracesync::cli {

// Writes the file `path` whole or not at all: `write` fills a temporary
// file beside it (PATH.partial-PID-N, in the same directory and so on the
// same file system), which is renamed over `path` once complete, and is
// removed when anything fails (a full disk, a file size limit, an
// exception, which goes on). A reader of `path` sees the old file or the
// new one, never part of one; a failed write leaves the old file as it was.
//
// Written in place, as before: a path that names no regular file but a
// device, a FIFO or a socket (/dev/null, /dev/stdout, a pipe: it cannot be
// replaced), and an existing file in a directory where no file can be made.
// A symbolic link stays one: the file it names is replaced.
//
// Returns "" or why it failed, in the system's words (strerror).
std::string write_whole_file(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace tracesync::cli
