// SPDX-License-Identifier: EPL-2.0
#include "ingest/output_tail.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "ingest/descriptors.h"

namespace tracesync::ingest {

bool OutputTail::open() {
  close();
  tail_.clear();  // another process's words are not this one's
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0) return false;
  read_ = above_standard_streams(ends[0]);
  write_ = above_standard_streams(ends[1]);
  // Only our end never blocks: the process's end is its own file description.
  if (read_ < 0 || write_ < 0 || fcntl(read_, F_SETFL, O_NONBLOCK) != 0) {
    const int error = errno;
    close();
    errno = error;
    return false;
  }
  return true;
}

void OutputTail::close_write_end() {
  if (write_ >= 0) ::close(write_);
  write_ = -1;
}

bool OutputTail::drain() {
  if (read_ < 0) return false;
  char chunk[65536];
  for (int chunks = 0; chunks < 64; ++chunks) {
    const ssize_t got = ::read(read_, chunk, sizeof chunk);
    if (got > 0) {
      tail_.append(chunk, static_cast<std::size_t>(got));
      if (tail_.size() > 2 * kKept) tail_.erase(0, tail_.size() - kKept);
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    return got < 0 && errno == EAGAIN;  // 0: every writer is gone
  }
  return true;
}

void OutputTail::close() {
  for (int* fd : {&read_, &write_}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
}

std::string OutputTail::last_line() const {
  std::string text = tail_.size() > kKept ? tail_.substr(tail_.size() - kKept) : tail_;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (const std::size_t newline = text.rfind('\n'); newline != std::string::npos) text.erase(0, newline + 1);
  const auto plain = std::find_if(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  });
  text.erase(text.begin(), plain);
  return text;
}

}  // namespace tracesync::ingest
