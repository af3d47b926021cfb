// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ingest/ctf_trace_reader.h"
#include "ingest/event_sink.h"
#include "ingest/frame_channel.h"
#include "ingest/output_tail.h"
#include "ingest/trace_reader.h"
#include "ingest/trace_source.h"

namespace tracesync::ingest {

// Reads one trace in a child process: `command` (tracesync's `read-trace`,
// which runs serve_trace_reading) runs a CtfTraceReader there and streams
// back what it gives its sink; each step here is a step there, so the
// reading still advances in turns the scheduler hands out.
//
// babeltrace2 2.0 aborts on some damaged traces and loops forever on
// others. In a child that costs only the trace: when the child dies, the
// trace fails with a problem that says how, quoting the last line the child
// wrote (its standard output and error go to a pipe whose end is kept,
// OutputTail; the channel is a socket on kReadingChannelFd); the events
// delivered before stand.
// interrupt() kills a child that never finishes its step, stop_opening()
// one that never finishes opening.
//
// The child runs in a process group of its own (Ctrl-C in a terminal is the
// parent's to handle) and is killed when the thread that started it exits
// (PR_SET_PDEATHSIG): step the reader from threads that outlive its reading.
class ProcessTraceReader final : public TraceReader {
 public:
  ProcessTraceReader(TraceSource source, match::TraceIndex index, ReaderOptions options,
                     std::vector<std::string> command, EventSink& sink);
  ~ProcessTraceReader() override;
  ProcessTraceReader(const ProcessTraceReader&) = delete;
  ProcessTraceReader& operator=(const ProcessTraceReader&) = delete;

  State step(std::size_t rounds) override;
  void interrupt() override;
  std::optional<std::chrono::steady_clock::time_point> opening_since() const override;
  void stop_opening(std::string problem) override;

  State state() const override { return state_; }
  const TraceInfo& info() const override { return info_; }
  const std::string& problem() const override {
    return out_of_memory_ && problem_.empty() ? kOutOfMemoryProblem : problem_;
  }
  bool out_of_memory() const override { return out_of_memory_; }
  model::Nanoseconds progress() const override { return progress_; }
  uint64_t bytes_read() const override { return bytes_read_.load(std::memory_order_relaxed); }

 private:
  bool start();
  bool exchange(uint64_t rounds);
  bool handle(uint32_t type);
  void child_lost();
  void fail(std::string problem);
  void end_child();
  void kill_group();
  void set_opening(bool opening);

  TraceSource source_;
  match::TraceIndex index_;
  ReaderOptions options_;
  std::vector<std::string> command_;
  EventSink& sink_;

  State state_ = State::kNew;
  TraceInfo info_;
  std::string problem_;
  model::Nanoseconds progress_ = INT64_MIN;
  std::atomic<uint64_t> bytes_read_{0};
  bool closed_ = false;  // the sink heard trace_closed
  bool answered_ = false;  // a frame came back: the child speaks the protocol
  bool out_of_memory_ = false;  // it failed because memory ran out (here or there)

  OutputTail output_;  // the end of what the child printed
  std::unique_ptr<FrameChannel> channel_;
  std::vector<std::byte> payload_;
  std::vector<match::PacketEvent> events_;

  // interrupt() and stop_opening() may come from any thread: it must not kill a reaped pid or
  // shut a closed (maybe reused) descriptor.
  mutable std::mutex child_mutex_;
  pid_t child_ = -1;      // until reaped
  int socket_ = -1;       // our end
  bool interrupted_ = false;
  std::optional<std::chrono::steady_clock::time_point> opening_since_;  // while the child opens the trace
  std::string stopped_because_;  // set by stop_opening
};

}  // namespace tracesync::ingest
