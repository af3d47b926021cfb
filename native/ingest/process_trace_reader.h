// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ingest/ctf_trace_reader.h"
#include "ingest/event_sink.h"
#include "ingest/reader_protocol.h"
#include "ingest/reading_lane.h"
#include "ingest/resume_point.h"
#include "ingest/trace_reader.h"
#include "ingest/trace_source.h"

namespace tracesync::ingest {

// Reads one trace in the reading process of a lane (ReadingLane), which
// holds other traces too: the process runs a CtfTraceReader over it and
// streams back what it gives its sink; each step here is a step there, so
// the reading still advances in turns the scheduler hands out.
//
// babeltrace2 2.0 aborts on some damaged traces and loops forever on
// others. In a reading process that costs only the trace it was reading:
// when the process dies during a step of this trace, the trace is resumed
// in the lane's next process, once; if that one dies during its step too
// (damage kills it at the same place), the trace fails with a problem that
// says how, quoting the last line the process wrote; the events delivered
// before stand. The other traces of the lane lose nothing: each is opened
// again in the lane's next process and resumed where it was (ResumePoint:
// the events already given are read again, not given again). One retry
// because a death cannot be told from a kill from outside (the
// out-of-memory killer), nor a process that died between two steps from
// one that died in a step.
// interrupt() kills the lane's process (the trace is left unfinished),
// stop_opening() the one that never finishes opening this trace.
class ProcessTraceReader final : public TraceReader {
 public:
  ProcessTraceReader(TraceSource source, match::TraceIndex index, ReaderOptions options, ReadingLane& lane,
                     std::size_t lane_number, EventSink& sink);
  ProcessTraceReader(const ProcessTraceReader&) = delete;
  ProcessTraceReader& operator=(const ProcessTraceReader&) = delete;

  State step(std::size_t rounds) override;
  void interrupt() override;
  std::optional<std::chrono::steady_clock::time_point> opening_since() const override;
  void stop_opening(std::string problem) override;
  std::optional<std::size_t> lane() const override { return lane_number_; }
  bool park() override;

  // Before the first step: the source is followed while it is recorded
  // (`tracesync live`): the process runs a FollowedTraceReader over it. A
  // followed folder whose process dies is resumed in a new one where it
  // stood (FolderPosition), once per place: dying again before it read a
  // look further, it fails. A live session whose process dies is attached
  // again in a new one, which gives only what comes after the last time
  // given (the relay may serve the newest packets again) and names each
  // stream the relay begins again only later (take_gaps()); once per
  // place: dying again before it gave an event, it fails.
  void follow(reader_protocol::FollowedSource source) { follow_ = std::move(source); }
  // Once after a followed source was resumed in a new process: why, in
  // words (empty otherwise).
  std::string take_resumed() { return std::exchange(resumed_, {}); }
  // A live session attached again: the gaps its streams showed since the
  // last call (StreamGap).
  std::vector<StreamGap> take_gaps();
  // A live session attached again, once it ended or its follow stops: each
  // stream an attachment before met of which this one was served nothing
  // (a StreamGap not `served`); once.
  std::vector<StreamGap> take_unserved();
  // A followed source: the last step found nothing new; once kDone, how its
  // end was known.
  bool waiting() const { return waiting_; }
  const std::string& end_words() const { return end_words_; }

  State state() const override { return state_; }
  const TraceInfo& info() const override { return info_; }
  const std::string& problem() const override {
    return out_of_memory_ && problem_.empty() ? kOutOfMemoryProblem : problem_;
  }
  bool out_of_memory() const override { return out_of_memory_; }
  model::Nanoseconds progress() const override { return progress_; }
  uint64_t bytes_read() const override { return bytes_read_.load(std::memory_order_relaxed); }

 private:
  bool open_in_lane();
  bool exchange(uint64_t rounds);
  bool handle(uint32_t type, std::span<const std::byte> payload);
  void process_lost();
  // A followed folder's process died (`how`): the next opening resumes it
  // where it stood, and take_resumed() says so.
  void read_on_after(const std::string& how);
  void fail(std::string problem);
  void set_opening(bool opening);

  TraceSource source_;
  match::TraceIndex index_;
  ReaderOptions options_;
  ReadingLane& lane_;
  std::size_t lane_number_;
  EventSink& sink_;

  State state_ = State::kNew;
  TraceInfo info_;
  std::string problem_;
  model::Nanoseconds progress_ = INT64_MIN;
  std::atomic<uint64_t> bytes_read_{0};
  bool announced_ = false;      // the sink heard trace_opened
  bool closed_ = false;         // the sink heard trace_closed
  bool out_of_memory_ = false;  // it failed because memory ran out (here or there)
  uint64_t opened_in_ = 0;      // the lane's generation that holds it open (0: none)
  bool retried_ = false;        // a process died during one of its steps once
  ResumePoint delivered_;       // what the sink was given, as of the last step
  reader_protocol::FollowedSource follow_;  // kind kNone: a recorded trace
  bool waiting_ = false;        // a followed source's last step found nothing new
  std::string end_words_;       // a followed source's, once kDone
  FolderPosition folder_at_;    // a followed folder's: what the sink was given
  FolderPosition died_at_;      // a followed folder's, when its last process died
  std::string resumed_;         // take_resumed()
  // A followed live session's: what its events received so far say was
  // given (LiveCut); once attached again, the cut the current attachment
  // resumed from, what the attachments before read, the current
  // attachment's gaps (gaps_told_ of them told) and the streams of the cut
  // it was served nothing of so far.
  LiveCut live_cut_;
  bool attached_again_ = false;
  model::Nanoseconds cut_sent_ = INT64_MIN;
  TraceInfo read_before_;
  std::vector<StreamGap> gaps_;
  std::size_t gaps_told_ = 0;
  std::vector<uint64_t> unserved_;


  // opening_since() and stop_opening() may come from any thread.
  mutable std::mutex opening_mutex_;
  std::optional<std::chrono::steady_clock::time_point> opening_since_;  // while the process opens the trace
  std::string stopped_because_;  // set by stop_opening
};

}  // namespace tracesync::ingest
