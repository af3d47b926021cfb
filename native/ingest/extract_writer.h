// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "ingest/event_sink.h"
#include "ingest/experiment_reader.h"
#include "ingest/extract_frames.h"

namespace tracesync::ingest {

// Writes an extract (extract.proto): an EventSink that writes down what it
// receives, so that any reader can make one (`tracesync extract`).
//
// Frames are written as the calls come, under a lock (calls about
// different traces come from different threads); finish() then writes each
// trace's end from the experiment's report, which knows what the sink does
// not: the trace's final counts, status and problems.
class ExtractWriter final : public EventSink {
 public:
  // `out` is not owned; `writer_name` goes into the header ("tracesync 0.1.0").
  ExtractWriter(std::FILE* out, std::string writer_name);

  void trace_opened(match::TraceIndex trace, const TraceInfo& info) override;
  void trace_events(match::TraceIndex trace, std::span<const match::PacketEvent> events,
                    model::Nanoseconds progress) override;
  void trace_closed(match::TraceIndex) override {}

  // Writes every trace's end (a trace cancelled before it opened is left
  // out: nothing is known of it). `sources` are the traces read,
  // in the report's order. False when writing failed at any point.
  bool finish(const std::vector<TraceSource>& sources, const ExperimentReport& report);
  // Once writing failed: the errno of the write that failed first (0 when
  // the system gave none), for words that say why.
  int error() const { return error_; }

 private:
  uint32_t frame_of(match::TraceIndex trace);  // under mutex_
  void write(uint32_t frame, const std::string& payload);

  FrameWriter frames_;
  std::mutex mutex_;
  std::map<match::TraceIndex, uint32_t> frame_;  // the trace's number in the file, plus one
  bool failed_ = false;
  int error_ = 0;
};

}  // namespace tracesync::ingest
