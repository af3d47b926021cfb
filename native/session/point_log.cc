// SPDX-License-Identifier: EPL-2.0
#include "session/point_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace tracesync::session {
namespace {

constexpr std::size_t kPendingPoints = 4096;  // 64 KiB written at once
constexpr std::size_t kChunkPoints = 65536;   // 1 MiB read at once

int make_anonymous_file() { return ::open(PointLog::directory().c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600); }

// Writes all of `size` bytes at `offset`; false on an error.
bool write_all_at(int fd, const char* bytes, std::size_t size, off_t offset) {
  while (size > 0) {
    const ssize_t n = ::pwrite(fd, bytes, size, offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes += n;
    size -= static_cast<std::size_t>(n);
    offset += n;
  }
  return true;
}

}  // namespace

PointLog::PointLog(PointLog&& other) noexcept
    : on_disk_(other.on_disk_),
      fd_(std::exchange(other.fd_, -1)),
      file_failed_(other.file_failed_),
      in_file_(std::exchange(other.in_file_, 0)),
      pending_(std::move(other.pending_)),
      in_memory_(std::move(other.in_memory_)) {}

PointLog& PointLog::operator=(PointLog&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    on_disk_ = other.on_disk_;
    fd_ = std::exchange(other.fd_, -1);
    file_failed_ = other.file_failed_;
    in_file_ = std::exchange(other.in_file_, 0);
    pending_ = std::move(other.pending_);
    in_memory_ = std::move(other.in_memory_);
  }
  return *this;
}

PointLog::~PointLog() {
  if (fd_ >= 0) ::close(fd_);
}

std::string PointLog::directory() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

std::string PointLog::cannot_make_file() {
  const int fd = make_anonymous_file();
  if (fd < 0) return "cannot make a temporary file in " + directory() + ": " + std::strerror(errno);
  ::close(fd);
  return {};
}

void PointLog::append(model::Point point) {
  if (!on_disk_ || file_failed_) {
    in_memory_.push_back(point);
    return;
  }
  pending_.push_back(point);
  if (pending_.size() >= kPendingPoints) write_pending();
}

void PointLog::write_pending() {
  if (fd_ < 0) fd_ = make_anonymous_file();
  const std::size_t bytes = pending_.size() * sizeof(model::Point);
  if (fd_ < 0 || !write_all_at(fd_, reinterpret_cast<const char*>(pending_.data()), bytes,
                               static_cast<off_t>(in_file_ * sizeof(model::Point)))) {
    // Kept in memory from now on, in order after what the file holds.
    file_failed_ = true;
    in_memory_.assign(pending_.begin(), pending_.end());
    pending_ = {};
    return;
  }
  in_file_ += pending_.size();
  pending_.clear();
}

void PointLog::read_chunk(std::size_t from, std::vector<model::Point>& chunk) const {
  chunk.resize(std::min(kChunkPoints, in_file_ - from));
  char* bytes = reinterpret_cast<char*>(chunk.data());
  std::size_t size = chunk.size() * sizeof(model::Point);
  off_t offset = static_cast<off_t>(from * sizeof(model::Point));
  while (size > 0) {
    const ssize_t n = ::pread(fd_, bytes, size, offset);
    if (n < 0 && errno == EINTR) continue;
    // What was written cannot be read back: the file is broken under us.
    if (n <= 0) throw std::runtime_error("cannot read back the latency proof's messages from a temporary file in " +
                                         directory() + ": " + (n < 0 ? std::strerror(errno) : "it is shorter"));
    bytes += n;
    size -= static_cast<std::size_t>(n);
    offset += n;
  }
}

}  // namespace tracesync::session
