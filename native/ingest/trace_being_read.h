// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>

namespace tracesync::ingest {

// The path of the trace the calling thread is reading now, or nullptr.
//
// babeltrace2 2.0 stops the whole process (assert, abort) on some damaged
// traces instead of reporting an error; a SIGABRT handler of the program can
// then at least say which trace it was. Reading the marker is a load of a
// thread-local pointer: safe in a signal handler of an executable linking
// this library statically.
const char* trace_being_read() noexcept;

// Marks `path` (which must outlive it) as the trace this thread reads, for
// the scope of one reading step.
class ReadingTrace {
 public:
  explicit ReadingTrace(const char* path) noexcept;
  ~ReadingTrace();
  ReadingTrace(const ReadingTrace&) = delete;
  ReadingTrace& operator=(const ReadingTrace&) = delete;

 private:
  const char* previous_;
};

// When an allocation fails inside babeltrace2, GLib (2.74, Debian 12's)
// formats its fatal error message, which allocates, fails, and formats
// again: it recurses until the thread's stack overflows, a SIGSEGV. Only a
// handler running on another stack (SA_ONSTACK) can then say that memory
// ran out. A program with such a handler calls this once; from then on the
// threads that read traces give themselves that stack (ReadingThreadStack).
// Not called, nothing changes (a JVM handles SIGSEGV its own way).
void give_reading_threads_a_signal_stack() noexcept;

// For the lifetime of the calling thread's reading: an alternate signal
// stack, when asked for above and the thread has none. Memory mapped when
// made, so that it is there when memory has run out; nothing when mapping
// fails.
class ReadingThreadStack {
 public:
  ReadingThreadStack() noexcept;
  ~ReadingThreadStack();
  ReadingThreadStack(const ReadingThreadStack&) = delete;
  ReadingThreadStack& operator=(const ReadingThreadStack&) = delete;

 private:
  void* memory_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace tracesync::ingest
