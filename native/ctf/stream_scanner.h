// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ctf/read_plan.h"
#include "ctf/scan_plan.h"

namespace tracesync::ctf {

// Hears of each event of a selected class (ScanPlan::EventPlan::selected).
class EventVisitor {
 public:
  virtual ~EventVisitor() = default;
  // `clock`: the stream clock's value at the event, in cycles; `captures`:
  // its requested fields, in the order they were requested.
  virtual void selected_event(const ScanPlan::EventPlan& event, const ScanPlan::StreamPlan& stream, uint64_t clock,
                              const CapturedField* captures) = 0;
};

// What one packet held.
struct PacketSummary {
  uint64_t offset = 0;  // of the packet in the file, in bytes
  const ScanPlan::StreamPlan* stream = nullptr;
  uint64_t events = 0;
  std::optional<uint64_t> first_clock, last_clock;  // of its events, in cycles
  std::optional<uint64_t> begin_clock;              // timestamp_begin, in cycles
  std::optional<uint64_t> end_clock;                // timestamp_end, in cycles, as written
  // The first event whose time goes back (before timestamp_begin, or
  // earlier than the latest event before it): what a time check needs to
  // hear of a packet's events without one call per event.
  struct StepBack {
    uint64_t event = 0;   // its number in the packet, from 0
    uint64_t clock = 0;   // its time, in cycles
    uint64_t latest = 0;  // the latest time before it (timestamp_begin or an event's)
  };
  std::optional<StepBack> step_back;
  // The time of the event before the last one (at a selected event, when
  // the EventVisitor hears of it: of the one before it), if any: where a
  // reader cuts a stream before an event whose time is damaged.
  std::optional<uint64_t> clock_before_last;
  uint64_t discarded = 0;  // events the tracer lost since the stream's previous packet
  std::optional<uint64_t> stream_instance;  // its header's stream_instance_id (CTF 2: data-stream-id)
};

// One stream file, mapped read-only and walked packet by packet: packet
// header (magic, trace UUID, stream id), packet context (sizes, begin time,
// discarded-event count), then events up to the content size, each by its
// header (compact or large), the stream's event context and its class's
// plan. Timestamps of fewer than 64 bits wrap as CTF 1.8 says. Every read is
// checked against the packet's content and the mapping: damage ends the
// stream with a problem naming the file and the byte offset.
class StreamScanner {
 public:
  StreamScanner(const ScanPlan& plan, std::string path);
  ~StreamScanner();
  StreamScanner(const StreamScanner&) = delete;
  StreamScanner& operator=(const StreamScanner&) = delete;

  // Maps the file; false with `problem` said when it cannot.
  bool open(std::string& problem);
  bool at_end() const { return offset_ >= size_; }
  uint64_t size() const { return size_; }
  uint64_t offset() const { return offset_; }
  const std::string& path() const { return path_; }

  // Reads the next packet; false with `problem` said when it is damaged
  // (the events of the packet heard of before the damage stand).
  bool next_packet(EventVisitor& visitor, PacketSummary& summary, std::string& problem);
  // Reads the next packet's header and context only (an index of the file:
  // its offset, stream class and instance, timestamp_begin and _end) and
  // moves past it; false with `problem` said as next_packet says it.
  bool next_packet_bounds(PacketSummary& summary, std::string& problem);

  // Moves to the packet at `offset` (from an index: a stream split over
  // several files is read in babeltrace2's packet order,
  // ingest/stream_instances.h).
  void seek(uint64_t offset) { offset_ = offset; }
  // The discarded-event count of the previous packet read, which the next
  // packet's count is taken from: a stream split over several files carries
  // it from one file's scanner to the next.
  std::optional<uint64_t> discarded_so_far() const { return discarded_before_; }
  void carry_discarded(std::optional<uint64_t> count) { discarded_before_ = count; }

 private:
  bool read_packet(EventVisitor* visitor, PacketSummary& summary, std::string& problem);
  // A packet's events, from the cursor to its limit, each header read by
  // `read_header` (LTTng's headers: a loop compiled for each layout) or,
  // where that declines, by the stream's event header plan.
  // `kHeaderAdvances`: every header read takes bits (LTTng's do), so no
  // event can leave the position where it began.
  struct EventWalk;
  struct EventTally;
  template <bool kHeaderAdvances, typename ReadHeader>
  bool walk_events(EventWalk& walk, ReadHeader read_header);
  // Ends a packet's walk at a damaged event, what was read before it stands.
  bool fail_in_events(const EventWalk& walk, uint64_t at, uint64_t clock, EventTally tally, uint64_t event_at,
                      const std::string& what) const;
  bool fail(std::string& problem, uint64_t bit_offset, const std::string& what) const;

  const ScanPlan& plan_;
  std::string path_;
  const uint8_t* data_ = nullptr;
  uint64_t size_ = 0;    // bytes
  uint64_t offset_ = 0;  // of the next packet
  ReadState header_state_;
  std::vector<CapturedField> header_captures_, context_captures_, event_captures_;
  std::vector<ReadState> stream_states_;  // per stream class, by its place in plan_.streams()
  std::optional<uint64_t> discarded_before_;  // the previous packet's count
};

}  // namespace tracesync::ctf
