// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace tracesync::testing {

// Writes finished traces (tracesync simulate's, or LTTng's) again into
// empty folders the way LTTng's consumer writes a trace being recorded:
// the metadata first, then each stream packet's bytes followed by its
// entry in the stream's index file (TRACE/index/STREAM.idx, LTTng's
// format), packets in the order of their end times across every trace.
// So `tracesync live DIR` (ingest/growing_trace_reader.h) can follow them,
// for as long a recording as a simulation gives, much faster than real time.
// The packets are found by our own CTF scanner (native/ctf); the index
// entries are made from what it reads.
class PacketReplay {
 public:
  // Throws std::runtime_error naming the trace when one cannot be scanned.
  PacketReplay(std::vector<std::filesystem::path> sources, std::vector<std::filesystem::path> targets);

  // Writes the next `count` packets; false once every packet is written.
  bool write(std::size_t count);
  std::size_t packets() const { return packets_.size(); }
  std::size_t written() const { return next_; }
  // How far the recording written so far reaches: the end of its last
  // packet less the end of the first, in ns (0 before any is written).
  long double reached_ns() const { return next_ == 0 ? 0 : packets_[next_ - 1].end_ns - packets_.front().end_ns; }

 private:
  struct Packet {
    long double end_ns = 0;  // in ns from origin: orders the packets of every trace
    std::size_t trace = 0;
    std::string stream;  // file name
    uint64_t offset = 0, size = 0;
    uint64_t begin_clock = 0, end_clock = 0, discarded = 0;
  };

  std::vector<std::filesystem::path> sources_, targets_;
  std::vector<Packet> packets_;
  std::size_t next_ = 0;
};

}  // namespace tracesync::testing
