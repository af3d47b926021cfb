// SPDX-License-Identifier: EPL-2.0
#include "ingest/frame_channel.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <system_error>
#include <thread>

namespace tracesync::ingest {

namespace {

constexpr std::size_t kFlushAt = 1u << 20;
// Written in the background, queued bytes beyond which send() waits.
constexpr std::size_t kMostQueued = 32u << 20;
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

// The thread that writes a channel's queued bytes (write_in_background),
// and what it shares with the channel's own thread.
struct FrameChannel::Writer {
  std::mutex mutex;
  std::condition_variable changed;  // bytes queued, written, or an error
  std::vector<std::byte> queued;    // by send(), not yet taken by the thread
  bool writing = false;             // the thread holds bytes not yet written
  bool stopping = false;
  std::string error;                // the first write's that failed
  int wake[2] = {-1, -1};           // a pipe: a byte in it ends a wait for the socket
  std::thread thread;

  ~Writer() {
    for (const int fd : wake) {
      if (fd >= 0) ::close(fd);
    }
  }

  void run(int fd) {
    std::vector<std::byte> batch;
    std::unique_lock lock(mutex);
    while (true) {
      changed.wait(lock, [&] { return stopping || !queued.empty(); });
      if (stopping) return;
      batch.swap(queued);
      writing = true;
      lock.unlock();
      std::string failed = write_all(fd, batch);
      batch.clear();
      // A batch the size of a lag (up to kMostQueued) is not kept: the
      // queue it is swapped with next starts small again.
      if (batch.capacity() > 4 * kFlushAt) std::vector<std::byte>().swap(batch);
      lock.lock();
      writing = false;
      if (!failed.empty() && error.empty()) error = std::move(failed);
      if (!error.empty()) queued.clear();  // nothing more gets through
      changed.notify_all();
    }
  }

  // Writes all of `bytes` as the socket takes them; what went wrong, or
  // empty. Ends early when the channel goes (a byte in `wake`).
  std::string write_all(int fd, const std::vector<std::byte>& bytes) const {
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t written = ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (written >= 0) {
        done += static_cast<std::size_t>(written);
        continue;
      }
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) return std::strerror(errno);
      pollfd watched[2] = {{fd, POLLOUT, 0}, {wake[0], POLLIN, 0}};
      if (::poll(watched, 2, -1) < 0 && errno != EINTR) return std::strerror(errno);
      if (watched[1].revents != 0) return "the channel was closed while writing";
    }
    return {};
  }
};

FrameChannel::FrameChannel(int read_fd, int write_fd) : read_fd_(read_fd), write_fd_(write_fd) {}

FrameChannel::~FrameChannel() {
  if (!writer_) return;
  {
    const std::lock_guard lock(writer_->mutex);
    writer_->stopping = true;
  }
  writer_->changed.notify_all();
  const char byte = 0;
  if (::write(writer_->wake[1], &byte, 1) < 0) {
    // The pipe is full of such bytes already: the thread sees them.
  }
  writer_->thread.join();
}

bool FrameChannel::write_in_background() {
  if (writer_) return true;
  int type = 0;
  socklen_t length = sizeof type;
  if (getsockopt(write_fd_, SOL_SOCKET, SO_TYPE, &type, &length) != 0 || type != SOCK_STREAM) return false;
  if (!flush()) return false;
  // As much as the other end may hold unread as the system lets a process
  // ask for (net.core.wmem_max): the fewer the wake-ups, the less either
  // end waits for the other to be scheduled.
  const int most = 64 << 20;
  setsockopt(write_fd_, SOL_SOCKET, SO_SNDBUF, &most, sizeof most);
  auto writer = std::make_unique<Writer>();
  if (pipe2(writer->wake, O_CLOEXEC | O_NONBLOCK) != 0) return false;
  try {
    writer->thread = std::thread([w = writer.get(), fd = write_fd_] { w->run(fd); });
  } catch (const std::system_error&) {
    return false;  // the thread limit: written as before
  }
  writer_ = std::move(writer);
  return true;
}

void FrameChannel::append_frame(std::vector<std::byte>& to, uint32_t type, std::span<const std::byte> part,
                                std::span<const std::byte> more) const {
  const FrameHeader header{type, static_cast<uint32_t>(part.size() + more.size())};
  const auto* header_bytes = reinterpret_cast<const std::byte*>(&header);
  to.insert(to.end(), header_bytes, header_bytes + sizeof header);
  to.insert(to.end(), part.begin(), part.end());
  to.insert(to.end(), more.begin(), more.end());
}

bool FrameChannel::send(uint32_t type, std::span<const std::byte> part, std::span<const std::byte> more) {
  const std::size_t size = part.size() + more.size();
  if (size > kMaxPayload) {
    error_ = "a frame of " + std::to_string(size) + " bytes is too large";
    return false;
  }
  if (writer_) {
    std::unique_lock lock(writer_->mutex);
    if (writer_->error.empty()) append_frame(writer_->queued, type, part, more);
    writer_->changed.notify_all();
    writer_->changed.wait(lock, [&] { return writer_->queued.size() < kMostQueued || !writer_->error.empty(); });
    if (writer_->error.empty()) return true;
    error_ = writer_->error;
    return false;
  }
  append_frame(out_, type, part, more);
  return out_.size() < kFlushAt || flush();
}

bool FrameChannel::flush() {
  if (writer_) {
    // What is left is written on this thread once the writer's thread is
    // idle (the end of a step: the other end then hears of it without
    // waiting for that thread to wake up), in order.
    Writer& writer = *writer_;
    std::unique_lock lock(writer.mutex);
    writer.changed.wait(lock, [&] { return !writer.writing || !writer.error.empty(); });
    if (writer.error.empty() && !writer.queued.empty()) {
      std::vector<std::byte> rest;
      rest.swap(writer.queued);
      writer.writing = true;
      lock.unlock();
      std::string failed = writer.write_all(write_fd_, rest);
      lock.lock();
      writer.writing = false;
      if (!failed.empty() && writer.error.empty()) writer.error = std::move(failed);
      writer.changed.notify_all();
    }
    if (writer.error.empty()) return true;
    error_ = writer.error;
    return false;
  }
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
