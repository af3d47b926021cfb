// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <string>

#include "ingest/ctf_trace_reader.h"
#include "ingest/event_sink.h"
#include "ingest/followed_trace_reader.h"
#include "ingest/trace_source.h"
#include "ingest/written_packets.h"

namespace tracesync::ingest {

// Follows a trace folder that LTTng is writing (a session created with an
// output path, `lttng create --output DIR`, recording with a switch timer so
// that packets reach the disk): `tracesync live DIR`.
//
// Only whole packets are read (written_packets.h). Each step takes the
// packets that became whole since the last one, copies them with the whole
// metadata packets into a private staging trace (the packets of each stream
// file one after the other, as LTTng wrote them: every packet carries its
// own header, context and full begin time), and reads that with the reader
// `sync` uses on the folder (make_trace_reader), so events are recognised,
// decoded and delivered exactly as from the finished folder. Stream files
// that appear later are picked up; a metadata that grows (new event
// classes) is read whole at each step.
//
// The progress it promises: the oldest, over the trace's stream files, of
// the end time of each one's last whole packet (less the reader's step-back
// tolerance): packets come in time order within a stream, so no later
// packet holds an earlier event. A stream file with no whole packet yet
// promises nothing, and holds the promise back until it has one.
//
// The folder may not hold a trace yet (LTTng creates it when the first
// traced program registers): the reader fails at once, and the follower
// looks again while its join window is open (--wait), as for a session the
// relay does not have yet. A folder holding several traces (kernel/ and
// ust/, or several users) fails naming them: follow each trace directory.
// LTTng leaves no mark on a folder when its session stops: a trace to which
// nothing was written for `quiet_end` is taken as ended (kDone).
class GrowingTraceReader final : public FollowedTraceReader {
 public:
  GrowingTraceReader(TraceSource folder, match::TraceIndex index, ReaderOptions options, EventSink& sink,
                     std::chrono::milliseconds quiet_end);
  ~GrowingTraceReader() override;
  GrowingTraceReader(const GrowingTraceReader&) = delete;
  GrowingTraceReader& operator=(const GrowingTraceReader&) = delete;

  State step(std::size_t rounds) override;
  State state() const override { return state_; }
  const TraceInfo& info() const override { return info_; }
  const std::string& problem() const override { return problem_; }
  bool out_of_memory() const override { return out_of_memory_; }
  model::Nanoseconds progress() const override { return progress_; }
  uint64_t bytes_read() const override { return bytes_read_.load(std::memory_order_relaxed); }
  bool waiting() const override { return waiting_; }
  std::string end_words() const override;

  // The most bytes of packets read in one step (a folder followed late may
  // hold much already: it is read a slice a step).
  static constexpr uint64_t kStepBytes = 64ull << 20;

 private:
  class ChunkSink;

  bool find_trace();
  // Reads the packets that became whole; false when there were none.
  bool read_new_packets();
  void read_chunk(const std::string& metadata, const std::map<std::string, std::vector<WrittenPacket>>& packets);
  void add_chunk_info(const TraceInfo& chunk);
  void promise();
  void fail(std::string problem);

  TraceSource folder_;
  match::TraceIndex index_;
  ReaderOptions options_;
  EventSink& sink_;
  std::chrono::milliseconds quiet_end_;

  State state_ = State::kNew;
  TraceInfo info_;
  std::string problem_;
  bool out_of_memory_ = false;
  bool waiting_ = false;
  bool opened_ = false;  // the sink was told trace_opened
  model::Nanoseconds progress_ = INT64_MIN;
  std::string trace_dir_;
  std::string staging_;  // a private directory for the chunks, made at the first
  std::map<std::string, StreamBeingWritten> streams_;  // by stream file name
  uint64_t metadata_bytes_ = 0;                         // whole metadata bytes at the last step
  std::chrono::steady_clock::time_point last_growth_;
  std::atomic<uint64_t> bytes_read_{0};  // info_.bytes, for other threads
};

}  // namespace tracesync::ingest
