// SPDX-License-Identifier: EPL-2.0
#include "ingest/descriptors.h"

#include <fcntl.h>
#include <unistd.h>

namespace tracesync::ingest {

int above_standard_streams(int fd) {
  if (fd < 0 || fd > STDERR_FILENO) return fd;
  const int moved = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  close(fd);
  return moved;
}

}  // namespace tracesync::ingest
