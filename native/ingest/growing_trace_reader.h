// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "ingest/ctf_trace_reader.h"
#include "ingest/event_sink.h"
#include "ingest/folder_position.h"
#include "ingest/staging_directory.h"
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
// the end time of each one's last whole packet, less the packets' step-back
// tolerance (kPacketStepBackTolerance): packets come in time order within a
// stream, so no later packet holds an earlier event. That is checked on
// each packet's index entry before it is read (a packet that begins before
// the previous one's end, beyond the tolerance, is damaged time: the trace
// fails naming it, and what was read before stands); an event before its
// own packet's beginning is damage the reader drops. A stream file with no
// whole packet yet promises nothing, and holds the promise back until it
// has one.
//
// A session with a rotation schedule (`lttng enable-rotation --timer`) is
// followed through its trace chunks, in order (trace_chunks.h): each is
// read while it is recorded, then to its end once it is in archives/, then
// the next one. A rotation opens an empty packet in every stream of the new
// chunk, so a per-CPU stream that records nothing still promises the
// rotation's time: results wait at most a rotation period for a quiet CPU,
// where without rotations they wait for the end of the recording. Give the
// session's output folder (lttng create --output) for that. Its last chunk,
// archived with none after it, ends the trace (the session was destroyed):
// no --quiet wait.
//
// The folder may not hold a trace yet (LTTng creates it when the first
// traced program registers): the reader fails at once, and the follower
// looks again while its join window is open (--wait), as for a session the
// relay does not have yet. A folder holding several traces (kernel/ and
// ust/, or several users) fails naming them: follow each trace directory.
// LTTng leaves no mark on a folder when its session stops: a trace to which
// nothing was written for `quiet_end` is taken as ended (kDone).
//
// In a reading process (`tracesync read-trace`), what it gave is known at
// every frame (position()), and a reader in a new process, after that one
// died, goes on from there (resume_at): folder_position.h.
class ResumableTraceReader;

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
  // Before the first step: the directory to make the private staging
  // directory in ($TMPDIR's, else /tmp, when not said). What readers that
  // died left there is removed then (StagingDirectory).
  void stage_in(std::string parent) { staging_parent_ = std::move(parent); }
  // Where the reading stands now: what was given to the sink.
  FolderPosition position() const;
  // Before the first step: goes on where an earlier reader of the folder
  // stood (its position()), giving nothing it gave.
  void resume_at(FolderPosition position);

  // The most bytes of packets read in one step (a folder followed late may
  // hold much already: it is read a slice a step).
  static constexpr uint64_t kStepBytes = 64ull << 20;

 private:
  class StagedSink;

  bool find_trace();
  // Reads what became whole: the packets of the folder, or of the current
  // trace chunk and then of the next ones; false when nothing did.
  bool read_more();
  // Reads the packets that became whole in the trace directory `dir`; false
  // when there were none.
  bool read_new_packets(const std::string& dir);
  // False, having failed the trace, when a packet begins before the end of
  // the packet before it in its stream (beyond the tolerance).
  bool check_order(const std::string& dir, const std::string& name, const std::vector<WrittenPacket>& packets);
  // A resumed reader's first look at the chunk: its stream files moved
  // past the packets read before; false when they cannot be yet (a file
  // being moved by a rotation: the next look tries again) or at all (failed).
  bool position_streams(const std::string& dir);
  void next_chunk();
  void read_staged(const std::string& dir, const std::string& metadata,
                   const std::map<std::string, std::vector<WrittenPacket>>& packets, ResumePoint delivered);
  // What the looks read so far become the position to resume from.
  void commit();
  void add_staged_info(const TraceInfo& chunk);
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
  std::string staging_parent_;  // where staging_ is made (empty: $TMPDIR)
  std::unique_ptr<StagingDirectory> staging_;  // for the looks' packets, made at the first look with some
  std::map<std::string, StreamBeingWritten> streams_;  // by stream file name (of the current chunk)
  uint64_t metadata_bytes_ = 0;                         // whole metadata bytes at the last step
  // Across trace chunks, by stream file name: its last whole packet (its
  // end orders the next one) and the tracer's count of its lost events.
  std::map<std::string, WrittenPacket> last_packets_;
  bool rotating_ = false;         // the session rotates its trace chunks
  uint64_t chunk_ = 0;            // the chunk being read, when rotating
  std::string chunk_trace_;       // the trace's directory within a chunk (ust/uid/0/64-bit)
  uint64_t finished_bytes_ = 0;   // stream bytes of the chunks read to their end
  std::string end_words_;         // how the end was known, when not by --quiet
  std::chrono::steady_clock::time_point last_growth_;
  FolderPosition committed_;                   // as of the last look read to its end
  std::map<std::string, uint64_t> look_;       // the look under way: packets per stream file
  uint64_t look_metadata_bytes_ = 0;           // and the metadata bytes it stages
  const ResumableTraceReader* staged_ = nullptr;  // the look's reader, while it reads
  std::optional<FolderPosition> resume_;       // until the resumed position is reached
  bool streams_positioned_ = false;            // past resume_->packets
  std::atomic<uint64_t> bytes_read_{0};  // info_.bytes, for other threads
};

}  // namespace tracesync::ingest
