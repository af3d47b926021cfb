// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <string>

namespace tracesync::ingest {

// The end of what a reading process writes on its standard output and error
// (babeltrace2's assertion messages, its logging, anything a library
// prints), to be quoted when the process dies. The process writes into a
// pipe that its parent drains while it waits for the process's frames
// (FrameChannel::drain_while_waiting), keeping only the last kKept bytes:
// however much the process prints, this costs the pipe's buffer (64 KiB on
// Linux) and twice kKept. A process printing faster than it is drained waits
// on the pipe, as it would on a terminal.
class OutputTail {
 public:
  static constexpr std::size_t kKept = 4096;

  OutputTail() = default;
  ~OutputTail() { close(); }
  OutputTail(const OutputTail&) = delete;
  OutputTail& operator=(const OutputTail&) = delete;

  // Makes the pipe; false (errno says why) when it cannot.
  bool open();
  // The end the process writes to (close-on-exec: dup2 it in the child),
  // until close_write_end().
  int write_end() const { return write_; }
  // Once the process has its copy: the pipe then ends when the process (and
  // whatever it started) is gone.
  void close_write_end();
  int read_end() const { return read_; }

  // Reads what waits in the pipe, without blocking (at most a few MiB per
  // call, so that a process printing without pause does not hold its parent
  // here). False once the pipe has ended or failed.
  bool drain();
  void close();

  // The last line written, without babeltrace2's decoration of assertion
  // failures: on an abort, that is babeltrace2's own account of what it
  // choked on. Empty when nothing was written.
  std::string last_line() const;

 private:
  int read_ = -1;
  int write_ = -1;
  std::string tail_;  // the last bytes read, at most 2 * kKept
};

}  // namespace tracesync::ingest
