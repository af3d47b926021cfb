// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "ingest/event_sink.h"
#include "ingest/extract_frames.h"
#include "ingest/trace_reader.h"
#include "ingest/trace_source.h"

namespace tracesync::ingest {

// Replays one trace of an extract (TraceSource::extract) into the sink:
// its TraceInfo, its batches of events with their promises, its end. What
// the trace's reader gave the sink when the extract was made, the sink gets
// again, so a report from extracts is the report from the traces.
//
// The trace's recorded end stands: a trace that was damaged when it was
// extracted fails here with the same problem. A damaged extract (a frame cut
// short, a record that does not parse, no end) fails the trace with a
// problem naming the extract file; what it delivered before stands. A
// `--domain` override (TraceSource::domain_override) replaces the recorded
// clock domain.
class ExtractTraceReader final : public TraceReader {
 public:
  ExtractTraceReader(TraceSource source, match::TraceIndex index, EventSink& sink);

  State step(std::size_t rounds) override;  // a round: one recorded batch

  State state() const override { return state_; }
  const TraceInfo& info() const override { return info_; }
  const std::string& problem() const override { return problem_; }
  bool out_of_memory() const override { return out_of_memory_; }
  model::Nanoseconds progress() const override { return progress_; }
  uint64_t bytes_read() const override { return bytes_read_.load(std::memory_order_relaxed); }
  std::vector<Problem> left_out() const override { return left_out_; }

 private:
  bool handle(const std::string& payload);  // false when the trace ended or failed
  void apply_override(TraceInfo& info) const;
  void fail(const std::string& what);
  void close(State state);

  TraceSource source_;
  match::TraceIndex index_;
  EventSink& sink_;
  FrameReader frames_;
  State state_ = State::kNew;
  TraceInfo info_;
  std::string problem_;
  bool out_of_memory_ = false;
  bool opened_ = false;
  std::vector<Problem> left_out_;
  model::Nanoseconds progress_ = INT64_MIN;
  std::atomic<uint64_t> bytes_read_{0};
  // What was delivered, for a trace whose extract fails before its end.
  uint64_t delivered_ = 0;
  std::vector<match::PacketEvent> batch_;
};

}  // namespace tracesync::ingest
