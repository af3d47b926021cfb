// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/trace_info.h"
#include "ingest/trace_source.h"
#include "model/point.h"

namespace tracesync::ingest {

// A trace's problem when memory ran out while reading it (not damage: the
// same trace may read well with more memory).
inline constexpr const char* kOutOfMemory = "out of memory while reading";
// The same as a string made at start-up: a reader that ran out of memory
// answers problem() with it, since making a string may fail then too.
inline const std::string kOutOfMemoryProblem{kOutOfMemory};

// `prefix` then `detail` into `out`; false (and `out` empty) when memory ran
// out making it. For the paths that handle exceptions, which must not throw.
inline bool compose_problem(std::string& out, std::string_view prefix, std::string_view detail) noexcept {
  try {
    out.assign(prefix);
    out.append(detail);
    return true;
  } catch (...) {
    out.clear();
    return false;
  }
}

// Whether a message (babeltrace2's error, a reading process's last words)
// says an allocation failed: the C library's strerror(ENOMEM), GLib's
// g_malloc failing, or our own kOutOfMemory.
inline bool says_out_of_memory(std::string_view message) {
  return message.find("Cannot allocate memory") != std::string_view::npos ||
         message.find("failed to allocate") != std::string_view::npos ||
         message.find(kOutOfMemory) != std::string_view::npos;
}

// Reads one trace into an EventSink, a step at a time, so that a scheduler
// can interleave traces and stop on request. CtfTraceReader reads in this
// process; ProcessTraceReader has a child process read, so that damage
// babeltrace2 cannot survive costs only that trace.
class TraceReader {
 public:
  enum class State { kNew, kReading, kDone, kFailed };

  virtual ~TraceReader() = default;

  // Reads on: opens the trace first if needed, then runs up to `rounds`
  // rounds (a batch of messages from each stream). Returns the state after.
  virtual State step(std::size_t rounds) = 0;

  // From any thread: ends a step under way as soon as possible and leaves
  // the trace unfinished (cancelled). A reader that can only stop between
  // steps ignores it.
  virtual void interrupt() {}

  // From any thread: since when the trace has been opening (babeltrace2
  // indexes every packet first), while it is; nullopt otherwise, or when the
  // reader could not stop an opening anyway.
  virtual std::optional<std::chrono::steady_clock::time_point> opening_since() const { return std::nullopt; }
  // From any thread: ends an opening under way (see opening_since); the
  // trace then fails with `problem`.
  virtual void stop_opening(std::string /*problem*/) {}
  // The reading process (its lane, ReadingLane) this trace is read in, which
  // other traces share: traces of one lane step one at a time. nullopt: the
  // trace steps on its own.
  virtual std::optional<std::size_t> lane() const { return std::nullopt; }

  // Between steps, by whoever holds the reader: closes the trace (what it
  // holds open goes: babeltrace2's graph, its files) and keeps where it is;
  // its next step opens it again and reads on from there, giving the sink
  // nothing twice (ResumePoint). False when the reader cannot, and keeps the
  // trace open.
  virtual bool park() { return false; }

  // These belong to the thread that steps the reader (or to whoever holds it
  // between steps).
  virtual State state() const = 0;
  virtual const TraceInfo& info() const = 0;
  virtual const std::string& problem() const = 0;  // when kFailed (kOutOfMemoryProblem, or more precise words)
  // When kFailed: it failed because memory ran out, not because of the trace.
  virtual bool out_of_memory() const = 0;
  // What the trace promised so far (INT64_MIN before any timestamp).
  virtual model::Nanoseconds progress() const = 0;
  // An estimate of the stream file bytes read so far, readable from any thread.
  virtual uint64_t bytes_read() const = 0;
  // Entries of the trace's directory that were left out of its reading, when
  // the reader knows them (an extract records them); others are found by
  // examining the directory (left_out_stream_files).
  virtual std::vector<Problem> left_out() const { return {}; }
};

}  // namespace tracesync::ingest
