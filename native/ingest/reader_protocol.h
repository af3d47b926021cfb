// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ingest/ctf_trace_reader.h"
#include "ingest/trace_info.h"
#include "ingest/trace_reader.h"
#include "ingest/trace_source.h"
#include "match/packet_event.h"

// What a ProcessTraceReader and its reading process say to each other over a
// FrameChannel. The parent opens with kOpen, then asks for steps (kStep); for
// each step the child answers with what its CtfTraceReader gave its sink
// (kOpened, kEvents, kClosed, in that order) and ends with kStepDone.
namespace tracesync::ingest::reader_protocol {

enum FrameType : uint32_t {
  kOpen = 1,      // parent -> child: OpenRequest
  kStep = 2,      // parent -> child: the number of rounds (uint64)
  kOpened = 3,    // child -> parent: TraceInfo, as EventSink::trace_opened
  kEvents = 4,    // child -> parent: the promise (int64), then raw PacketEvents
  kClosed = 5,    // child -> parent: EventSink::trace_closed
  kStepDone = 6,  // child -> parent: StepReport
};

// Changed whenever a frame's layout changes. Both ends are normally the same
// build; a mismatch (a stale helper program) fails the trace with a clear
// problem instead of misreading bytes.
constexpr uint32_t kVersion = 3;

struct OpenRequest {
  uint32_t version = kVersion;
  uint32_t event_size = sizeof(match::PacketEvent);
  int64_t parent_pid = 0;
  match::TraceIndex index = 0;
  TraceSource source;
  ReaderOptions options;
};

struct StepReport {
  TraceReader::State state = TraceReader::State::kNew;
  model::Nanoseconds progress = INT64_MIN;
  uint64_t bytes_read = 0;
  TraceInfo info;
  std::string problem;
};

std::vector<std::byte> encode(const OpenRequest& request);
std::vector<std::byte> encode(const TraceInfo& info);
std::vector<std::byte> encode(const StepReport& report);
std::vector<std::byte> encode_rounds(uint64_t rounds);
std::vector<std::byte> encode_promise(model::Nanoseconds progress);

// Each returns nullopt when the payload is not a well-formed frame of its kind.
std::optional<OpenRequest> decode_open(std::span<const std::byte> payload);
std::optional<TraceInfo> decode_trace_info(std::span<const std::byte> payload);
std::optional<StepReport> decode_step_report(std::span<const std::byte> payload);
std::optional<uint64_t> decode_rounds(std::span<const std::byte> payload);
// Replaces `events` with the frame's events.
std::optional<model::Nanoseconds> decode_events(std::span<const std::byte> payload,
                                                std::vector<match::PacketEvent>& events);

}  // namespace tracesync::ingest::reader_protocol
