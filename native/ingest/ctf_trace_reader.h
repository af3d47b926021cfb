// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <babeltrace2/babeltrace.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "bt/ref.h"
#include "ingest/app_event_decoder.h"
#include "ingest/event_selection.h"
#include "ingest/event_sink.h"
#include "ingest/live_cut.h"
#include "ingest/network_event_decoder.h"
#include "ingest/reader_choice.h"
#include "ingest/resume_point.h"
#include "ingest/stream_gap.h"
#include "ingest/stream_time_check.h"
#include "ingest/resumable_trace_reader.h"
#include "ingest/trace_info.h"
#include "ingest/trace_reader.h"
#include "ingest/trace_source.h"

namespace tracesync::ingest {

// Where a CtfTraceReader's babeltrace2 graph takes its messages from.
enum class CtfInput : uint8_t {
  kFolder,  // src.ctf.fs: TraceSource::path is a trace directory
  kLive,    // src.ctf.lttng-live: TraceSource::path is a net://HOST:PORT/host/HOSTNAME/SESSION URL
};

// How far a packet may begin before the previous packet's last event: LTTng
// 2.1 packets begin up to 1.7 us before the previous one's timestamp_end
// (StreamTimeCheck); beyond this, the packet's time is taken as damaged.
inline constexpr model::Nanoseconds kPacketStepBackTolerance = 10'000;

struct ReaderOptions {
  CtfInput input = CtfInput::kFolder;
  // How far back a stream's timestamps may step (LTTng 2.1 packet beginnings
  // step back ~1 us): the progress a reader promises is this much earlier
  // than what its streams have reached.
  model::Nanoseconds step_back_tolerance = 1'000'000'000;
  // Network events gathered before they are handed to the sink.
  std::size_t batch_events = 4096;
  // false: only pull the messages through (measures babeltrace2 itself).
  bool decode = true;
  // Decode addresses and ports too (the strict key needs them).
  bool endpoints = true;
  // Ask babeltrace2 for each stream's time range first (its trace-infos
  // query), so that bytes_read() can move between stream ends. The query
  // reads every packet index, ~2 % of a read: only for someone watching.
  bool stream_ranges = true;
  // A step ends early once the trace's progress has moved this far since
  // the step began, so that a long step (a reading process's) cannot carry
  // the trace far ahead of the others. INT64_MAX: no limit.
  model::Nanoseconds step_span = INT64_MAX;
  // Which events to decode besides the TCP ones: the application message
  // kinds of `--messages`.
  EventSelection selection;
  // List the user-space event classes and their possible key fields in
  // TraceInfo::offered_classes (`tracesync check`).
  bool offered_classes = false;
  // Which reader reads a trace (make_trace_reader).
  ReaderChoice reader = ReaderChoice::kAuto;
  // false only for `bench ingest --time-check-cost`, which measures what the
  // time checks (StreamTimeCheck) cost, in either reader: a trace read
  // without them takes damaged time as it comes. Not carried to reading
  // processes.
  bool check_time = true;
  // Threads that scan one trace's stream files (the scanner; ScanAhead):
  // 1, the reading thread alone. read_experiment gives a trace the cores
  // the other traces leave idle, so that one big trace uses them all.
  unsigned scan_threads = 1;
};

// Reads one CTF trace with babeltrace2: a graph of `src.ctf.fs` (no muxer)
// whose every output port feeds one input port of an in-process sink; the
// sink takes a batch from each stream in turn. With CtfInput::kLive the
// source is `src.ctf.lttng-live` (one port, its streams muxed by time) and
// the same sink follows a session as a relay streams it (LiveTraceReader).
// Events are recognised by class once (NetworkEventDecoder, and
// AppEventDecoder for the application kinds of ReaderOptions::selection);
// only those events' fields are read.
//
// Time is ns from origin (the CTF clock offset applied). The reader promises
// the sink, as progress, the smallest time over its unfinished streams (each
// stream's latest timestamp so far) minus the step-back tolerance.
//
// Reading happens in steps so that a scheduler can interleave traces and
// stop on request. A failure (unreadable directory, bad metadata, no clock,
// corrupt or truncated stream) ends the trace with a one-line problem; the
// network events delivered before it stand (they were decoded from data that
// parsed, and matches already emitted cannot be taken back).
//
// babeltrace2 objects are not thread-safe, but a graph touches only its own
// objects once built: a reader may step on any thread, one at a time. Graph
// construction and destruction, which touch the shared component classes,
// hold a process-wide lock.
class CtfTraceReader final : public ResumableTraceReader {
 public:
  CtfTraceReader(TraceSource source, match::TraceIndex index, ReaderOptions options, EventSink& sink);
  ~CtfTraceReader() override;
  CtfTraceReader(const CtfTraceReader&) = delete;
  CtfTraceReader& operator=(const CtfTraceReader&) = delete;

  State step(std::size_t rounds) override;

  // Before the first step: the trace was partly read before (by a reading
  // process that died); what `delivered` covers is read but not given to
  // the sink again.
  void resume_after(ResumePoint delivered) override { resume_from_ = std::move(delivered); }
  // What this reader and its predecessors gave the sink so far.
  ResumePoint resume_point() const override;
  // Before the first step, a live session attached again after its reading
  // process died: what `given` covers was given, so none of those events
  // the relay serves again is given (nor counted) again, each stream whose
  // first packet begins after the cut is a gap (gaps()), and each stream of
  // the cut not served again is named by unserved().
  void resume_live_after(LiveCut given);
  // The gaps found so far, in the order their streams began again.
  const std::vector<StreamGap>& gaps() const { return gaps_; }
  // A live session, or one attached again: what this reader and the ones
  // before gave, as of the last flush (LiveCut); empty otherwise.
  const LiveCut& live_cut() const { return live_cut_; }
  // Attached again: the streams of the cut of which nothing was served so
  // far, by id.
  std::vector<uint64_t> unserved() const;
  void say_reader(std::string reader, std::string why) override {
    info_.reader = std::move(reader);
    info_.reader_reason = std::move(why);
  }

  State state() const override { return state_; }
  const TraceSource& source() const { return source_; }
  const TraceInfo& info() const override { return info_; }
  const std::string& problem() const override {
    return out_of_memory_ && problem_.empty() ? kOutOfMemoryProblem : problem_;
  }
  bool out_of_memory() const override { return out_of_memory_; }
  model::Nanoseconds progress() const override { return progress_; }
  // Per stream, the share of its time range read so far; their mean times
  // the stream file bytes.
  uint64_t bytes_read() const override { return bytes_read_.load(std::memory_order_relaxed); }
  // The last step ended early because the source had nothing new yet (a
  // live session between two flushes of its tracer): step again later.
  bool stalled() const { return stalled_; }

 private:
  struct StreamCursor {
    bt::MessageIteratorRef iterator;
    std::string port_name;
    bool ended = false;
    bool has_clock = false;          // its stream class has a default clock class
    bool packets_have_time = false;  // packet beginnings carry a clock snapshot
    bool discards_have_time = false;
    // Its packets carry timestamp_begin and timestamp_end: their times are
    // checked (StreamTimeCheck), and the network events of a packet wait in
    // `pending` until its verdict (at its end or the next one's beginning).
    bool checks_time = false;
    const bt_clock_class* clock = nullptr;
    StreamTimeCheck time_check;
    std::vector<match::PacketEvent> pending;
    // When an event showed the current packet damaged: how many of its
    // pending events came before the event before it (StreamTimeCheck::event).
    std::optional<std::size_t> trusted;
    std::size_t pending_before_previous = 0;  // pending's size when the last event came
    bool saw_event = false;
    model::Nanoseconds reached = INT64_MIN;  // the latest timestamp seen
    // What the stream has settled: every event it may still hand over is
    // later (its packet's pending network events wait; see checks_time).
    model::Nanoseconds settled() const { return pending.empty() ? reached : std::min(reached, pending.front().time - 1); }
    uint64_t network_read = 0;               // its network events read so far
    std::optional<std::pair<model::Nanoseconds, model::Nanoseconds>> range;  // from the trace-infos query
  };

  friend struct SinkMethods;

  State read_some(std::size_t rounds);
  void abandon() noexcept;
  std::string memory_ran_out(const std::string& cause);
  bool open();
  bool precheck();
  std::string query_ranges();  // a problem, or empty
  std::string build_graph();
  bt_component_class_initialize_method_status initialize_sink(bt_self_component_sink* self);
  bt_component_class_sink_graph_is_configured_method_status create_iterators(bt_self_component_sink* self);
  bt_component_class_sink_consume_method_status consume();
  bool handle(StreamCursor& cursor, const bt_message* message);
  bool begin_stream(StreamCursor& cursor, const bt_message* message);
  // A packet's verdict (StreamTimeCheck): its network events, waiting in
  // `pending`, are used, or dropped and counted when its time is damaged.
  void judge_packet(StreamCursor& cursor, PacketVerdict verdict);
  void note_recorded_events(const bt_stream_class* stream_class);
  // What to make of the events of one class: a TCP event, an application
  // send or receive, or (no decoder at all) nothing.
  struct ClassDecoder {
    std::optional<NetworkEventDecoder> network;
    std::optional<AppEventDecoder> app;
  };
  // Counts an event and hands send and receive events to add_message_event:
  // run for every event, so inline, with a one-probe table of decoders.
  bool handle_event(StreamCursor& cursor, const bt_message* message) {
    if (tracks_live_) {
      const LiveEvent seen = note_live_event(message);
      if (seen != LiveEvent::kNew) return seen == LiveEvent::kGivenBefore;
    }
    ++info_.events;
    if (!options_.decode) return true;
    if (cursor.checks_time) {
      // Two calls and two compares an event: its raw clock value, no conversion.
      const std::size_t pending_now = cursor.pending.size();
      if (cursor.time_check.event(
              bt_clock_snapshot_get_value(bt_message_event_borrow_default_clock_snapshot_const(message)))) {
        cursor.trusted = cursor.pending_before_previous;
      }
      cursor.pending_before_previous = pending_now;
    }
    const bt_event* event = bt_message_event_borrow_event_const(message);
    const ClassDecoder* decoder = decoder_for(bt_event_borrow_class_const(event));
    if (decoder == nullptr) return true;  // timed with its batch (note_event_times)
    return add_message_event(cursor, message, event, *decoder);
  }
  bool add_message_event(StreamCursor& cursor, const bt_message* message, const bt_event* event,
                         const ClassDecoder& decoder);
  // A live session's event: noted for the cut (live_cut()) and, after a
  // reattachment, told apart from one given, and counted, before
  // (resume_live_after).
  enum class LiveEvent : uint8_t { kNew, kGivenBefore, kBadTime };
  LiveEvent note_live_event(const bt_message* message);
  void note_live_flush(model::Nanoseconds limit);
  bool note_event_times(StreamCursor& cursor, bt_message_array_const messages, uint64_t count);
  bool time_of(const bt_clock_snapshot* snapshot, model::Nanoseconds& out);
  const ClassDecoder* decoder_for(const bt_event_class* event_class) {
    // Open addressing on the class address, at most half full: a kernel
    // trace's few dozen classes each find their slot in a probe or two. (A
    // direct-mapped cache had collisions, and each event of two colliding
    // classes then missed: 0.7% of a read.) Event classes are same-sized
    // heap objects a fixed stride apart: a multiplicative hash spreads them.
    const uint64_t hash = reinterpret_cast<uintptr_t>(event_class) * 0x9E3779B97F4A7C15ULL;
    for (std::size_t i = hash >> (64 - kDecoderSlotBits);; i = (i + 1) & (kDecoderSlots - 1)) {
      const CachedDecoder& slot = decoder_slots_[i];
      if (slot.event_class == event_class) return slot.decoder;
      if (slot.event_class == nullptr) return decoder_on_miss(event_class, i);
    }
  }
  struct CachedDecoder;
  // `slot`: the empty slot where the class would go.
  const ClassDecoder* decoder_on_miss(const bt_event_class* event_class, std::size_t slot);
  void update_progress();
  void flush();
  void flush_up_to(model::Nanoseconds limit);
  void fail(std::string problem);
  void close_graph();

  TraceSource source_;
  match::TraceIndex index_;
  ReaderOptions options_;
  EventSink& sink_;

  State state_ = State::kNew;
  TraceInfo info_;
  std::string problem_;
  std::string own_problem_;  // found by our own sink (set before it reports an error)
  bool out_of_memory_ = false;  // the problem is memory running out, not the trace
  bool announced_ = false;   // trace_opened sent
  bool stalled_ = false;     // see stalled()

  bt::GraphRef graph_;
  std::vector<std::string> port_names_;
  std::vector<StreamCursor> cursors_;
  std::unordered_map<std::string, std::pair<model::Nanoseconds, model::Nanoseconds>> ranges_;

  std::unordered_map<const bt_event_class*, std::optional<ClassDecoder>> decoders_;
  // Every event asks which decoder its class has, and most classes have
  // none: a small open-addressing table in front of the map keeps that
  // answer a compare or two away (the map's lookup was a measurable share
  // of a read). It never fills: at most half of it is used (decoder_on_miss).
  struct CachedDecoder {
    const bt_event_class* event_class = nullptr;
    const ClassDecoder* decoder = nullptr;
  };
  static constexpr int kDecoderSlotBits = 8;
  static constexpr std::size_t kDecoderSlots = std::size_t{1} << kDecoderSlotBits;
  std::array<CachedDecoder, kDecoderSlots> decoder_slots_{};
  std::size_t decoder_slots_used_ = 0;

  // Network events not yet handed to the sink; empty between steps. During
  // a step it holds the stepping thread's buffer (step() swaps it in and
  // out): one warm buffer per worker instead of one per trace, which rotated
  // out of the cache between a trace's turns and made every event a write
  // miss.
  std::vector<match::PacketEvent> batch_;
  // Events read ahead of the slowest stream, held back until it catches up:
  // if the trace fails, what it gave the sink is then exactly the trace cut
  // at one time (a later event of a stream read further could otherwise
  // replace, as a key's first send, one the damaged stream never gave).
  std::vector<match::PacketEvent> held_;
  // Every unfinished stream has been read up to here (INT64_MAX once all
  // have ended).
  model::Nanoseconds read_to_ = INT64_MIN;
  model::Nanoseconds progress_ = INT64_MIN;
  std::atomic<uint64_t> bytes_read_{0};
  ResumePoint resume_from_;   // given by a predecessor: not given again
  // A live session's (or one read with a cut: resume_live_after): the cut
  // given so far, the one resumed from, and per stream the events read at
  // each time since the cut ((time, count) runs: the flush that moves the
  // cut to a time takes the counts at that time).
  bool tracks_live_ = false;
  LiveCut live_cut_;
  std::optional<LiveCut> resumed_cut_;
  std::map<uint64_t, std::vector<std::pair<model::Nanoseconds, uint64_t>>> read_at_;
  std::set<uint64_t> streams_begun_again_;  // by stream id, since resumed_cut_
  std::vector<StreamGap> gaps_;
  DeliveryCut last_flush_;    // what the last flush gave, with what it held back
};

}  // namespace tracesync::ingest
