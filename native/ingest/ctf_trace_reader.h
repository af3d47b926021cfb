// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <babeltrace2/babeltrace.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "bt/ref.h"
#include "ingest/event_sink.h"
#include "ingest/network_event_decoder.h"
#include "ingest/reader_choice.h"
#include "ingest/resume_point.h"
#include "ingest/resumable_trace_reader.h"
#include "ingest/trace_info.h"
#include "ingest/trace_reader.h"
#include "ingest/trace_source.h"

namespace tracesync::ingest {

struct ReaderOptions {
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
  // Which reader reads a trace (make_trace_reader).
  ReaderChoice reader = ReaderChoice::kBabeltrace2;
};

// Reads one CTF trace with babeltrace2: a graph of `src.ctf.fs` (no muxer)
// whose every output port feeds one input port of an in-process sink; the
// sink takes a batch from each stream in turn. Events are recognised by
// class once (NetworkEventDecoder); only network events' payloads are read.
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

 private:
  struct StreamCursor {
    bt::MessageIteratorRef iterator;
    std::string port_name;
    bool ended = false;
    bool has_clock = false;          // its stream class has a default clock class
    bool packets_have_time = false;  // packet beginnings carry a clock snapshot
    bool discards_have_time = false;
    bool saw_event = false;
    model::Nanoseconds reached = INT64_MIN;  // the latest timestamp seen
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
  void note_recorded_events(const bt_stream_class* stream_class);
  // Counts an event and hands network events to add_network_event: run
  // for every event, so inline, with a one-probe table of decoders.
  bool handle_event(StreamCursor& cursor, const bt_message* message) {
    ++info_.events;
    if (!options_.decode) return true;
    const bt_event* event = bt_message_event_borrow_event_const(message);
    const NetworkEventDecoder* decoder = decoder_for(bt_event_borrow_class_const(event));
    if (decoder == nullptr) return true;  // timed with its batch (note_event_times)
    return add_network_event(cursor, message, event, *decoder);
  }
  bool add_network_event(StreamCursor& cursor, const bt_message* message, const bt_event* event,
                         const NetworkEventDecoder& decoder);
  bool note_event_times(StreamCursor& cursor, bt_message_array_const messages, uint64_t count);
  bool time_of(const bt_clock_snapshot* snapshot, model::Nanoseconds& out);
  const NetworkEventDecoder* decoder_for(const bt_event_class* event_class) {
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
  const NetworkEventDecoder* decoder_on_miss(const bt_event_class* event_class, std::size_t slot);
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

  bt::GraphRef graph_;
  std::vector<std::string> port_names_;
  std::vector<StreamCursor> cursors_;
  std::unordered_map<std::string, std::pair<model::Nanoseconds, model::Nanoseconds>> ranges_;

  std::unordered_map<const bt_event_class*, std::optional<NetworkEventDecoder>> decoders_;
  // Every event asks which decoder its class has, and most classes have
  // none: a small open-addressing table in front of the map keeps that
  // answer a compare or two away (the map's lookup was a measurable share
  // of a read). It never fills: at most half of it is used (decoder_on_miss).
  struct CachedDecoder {
    const bt_event_class* event_class = nullptr;
    const NetworkEventDecoder* decoder = nullptr;
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
  DeliveryCut last_flush_;    // what the last flush gave, with what it held back
};

}  // namespace tracesync::ingest
