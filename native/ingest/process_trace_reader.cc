// SPDX-License-Identifier: EPL-2.0
#include "ingest/process_trace_reader.h"

#include <unistd.h>

#include <algorithm>
#include <new>

#include "ingest/reader_protocol.h"
#include "ingest/traces_being_opened.h"

namespace tracesync::ingest {

namespace protocol = reader_protocol;

ProcessTraceReader::ProcessTraceReader(TraceSource source, match::TraceIndex index, ReaderOptions options,
                                       ReadingLane& lane, std::size_t lane_number, EventSink& sink)
    : source_(std::move(source)),
      index_(index),
      options_(options),
      lane_(lane),
      lane_number_(lane_number),
      sink_(sink) {
  info_.path = source_.path;
  info_.name = source_.name;
  std::tie(info_.domain_id, info_.domain_source) = choose_domain(source_, std::nullopt, "");
}

TraceReader::State ProcessTraceReader::step(std::size_t rounds) {
  try {
    if (state_ != State::kNew && state_ != State::kReading) return state_;
    if (!open_in_lane()) return state_;
    if (state_ == State::kReading) exchange(rounds);
  } catch (const std::bad_alloc&) {
    // The step's frames may still be coming: the process is not fit to
    // serve the lane's other traces, which are resumed in another.
    lane_.stop_process();
    // Making words may fail too: problem() then answers kOutOfMemoryProblem.
    out_of_memory_ = true;
    fail({});
  } catch (const std::exception& e) {
    lane_.stop_process();
    std::string problem;
    if (!compose_problem(problem, "internal error while reading: ", e.what())) out_of_memory_ = true;
    fail(std::move(problem));
  } catch (...) {
    lane_.stop_process();
    std::string problem;
    if (!compose_problem(problem, "internal error while reading", "")) out_of_memory_ = true;
    fail(std::move(problem));
  }
  return state_;
}

// Makes sure the lane's process holds the trace open: at its first step, and
// again after the process that held it died (reading another trace, or
// killed): it then resumes after what was delivered. Opening (babeltrace2
// indexes every packet) is a step of its own, so that a front end can name a
// trace that takes long to open, and a scheduler can give up on one that
// never ends. False when the trace cannot go on now (it failed, or reading
// was interrupted).
bool ProcessTraceReader::open_in_lane() {
  std::string problem;
  if (!lane_.ready(problem)) {
    if (!problem.empty()) fail(std::move(problem));
    return false;  // interrupted: left unfinished
  }
  const std::string ended = lane_.take_ended_between_steps();
  if (opened_in_ == lane_.generation()) return true;
  if (follow_.kind != protocol::FollowedSource::Kind::kNone && opened_in_ != 0 && !ended.empty()) {
    // Its process (a lane of one) died between two steps: killed from
    // outside. A death like any other for the retries.
    if (retried_) {
      fail("reading stopped after at least " + std::to_string(info_.events) + " events: " + ended);
      return false;
    }
    read_on_after(ended);
  }
  const OpeningTrace opening(source_.path);
  set_opening(true);
  struct OpeningEnds {
    ProcessTraceReader& reader;
    ~OpeningEnds() { reader.set_opening(false); }
  } opening_ends{*this};
  protocol::OpenRequest request;
  request.parent_pid = getpid();
  request.index = index_;
  request.source = source_;
  request.options = options_;
  // A live session's port positions mean nothing to a new attachment: it
  // resumes after its cut (live_cut_) instead.
  if (follow_.kind != protocol::FollowedSource::Kind::kLiveSession) request.resume = delivered_;
  request.follow = follow_;
  request.folder = folder_at_;
  if (attached_again_) {
    request.live_cut = live_cut_;
    cut_sent_ = live_cut_.through;
  }
  opened_in_ = lane_.generation();
  if (!lane_.channel().send(protocol::kOpen, protocol::encode(request))) {
    process_lost();
    return false;
  }
  return exchange(0);
}

std::optional<std::chrono::steady_clock::time_point> ProcessTraceReader::opening_since() const {
  const std::lock_guard lock(opening_mutex_);
  return opening_since_;
}

void ProcessTraceReader::set_opening(bool opening) {
  const std::lock_guard lock(opening_mutex_);
  opening_since_ = opening ? std::optional(std::chrono::steady_clock::now()) : std::nullopt;
}

void ProcessTraceReader::stop_opening(std::string problem) {
  const std::lock_guard lock(opening_mutex_);
  if (!opening_since_ || !stopped_because_.empty()) return;
  stopped_because_ = std::move(problem);
  // The lane is this trace's while it opens: the kill ends this opening.
  lane_.kill();
}

void ProcessTraceReader::interrupt() { lane_.interrupt(); }

bool ProcessTraceReader::park() {
  if (state_ != State::kReading) return false;
  if (lane_.serving(opened_in_)) {
    FrameChannel& channel = lane_.channel();
    // Unanswered: a process gone by now is noticed at the next step.
    if (channel.send(protocol::kClose, protocol::addressed(index_, {}))) channel.flush();
  }
  opened_in_ = 0;
  return true;
}

// One step of the process's: forwards its frames to the sink until it
// reports the step done. False when the process is gone (the trace then
// failed, or was left unfinished by interrupt()).
bool ProcessTraceReader::exchange(uint64_t rounds) {
  FrameChannel& channel = lane_.channel();
  if (!channel.send(protocol::kStep, protocol::addressed(index_, protocol::encode_rounds(rounds))) || !channel.flush()) {
    process_lost();
    return false;
  }
  uint32_t type = 0;
  std::vector<std::byte>& frame = lane_.frame_buffer();
  for (;;) {
    if (!channel.receive(type, frame)) {
      process_lost();
      return false;
    }
    lane_.answered();
    std::span<const std::byte> payload(frame);
    if (protocol::take_address(payload) != index_) {
      fail("internal error: the reading process sent a frame about another trace (type " + std::to_string(type) +
           ")");
      lane_.stop_process();
      return false;
    }
    if (type != protocol::kStepDone) {
      if (handle(type, payload)) continue;
      fail("internal error: the reading process sent a malformed frame (type " + std::to_string(type) + ")");
      lane_.stop_process();
      return false;
    }
    std::optional<protocol::StepReport> report = protocol::decode_step_report(payload);
    if (!report) {
      fail("internal error: the reading process sent a malformed step report");
      lane_.stop_process();
      return false;
    }
    state_ = report->state;
    // A resumed trace is read again from its beginning: its figures catch up
    // with what was known before, and its promise and share read do not go back.
    progress_ = std::max(progress_, report->progress);
    bytes_read_.store(std::max(bytes_read_.load(std::memory_order_relaxed), report->bytes_read),
                      std::memory_order_relaxed);
    if (attached_again_) {
      // A live session attached again: what this attachment read, added to
      // what the ones before read (it gives and counts nothing of theirs).
      TraceInfo read = read_before_;
      add_read_figures(read, report->info);
      read.streams = std::max(read_before_.streams, report->info.streams);
      read.discarded_events += report->info.discarded_events;
      info_ = std::move(read);
    } else if (report->info.events >= info_.events || state_ == State::kDone) {
      info_ = std::move(report->info);
    }
    problem_ = std::move(report->problem);
    delivered_ = std::move(report->delivered);
    if (follow_.kind == protocol::FollowedSource::Kind::kFolder) {
      folder_at_ = std::move(report->folder);
      // Read a look further than where its last process died: a death from
      // now on is at another place, and is retried again.
      if (retried_ && (folder_at_.chunk != died_at_.chunk || folder_at_.packets != died_at_.packets)) retried_ = false;
    }
    gaps_ = std::move(report->gaps);
    if (attached_again_) unserved_ = std::move(report->unserved);
    waiting_ = report->waiting;
    end_words_ = std::move(report->end_words);
    // The reading process's own reader said memory ran out (kOutOfMemory).
    if (state_ == State::kFailed) out_of_memory_ = problem_.starts_with(kOutOfMemory);
    channel.release_buffers();  // until the lane's next turn, which may be long in coming
    if (state_ == State::kDone || state_ == State::kFailed) {
      delivered_ = ResumePoint();
      folder_at_ = FolderPosition();
      if (!closed_) {  // the process's reader always closes; never leave the sink waiting
        closed_ = true;
        sink_.trace_closed(index_);
      }
    }
    return true;
  }
}

bool ProcessTraceReader::handle(uint32_t type, std::span<const std::byte> payload) {
  switch (type) {
    case protocol::kOpened: {
      std::optional<TraceInfo> info = protocol::decode_trace_info(payload);
      if (!info) return false;
      if (announced_) return true;  // opened again to resume: the sink knows it
      info_ = std::move(*info);
      announced_ = true;
      sink_.trace_opened(index_, info_);
      return true;
    }
    case protocol::kEvents: {
      std::vector<match::PacketEvent>& events = lane_.event_buffer();
      std::optional<protocol::EventsHeader> header = protocol::decode_events(payload, events);
      if (!header) return false;
      delivered_ = std::move(header->delivered);
      if (follow_.kind == protocol::FollowedSource::Kind::kFolder) folder_at_ = std::move(header->folder);
      // So that a trace whose process dies in a long step is said read so far.
      if (!attached_again_) info_.events = std::max(info_.events, header->events_read);
      // The cut only moves on (each attachment starts from the one before).
      if (follow_.kind == protocol::FollowedSource::Kind::kLiveSession &&
          header->live_cut.through >= live_cut_.through) {
        live_cut_ = std::move(header->live_cut);
      }
      // A live session attached again gave something new: a death from now
      // on is at another place, and is retried again.
      if (follow_.kind == protocol::FollowedSource::Kind::kLiveSession && !events.empty()) retried_ = false;
      // A resumed reader's promise starts over; the earlier one still holds.
      sink_.trace_events(index_, events, std::max(header->promise, progress_));
      return true;
    }
    case protocol::kClosed:
      if (!payload.empty()) return false;
      closed_ = true;
      sink_.trace_closed(index_);
      return true;
    default:
      return false;
  }
}

// The channel broke during this trace's step: the process died (reading
// this trace, which is then at fault, or before), or was killed (by
// interrupt() or stop_opening(), or from outside).
void ProcessTraceReader::process_lost() {
  const ReadingLane::Loss loss = lane_.lost();
  std::string stopped_because;
  {
    const std::lock_guard lock(opening_mutex_);
    stopped_because = stopped_because_;
  }
  if (!stopped_because.empty()) {
    fail(std::move(stopped_because));
    return;
  }
  if (lane_.interrupted()) return;  // left unfinished: cancelled, not failed
  if (!retried_) {
    // Killed from outside (the machine's out-of-memory killer, a user), or
    // already dead before this step (nothing tells): another process reads
    // on from what was delivered. Damage kills that one at the same place,
    // and the trace fails then, as if it had failed the first time.
    retried_ = true;
    opened_in_ = 0;
    if (follow_.kind != protocol::FollowedSource::Kind::kNone) read_on_after(loss.how);
    return;
  }
  out_of_memory_ = loss.out_of_memory;
  if (state_ == State::kNew) {
    fail("cannot be opened: " + loss.how);
  } else {
    fail("reading stopped after at least " + std::to_string(info_.events) + " events: " + loss.how);
  }
}

void ProcessTraceReader::read_on_after(const std::string& how) {
  retried_ = true;
  if (follow_.kind == protocol::FollowedSource::Kind::kFolder) {
    died_at_ = folder_at_;
    resumed_ = how + "; read on in a new reading process after the " + std::to_string(info_.events) + " events read";
    return;
  }
  gaps_.clear();
  gaps_told_ = 0;
  if (!announced_) {  // the session never opened: attached afresh
    resumed_ = how + "; attached again in a new reading process (nothing was read)";
    return;
  }
  // What the last events received carried is what was given (LiveCut): the
  // new attachment gives what comes after, and names what the relay no
  // longer serves. A promise past the cut (a step report's) was given too:
  // nothing earlier may come, and nothing at it was given.
  if (progress_ > live_cut_.through) {
    live_cut_.through = progress_;
    live_cut_.at_through.clear();
  }
  attached_again_ = true;
  read_before_ = info_;
  unserved_ = live_cut_.streams;  // until the new attachment serves them
  resumed_ = how + "; attached again to the relay in a new reading process after the " +
             std::to_string(info_.events) + " events read, which gave everything up to " +
             std::to_string(live_cut_.through) + " ns (a stream the relay serves again only from later is named as a gap)";
}

std::vector<StreamGap> ProcessTraceReader::take_unserved() {
  std::vector<StreamGap> named;
  if (!attached_again_ || state_ == State::kFailed) return named;
  for (const uint64_t stream : std::exchange(unserved_, {})) named.push_back({stream, cut_sent_, cut_sent_, false});
  return named;
}

std::vector<StreamGap> ProcessTraceReader::take_gaps() {
  std::vector<StreamGap> fresh;
  if (gaps_told_ < gaps_.size()) fresh.assign(gaps_.begin() + static_cast<std::ptrdiff_t>(gaps_told_), gaps_.end());
  gaps_told_ = gaps_.size();
  return fresh;
}

void ProcessTraceReader::fail(std::string problem) {
  problem_ = std::move(problem);
  state_ = State::kFailed;
  delivered_ = ResumePoint();
  folder_at_ = FolderPosition();
  if (closed_) return;
  closed_ = true;
  try {
    sink_.trace_closed(index_);
  } catch (...) {  // nothing more can be done for this trace
  }
}

}  // namespace tracesync::ingest
