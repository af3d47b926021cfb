// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tracesync::ingest {

// Frames over a pair of file descriptors (a socket, or a pipe each way): a
// frame is a 32-bit type, a 32-bit payload size and the payload, in the
// machine's byte order (both ends are the same build on the same machine).
// Both directions are buffered: a reading step sends thousands of small
// frames, which should cost a few system calls, not thousands.
//
// The descriptors are not owned. Errors (the other end gone, a frame too
// large) make the calls return false and leave error() saying what it was.
class FrameChannel {
 public:
  static constexpr uint32_t kMaxPayload = 64u << 20;

  FrameChannel(int read_fd, int write_fd);
  ~FrameChannel();
  FrameChannel(const FrameChannel&) = delete;
  FrameChannel& operator=(const FrameChannel&) = delete;

  // From now on a thread of the channel's own writes what send() queues, as
  // soon as the other end takes it, so that the caller goes on while the
  // other end is busy with what came before: send() waits only when tens of
  // MB are queued, flush() until everything is written. A reading process
  // writes so (issue 30: its socket holds a few hundred kB, which its parent
  // matches in less time than the process takes to read the next batch, so
  // each waited for the other). Only a socket is written so (a pipe cannot
  // be written without waiting); false when it stays as it was.
  bool write_in_background();

  // Queues a frame whose payload is the concatenation of the parts; writes
  // the queue out when it grows large.
  bool send(uint32_t type, std::span<const std::byte> part, std::span<const std::byte> more = {});
  // Writes out everything queued.
  bool flush();

  // The next frame; false at the end of the stream (error() then empty) or
  // on an error.
  bool receive(uint32_t& type, std::vector<std::byte>& payload);

  // While waiting for the other end's bytes, `drain` is called whenever
  // `fd` has something to read (or has ended); it returns false once `fd`
  // is at its end, and is not called again. A reading process's output pipe
  // is drained so: the process never blocks on it while its parent waits
  // for a frame from it.
  void drain_while_waiting(int fd, std::function<bool()> drain);

  // Gives the receive buffer back when it holds nothing unread: a channel
  // that waits for its next turn then costs no memory.
  void release_buffers();

  const std::string& error() const { return error_; }
  // The error was a frame claiming more than kMaxPayload bytes: the other
  // end writes what is not frames (while other errors mean it went away).
  bool malformed() const { return malformed_; }

 private:
  bool fill(std::size_t wanted);
  bool take(void* out, std::size_t size);
  bool wait_readable();
  void append_frame(std::vector<std::byte>& to, uint32_t type, std::span<const std::byte> part,
                    std::span<const std::byte> more) const;
  struct Writer;

  int read_fd_;
  int write_fd_;
  std::vector<std::byte> out_;
  std::vector<std::byte> in_;
  std::size_t in_begin_ = 0;  // the unread bytes are in_[in_begin_, in_end_)
  std::size_t in_end_ = 0;
  std::size_t read_chunk_ = 0;  // how much the next read may take (see fill)
  std::string error_;
  bool malformed_ = false;
  int drained_fd_ = -1;
  std::function<bool()> drain_;
  std::unique_ptr<Writer> writer_;  // write_in_background()
};

}  // namespace tracesync::ingest
