// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <vector>

#include "model/point.h"

namespace tracesync::session {

// Points appended one by one and read back in order: in memory, or, once
// told to keep them on disk, in a temporary file. `tracesync live -o` keeps
// every message for the HTML report's latency proof (LinkEvidence) over
// hours, so its memory must not grow with them. The file is anonymous
// (O_TMPFILE in $TMPDIR, or /tmp): nothing to remove, gone when the log is
// destroyed or the process dies. A few thousand points wait in memory
// before they are written, 64 KiB at once.
//
// Should the file fail (it cannot be made, the disk is full), the points
// from then on are kept in memory: every point stays, only the memory grows.
class PointLog {
 public:
  PointLog() = default;
  PointLog(const PointLog&) = delete;
  PointLog& operator=(const PointLog&) = delete;
  PointLog(PointLog&& other) noexcept;
  PointLog& operator=(PointLog&& other) noexcept;
  ~PointLog();

  // Before the first point: the points go to a temporary file.
  void keep_on_disk() { on_disk_ = true; }
  void append(model::Point point);
  std::size_t size() const { return in_file_ + pending_.size() + in_memory_.size(); }

  // Calls f(point) for every point, in the order appended.
  template <typename F>
  void for_each(F&& f) const {
    for_each_in_file([&](const model::Point* points, std::size_t count) {
      for (std::size_t i = 0; i < count; ++i) f(points[i]);
    });
    for (const model::Point& p : pending_) f(p);
    for (const model::Point& p : in_memory_) f(p);
  }

  // Where the files are made ($TMPDIR, or /tmp), and why one cannot be made
  // there (empty when it can): said before following begins.
  static std::string directory();
  static std::string cannot_make_file();

 private:
  template <typename F>
  void for_each_in_file(F&& f) const {
    std::vector<model::Point> chunk;
    for (std::size_t done = 0; done < in_file_;) {
      read_chunk(done, chunk);
      f(chunk.data(), chunk.size());
      done += chunk.size();
    }
  }
  void read_chunk(std::size_t from, std::vector<model::Point>& chunk) const;
  void write_pending();

  bool on_disk_ = false;
  int fd_ = -1;
  bool file_failed_ = false;
  std::size_t in_file_ = 0;               // points written to the file
  std::vector<model::Point> pending_;     // appended after them, not yet written
  std::deque<model::Point> in_memory_;    // not on disk, or after a failure of the file
};

}  // namespace tracesync::session
