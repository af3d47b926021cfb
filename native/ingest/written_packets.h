// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tracesync::ingest {

// How much of a trace that LTTng is still writing can be read: only whole
// packets. A packet is whole once its entry is in the stream's index file
// (LTTng's consumer writes it after the packet's bytes) and its packet_size
// bytes are on disk; the packets after a partly written one wait.

// One packet of a stream file, as its index entry describes it.
struct WrittenPacket {
  uint64_t offset = 0;  // in the stream file, in bytes
  uint64_t size = 0;    // bytes (packet_size)
  uint64_t timestamp_begin = 0;   // clock cycles: no event of the packet is earlier
  uint64_t timestamp_end = 0;     // clock cycles: no event of the packet is later
  uint64_t discarded_events = 0;  // the tracer's count of events lost in the stream so far
  friend bool operator==(const WrittenPacket&, const WrittenPacket&) = default;
};

// Follows one stream file being written through its index file
// (TRACE/index/STREAM.idx: a big-endian header, then one entry a packet).
// Both files stay open once found, so that a session's rotation, which
// renames the trace chunk's directory while the consumer still writes its
// last packets, does not lose them (growing_trace_reader.h).
class StreamBeingWritten {
 public:
  StreamBeingWritten(std::string stream_path, std::string index_path);
  ~StreamBeingWritten();
  StreamBeingWritten(const StreamBeingWritten&) = delete;
  StreamBeingWritten& operator=(const StreamBeingWritten&) = delete;

  // Where the files are now, for the ones not opened yet (a chunk's
  // directory moves when the session rotates).
  void moved_to(std::string stream_path, std::string index_path);

  // Appends the packets that became whole since the last call, in file
  // order, to `packets`, until their bytes reach `budget` (the rest wait
  // for the next call), and at most until the stream's count of packets
  // polled reaches `until` (a followed folder resumed: the packets read
  // before, then the look that was under way). False, with `problem` naming
  // the file, when the index is not LTTng's or skips or overlaps a packet.
  bool poll(std::vector<WrittenPacket>& packets, uint64_t budget, std::string& problem, uint64_t until = UINT64_MAX);

  const std::string& path() const { return stream_path_; }
  // The stream file, open once a packet of it was polled (-1 before).
  int stream_fd() const { return stream_fd_; }
  bool any() const { return packets_ > 0; }
  uint64_t packets() const { return packets_; }
  const WrittenPacket& last() const { return last_; }  // once any()

 private:
  bool open_files();  // false while a file is not there yet

  std::string stream_path_, index_path_;
  int stream_fd_ = -1, index_fd_ = -1;
  uint32_t entry_size_ = 0;    // from the index header, once read
  uint64_t index_offset_ = 0;  // of the next entry to read
  uint64_t next_packet_ = 0;   // where the next packet must start
  uint64_t packets_ = 0;
  WrittenPacket last_;
};

// The bytes of `metadata` (a metadata file's content as read now) that are
// whole: LTTng packetizes metadata (each packet a header with its size),
// so that is every whole packet; a plain-text metadata file ("/* CTF ...")
// has no packets and counts as whole. CTF 2 metadata (a JSON text sequence,
// plain or in packets) counts up to its last whole fragment (in packets: up
// to the last packet that ends one). Zero when not even the first packet
// is. An unknown header sets `problem`.
uint64_t whole_metadata_bytes(std::string_view metadata, std::string& problem);

}  // namespace tracesync::ingest
