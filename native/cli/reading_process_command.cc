// SPDX-License-Identifier: EPL-2.0
#include "cli/reading_process_command.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "cli/exit_codes.h"
#include "ingest/reading_process.h"

namespace tracesync::cli {

int run_read_trace() {
  struct stat channel {};
  if (fstat(ingest::kReadingChannelFd, &channel) != 0 || !S_ISSOCK(channel.st_mode)) {
    std::cerr << "tracesync: 'read-trace' is how 'tracesync sync' reads each trace in a process of its own;\n"
                 "it talks to its parent on a socket (descriptor "
              << ingest::kReadingChannelFd << ") and is not meant to be run by hand\n";
    return kBadInput;
  }
  return ingest::serve_trace_reading(ingest::kReadingChannelFd, ingest::kReadingChannelFd) == 0 ? kSuccess
                                                                                                 : kInternalError;
}

std::optional<std::vector<std::string>> reading_process_command() {
  std::error_code error;
  // The executable itself, not argv[0]: the working directory or PATH may
  // have changed, and the file may be a different one by the same name.
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return std::nullopt;
  return std::vector<std::string>{self.string(), std::string(kReadTraceCommand)};
}

}  // namespace tracesync::cli
