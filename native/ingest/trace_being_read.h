// SPDX-License-Identifier: EPL-2.0
#pragma once

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

}  // namespace tracesync::ingest
