// SPDX-License-Identifier: EPL-2.0
#include "ingest/extract_writer.h"

#include <cerrno>

#include "ingest/extract_codec.h"

namespace tracesync::ingest {

namespace pb = extract::v1;

ExtractWriter::ExtractWriter(std::FILE* out, std::string writer_name) : frames_(out) {
  errno = 0;
  failed_ = !frames_.begin(writer_name);
  if (failed_) error_ = errno;
}

uint32_t ExtractWriter::frame_of(match::TraceIndex trace) {
  const auto [at, added] = frame_.try_emplace(trace, static_cast<uint32_t>(frame_.size() + 1));
  return at->second;
}

void ExtractWriter::write(uint32_t frame, const std::string& payload) {
  if (failed_) return;
  errno = 0;
  if (frames_.write(frame, payload)) return;
  failed_ = true;
  error_ = errno;
}

void ExtractWriter::trace_opened(match::TraceIndex trace, const TraceInfo& info) {
  pb::Record record;
  to_proto(info, *record.mutable_opened()->mutable_info());
  const std::string payload = record.SerializeAsString();
  const std::lock_guard lock(mutex_);
  write(frame_of(trace), payload);
}

void ExtractWriter::trace_events(match::TraceIndex trace, std::span<const match::PacketEvent> events,
                                 model::Nanoseconds progress) {
  pb::Record record;
  to_proto(events, progress, *record.mutable_events());
  const std::string payload = record.SerializeAsString();
  const std::lock_guard lock(mutex_);
  write(frame_of(trace), payload);
}

bool ExtractWriter::finish(const std::vector<TraceSource>& sources, const ExperimentReport& report) {
  const std::lock_guard lock(mutex_);
  for (std::size_t i = 0; i < report.traces.size(); ++i) {
    const TraceReport& trace = report.traces[i];
    const auto index = static_cast<match::TraceIndex>(i);
    const bool opened = frame_.contains(index);
    if (trace.status == TraceStatus::kCancelled && !opened) continue;
    pb::Record record;
    pb::TraceEnd& end = *record.mutable_end();
    TraceInfo info = trace.info;
    // A trace that failed before opening has only its source to name it.
    if (info.path.empty() && i < sources.size()) info.path = sources[i].path;
    if (info.name.empty() && i < sources.size()) info.name = sources[i].name;
    to_proto(info, *end.mutable_info());
    switch (trace.status) {
      case TraceStatus::kComplete:
        end.set_status(pb::STATUS_COMPLETE);
        break;
      case TraceStatus::kPartial:
      case TraceStatus::kSkipped:
        end.set_status(pb::STATUS_FAILED);
        break;
      case TraceStatus::kCancelled:
        end.set_status(pb::STATUS_CANCELLED);
        break;
    }
    end.set_problem(trace.problem);
    end.set_out_of_memory(trace.out_of_memory);
    for (const Problem& p : trace.left_out) {
      pb::Problem& left_out = *end.add_left_out();
      left_out.set_source(p.source);
      left_out.set_message(p.message);
    }
    write(frame_of(index), record.SerializeAsString());
  }
  return !failed_;
}

}  // namespace tracesync::ingest
