// SPDX-License-Identifier: EPL-2.0
#include "ingest/extract_index.h"

#include <cstdint>
#include <map>

#include "ingest/extract.pb.h"
#include "ingest/extract_frames.h"

namespace tracesync::ingest {

void index_extract(const std::string& file, std::vector<TraceSource>& traces, std::vector<Problem>& problems) {
  FrameReader frames;
  if (const std::string problem = frames.open(file); !problem.empty()) {
    problems.push_back({file, problem});
    return;
  }
  std::map<uint32_t, std::size_t> found;  // a frame number -> its place in `traces`
  constexpr std::size_t kUnnamed = SIZE_MAX;  // a trace whose first record was damaged: said once
  std::string payload;
  for (;;) {
    const auto next = frames.next();
    if (next == FrameReader::Next::kEnd) break;
    // Damage after a trace's first record is said by that trace's reader;
    // here only when it hides every trace.
    const auto damaged = [&] {
      if (traces.empty()) problems.push_back({file, "is damaged before its first trace: " + frames.error()});
    };
    if (next == FrameReader::Next::kDamaged) {
      damaged();
      break;
    }
    const uint32_t frame = frames.trace_frame();
    const uint64_t bytes = frames.length();
    if (frame == 0) {
      problems.push_back({file, "is damaged: a second header at byte " + std::to_string(frames.offset())});
      break;
    }
    if (const auto known = found.find(frame); known != found.end()) {
      if (known->second != kUnnamed) traces[known->second].extract->bytes += bytes;
      if (!frames.skip()) {
        damaged();
        break;
      }
      continue;
    }
    // A trace's first record names it: its opening, or its end when it
    // failed before opening.
    if (!frames.payload(payload)) {
      damaged();
      break;
    }
    extract::v1::Record record;
    const extract::v1::TraceInfo* info = nullptr;
    if (record.ParseFromString(payload)) {
      if (record.has_opened()) info = &record.opened().info();
      if (record.has_end()) info = &record.end().info();
    }
    if (info == nullptr) {
      problems.push_back({file, "is damaged: the first record of its trace " + std::to_string(frame - 1) +
                                    " (ending at byte " + std::to_string(frames.offset()) +
                                    ") does not parse or does not name the trace"});
      found.emplace(frame, kUnnamed);
      continue;
    }
    TraceSource source;
    source.path = info->path().empty() ? file : info->path();
    source.name = info->name().empty() ? source.path : info->name();
    source.extract = ExtractEntry{file, frame - 1, bytes};
    found.emplace(frame, traces.size());
    traces.push_back(std::move(source));
  }
}

}  // namespace tracesync::ingest
