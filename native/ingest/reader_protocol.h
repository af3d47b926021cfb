// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ingest/ctf_trace_reader.h"
#include "ingest/folder_position.h"
#include "ingest/live_cut.h"
#include "ingest/resume_point.h"
#include "ingest/stream_gap.h"
#include "ingest/trace_info.h"
#include "ingest/trace_reader.h"
#include "ingest/trace_source.h"
#include "match/packet_event.h"

// What the ProcessTraceReaders of a ReadingLane and its reading process say
// to each other over a FrameChannel. A reading process holds several traces:
// the parent opens each with kOpen (first frame: kOpen), then asks for steps
// of one trace at a time (kStep); for each step the child answers with what
// that trace's CtfTraceReader gave its sink (kOpened, kEvents, kClosed, in
// that order) and ends with kStepDone. kClose drops a trace the parent
// parks (TraceReader::park); it is not answered. Every frame but kOpen (whose request
// names it) begins with the index of the trace it is about (addressed()).
namespace tracesync::ingest::reader_protocol {

enum FrameType : uint32_t {
  kOpen = 1,      // parent -> child: OpenRequest
  kStep = 2,      // parent -> child: the number of rounds (uint64)
  // The frames below, and kStep, are addressed: the trace index first.
  kOpened = 3,    // child -> parent: TraceInfo, as EventSink::trace_opened
  kEvents = 4,    // child -> parent: EventsHeader, then raw PacketEvents
  kClosed = 5,    // child -> parent: EventSink::trace_closed
  kStepDone = 6,  // child -> parent: StepReport
  kClose = 7,     // parent -> child: nothing (the trace is parked: its reader goes, unanswered)
};

// Changed whenever a frame's layout changes. Both ends are normally the same
// build; a mismatch (a stale helper program) fails the trace with a clear
// problem instead of misreading bytes.
constexpr uint32_t kVersion = 14;  // 5: message kinds and application keys (issue 29); 6: damaged time (issue 34); 7: the reader choice (issue 30); 8: the metadata format (issue 38); 9: scan threads (issue 30); 10: stream files (issue 36); 11: followed sources (issue 29); 12: a followed folder resumed (issue 29); 13: a live session attached again (issue 29); 14: its exact cut, its streams not served again (issue 29)
// A reading process scans one trace on at most this many threads.
constexpr uint32_t kMaxScanThreads = 256;

// A source followed while it is recorded (`tracesync live`), read in a
// process of its own: the process runs a FollowedTraceReader over it, whose
// steps end early when nothing new is there (StepReport::waiting).
struct FollowedSource {
  enum class Kind : uint8_t { kNone, kLiveSession, kFolder };
  Kind kind = Kind::kNone;  // kNone: a recorded trace (OpenRequest::source)
  // The session's URL (net://...) or the folder: OpenRequest::source.path.
  int64_t quiet_end_ms = 0;  // a folder: GrowingTraceReader's quiet_end
  // A folder: the directory the process stages its packets in, made and
  // removed by the parent, so that nothing is left behind when the process
  // dies (empty: $TMPDIR's).
  std::string staging_parent;
};

struct OpenRequest {
  uint32_t version = kVersion;
  uint32_t event_size = sizeof(match::PacketEvent);
  int64_t parent_pid = 0;
  match::TraceIndex index = 0;
  TraceSource source;
  ReaderOptions options;
  ResumePoint resume;  // what earlier readers of the trace gave (CtfTraceReader::resume_after)
  FollowedSource follow;
  FolderPosition folder;  // a followed folder: where earlier readers stood (GrowingTraceReader::resume_at)
  // A live session attached again: what the attachments before gave
  // (LiveTraceReader::resume_after); `through` INT64_MIN: a first attachment.
  LiveCut live_cut;
};

struct StepReport {
  TraceReader::State state = TraceReader::State::kNew;
  model::Nanoseconds progress = INT64_MIN;
  uint64_t bytes_read = 0;
  TraceInfo info;
  std::string problem;
  ResumePoint delivered;  // CtfTraceReader::resume_point()
  // A followed source: the step found nothing new (FollowedTraceReader::waiting),
  // and once kDone, how its end was known (end_words).
  bool waiting = false;
  std::string end_words;
  FolderPosition folder;  // a followed folder: GrowingTraceReader::position()
  std::vector<StreamGap> gaps;  // a live session attached again: LiveTraceReader::gaps(), all so far
  std::vector<uint64_t> unserved;  // and LiveTraceReader::unserved()
};

// What comes before the events of a kEvents frame: the trace's promise
// (EventSink::trace_events), how far it was read, and what it has delivered
// with these events
// (CtfTraceReader::resume_point()), so that the trace can be resumed exactly
// even when its process dies in the middle of a step.
struct EventsHeader {
  model::Nanoseconds promise = INT64_MIN;
  uint64_t events_read = 0;  // all events of the trace read so far (TraceInfo::events)
  ResumePoint delivered;
  FolderPosition folder;  // a followed folder: GrowingTraceReader::position()
  LiveCut live_cut;       // a live session: LiveTraceReader::live_cut(), these events given
};

// `payload` about trace `trace`: its index, then the payload.
std::vector<std::byte> addressed(match::TraceIndex trace, std::span<const std::byte> payload);
// The trace an addressed payload is about, and the payload after its index
// (in `payload`); nullopt when it is too short to hold one.
std::optional<match::TraceIndex> take_address(std::span<const std::byte>& payload);

std::vector<std::byte> encode(const OpenRequest& request);
std::vector<std::byte> encode(const TraceInfo& info);
std::vector<std::byte> encode(const StepReport& report);
std::vector<std::byte> encode_rounds(uint64_t rounds);
std::vector<std::byte> encode(const EventsHeader& header);

// Each returns nullopt when the payload is not a well-formed frame of its kind.
std::optional<OpenRequest> decode_open(std::span<const std::byte> payload);
std::optional<TraceInfo> decode_trace_info(std::span<const std::byte> payload);
std::optional<StepReport> decode_step_report(std::span<const std::byte> payload);
std::optional<uint64_t> decode_rounds(std::span<const std::byte> payload);
// Replaces `events` with the frame's events.
std::optional<EventsHeader> decode_events(std::span<const std::byte> payload, std::vector<match::PacketEvent>& events);

}  // namespace tracesync::ingest::reader_protocol
