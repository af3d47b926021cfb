// SPDX-License-Identifier: EPL-2.0
#include "ingest/frame_channel.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace tracesync::ingest {

namespace {

constexpr std::size_t kFlushAt = 1u << 20;
// Reads start at kFirstReadChunk and double, up to kReadChunk, while each
// read fills the buffer: a reading process, which receives only small
// requests, then holds 64 KiB for them, not 1 MiB.
constexpr std::size_t kFirstReadChunk = 64u << 10;
constexpr std::size_t kReadChunk = 1u << 20;

struct FrameHeader {
  uint32_t type;
  uint32_t size;
};

// write(2) on a socket whose other end is gone raises SIGPIPE, which would
// kill a process (a JVM included) that does not ignore it: send(2) can be
// told not to. Pipes and files have no such flag.
ssize_t write_some(int fd, const std::byte* data, std::size_t size) {
  const ssize_t sent = ::send(fd, data, size, MSG_NOSIGNAL);
  if (sent >= 0 || errno != ENOTSOCK) return sent;
  return ::write(fd, data, size);
}

}  // namespace

bool FrameChannel::send(uint32_t type, std::span<const std::byte> part, std::span<const std::byte> more) {
  const std::size_t size = part.size() + more.size();
  if (size > kMaxPayload) {
    error_ = "a frame of " + std::to_string(size) + " bytes is too large";
    return false;
  }
  const FrameHeader header{type, static_cast<uint32_t>(size)};
  const auto* header_bytes = reinterpret_cast<const std::byte*>(&header);
  out_.insert(out_.end(), header_bytes, header_bytes + sizeof header);
  out_.insert(out_.end(), part.begin(), part.end());
  out_.insert(out_.end(), more.begin(), more.end());
  return out_.size() < kFlushAt || flush();
}

bool FrameChannel::flush() {
  std::size_t done = 0;
  while (done < out_.size()) {
    const ssize_t written = write_some(write_fd_, out_.data() + done, out_.size() - done);
    if (written < 0) {
      if (errno == EINTR) continue;
      error_ = std::strerror(errno);
      return false;
    }
    done += static_cast<std::size_t>(written);
  }
  out_.clear();
  return true;
}

// Makes at least `wanted` unread bytes available; false at the end of the
// stream or on an error.
bool FrameChannel::fill(std::size_t wanted) {
  if (in_end_ - in_begin_ >= wanted) return true;
  if (in_begin_ > 0) {  // the unread bytes to the front (memmove wants a buffer, even for none)
    std::memmove(in_.data(), in_.data() + in_begin_, in_end_ - in_begin_);
    in_end_ -= in_begin_;
    in_begin_ = 0;
  }
  read_chunk_ = std::clamp(read_chunk_, kFirstReadChunk, kReadChunk);
  if (in_.size() < std::max(wanted, read_chunk_)) in_.resize(std::max(wanted, read_chunk_));
  while (in_end_ < wanted) {
    if (!wait_readable()) return false;
    const ssize_t got = ::read(read_fd_, in_.data() + in_end_, in_.size() - in_end_);
    if (got > 0) {
      in_end_ += static_cast<std::size_t>(got);
      if (in_end_ == in_.size()) read_chunk_ = std::min(2 * read_chunk_, kReadChunk);  // more may be waiting
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else {
      if (got < 0) {
        error_ = std::strerror(errno);
      } else if (in_end_ > 0) {
        error_ = "the stream ends inside a frame";
      }
      return false;
    }
  }
  return true;
}

void FrameChannel::drain_while_waiting(int fd, std::function<bool()> drain) {
  drained_fd_ = fd;
  drain_ = std::move(drain);
}

void FrameChannel::release_buffers() {
  if (in_begin_ != in_end_) return;
  in_begin_ = in_end_ = 0;
  std::vector<std::byte>().swap(in_);
}

// Waits until read_fd_ has bytes (or has ended), draining drained_fd_
// meanwhile; false on an error.
bool FrameChannel::wait_readable() {
  while (drained_fd_ >= 0) {
    pollfd watched[2] = {{read_fd_, POLLIN, 0}, {drained_fd_, POLLIN, 0}};
    if (::poll(watched, 2, -1) < 0) {
      if (errno == EINTR) continue;
      error_ = std::strerror(errno);
      return false;
    }
    if (watched[1].revents != 0 && !drain_()) drained_fd_ = -1;
    if (watched[0].revents != 0) return true;
  }
  return true;
}

bool FrameChannel::take(void* out, std::size_t size) {
  if (!fill(size)) return false;
  std::memcpy(out, in_.data() + in_begin_, size);
  in_begin_ += size;
  return true;
}

bool FrameChannel::receive(uint32_t& type, std::vector<std::byte>& payload) {
  FrameHeader header{};
  if (!take(&header, sizeof header)) return false;
  if (header.size > kMaxPayload) {
    error_ = "a frame claims " + std::to_string(header.size) + " bytes";
    malformed_ = true;
    return false;
  }
  payload.resize(header.size);
  if (header.size > 0 && !take(payload.data(), header.size)) {
    if (error_.empty()) error_ = "the stream ends inside a frame";
    return false;
  }
  type = header.type;
  return true;
}

}  // namespace tracesync::ingest
