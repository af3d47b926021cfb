// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ingest/frame_channel.h"
#include "ingest/output_tail.h"
#include "match/packet_event.h"

namespace tracesync::ingest {

// One of the reading processes of an experiment (`--jobs` of them), and its
// successors: the traces given to a lane are all read in its process, one
// step at a time, so that an experiment costs `--jobs` processes however
// many traces it has. When the process dies, the next step of one of its
// traces starts another (generation() changes), in which its traces are
// opened again (ProcessTraceReader resumes them where they were).
//
// The process is `command` (tracesync's `read-trace`, serve_trace_reading).
// It talks over a socket on kReadingChannelFd; its standard output and
// error go to a pipe whose end is kept (OutputTail), to be quoted when it
// dies. It runs in a process group of its own (Ctrl-C in a terminal is the
// parent's to handle) and is killed when the thread that started it exits
// (PR_SET_PDEATHSIG): step the lane's traces from threads that outlive its
// reading.
//
// Threads: one thread at a time steps a trace of the lane (the scheduler
// sees to that, TraceReader::lane()); interrupt() and kill() may come from
// any thread.
class ReadingLane {
 public:
  explicit ReadingLane(std::vector<std::string> command);
  ~ReadingLane();  // kills the process, if any, and reaps it
  ReadingLane(const ReadingLane&) = delete;
  ReadingLane& operator=(const ReadingLane&) = delete;

  // A live process to talk to: the one there is, or a new one when there is
  // none or the last ended between steps (it was killed, say). False when
  // interrupted, or when it cannot start (`problem` then says why).
  bool ready(std::string& problem);
  // How the last process ended when ready() found it ended between steps
  // (in words, as Loss::how), once; empty otherwise.
  std::string take_ended_between_steps() { return std::exchange(ended_how_, {}); }
  // Changes whenever a process starts; 0 before the first.
  uint64_t generation() const { return generation_; }
  // Whether the process of `generation` is the lane's still (as far as is
  // known: it may have died since its last answer).
  bool serving(uint64_t generation) const { return channel_ != nullptr && generation == generation_; }
  // While ready: the channel to the process.
  FrameChannel& channel() { return *channel_; }
  // Where the stepping trace decodes the process's frames: one buffer per
  // lane (its traces step one at a time), not one per trace, which kept up
  // to a batch of events each (128 KB a trace on 10,000 small traces).
  std::vector<std::byte>& frame_buffer() { return frame_buffer_; }
  std::vector<match::PacketEvent>& event_buffer() { return event_buffer_; }
  // A frame came back: the process speaks the protocol.
  void answered() { answered_ = true; }

  // How the process ended after its channel broke, in words for the user
  // (which are `out_of_memory` when its last words say an allocation
  // failed). The process is reaped, or killed if it lingers; the next
  // ready() starts another.
  struct Loss {
    std::string how;
    bool out_of_memory = false;
  };
  Loss lost();

  // Kills and reaps the process (it broke the protocol); the next ready()
  // starts another.
  void stop_process() { end_process(); }

  // From any thread: kills the process and ends a wait for its answer at
  // once; no process starts any more.
  void interrupt();
  bool interrupted() const;
  // From any thread: kills the process (a step under way then fails).
  void kill();

 private:
  bool start(std::string& problem);
  void end_process();
  void kill_group();

  std::vector<std::string> command_;
  OutputTail output_;  // the end of what the process printed
  std::unique_ptr<FrameChannel> channel_;
  std::vector<std::byte> frame_buffer_;
  std::vector<match::PacketEvent> event_buffer_;
  uint64_t generation_ = 0;
  bool answered_ = false;  // by this generation's process
  std::optional<int> ended_between_steps_;  // its wait status, until described
  std::string ended_how_;                   // take_ended_between_steps()

  // interrupt() and kill() may come from any thread: they must not kill a
  // reaped pid or shut a closed (maybe reused) descriptor.
  mutable std::mutex mutex_;
  pid_t child_ = -1;  // until reaped
  int socket_ = -1;   // our end
  bool interrupted_ = false;
};

}  // namespace tracesync::ingest
