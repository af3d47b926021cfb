// SPDX-License-Identifier: EPL-2.0
#include "ingest/extract_trace_reader.h"

#include <algorithm>

#include "ingest/extract.pb.h"
#include "ingest/extract_codec.h"

namespace tracesync::ingest {

namespace pb = extract::v1;

ExtractTraceReader::ExtractTraceReader(TraceSource source, match::TraceIndex index, EventSink& sink)
    : source_(std::move(source)), index_(index), sink_(sink) {
  info_.path = source_.path;
  info_.name = source_.name;
}

void ExtractTraceReader::apply_override(TraceInfo& info) const {
  if (!source_.domain_override) return;
  info.domain_id = *source_.domain_override;
  info.domain_source = DomainSource::kOverride;
}

void ExtractTraceReader::close(State state) {
  state_ = state;
  sink_.trace_closed(index_);
}

void ExtractTraceReader::fail(const std::string& what) {
  problem_ = "the extract " + source_.extract->file + " " + what;
  // What was delivered stands: the trace counts as read in part.
  info_.network_events = std::max(info_.network_events, delivered_);
  info_.events = std::max(info_.events, delivered_);
  close(State::kFailed);
}

ExtractTraceReader::State ExtractTraceReader::step(std::size_t rounds) {
  if (state_ == State::kDone || state_ == State::kFailed) return state_;
  if (state_ == State::kNew) {
    state_ = State::kReading;
    if (const std::string problem = frames_.open(source_.extract->file); !problem.empty()) {
      fail(problem);
      return state_;
    }
  }
  const uint32_t own = source_.extract->trace + 1;
  std::string payload;
  for (std::size_t round = 0; round < rounds;) {
    switch (frames_.next()) {
      case FrameReader::Next::kEnd:
        fail("ends before the end of trace " + source_.path + ": it is cut short");
        return state_;
      case FrameReader::Next::kDamaged:
        fail("is damaged: " + frames_.error());
        return state_;
      case FrameReader::Next::kFrame:
        break;
    }
    if (frames_.trace_frame() != own) {
      if (!frames_.skip()) {
        fail("is damaged: " + frames_.error());
        return state_;
      }
      continue;
    }
    const uint64_t frame_bytes = frames_.length();
    if (!frames_.payload(payload)) {
      fail("is damaged: " + frames_.error());
      return state_;
    }
    bytes_read_.fetch_add(frame_bytes, std::memory_order_relaxed);
    if (!handle(payload)) return state_;
    ++round;
  }
  return state_;
}

bool ExtractTraceReader::handle(const std::string& payload) {
  pb::Record record;
  if (!record.ParseFromString(payload)) {
    fail("is damaged: a record of trace " + source_.path + " ending at byte " + std::to_string(frames_.offset()) +
         " does not parse");
    return false;
  }
  switch (record.record_case()) {
    case pb::Record::kOpened: {
      if (opened_) break;  // a second opening: damage, said below
      TraceInfo info;
      if (const std::string problem = from_proto(record.opened().info(), info); !problem.empty()) {
        fail("is damaged: trace " + source_.path + "'s opening holds " + problem);
        return false;
      }
      apply_override(info);
      info_ = std::move(info);
      opened_ = true;
      sink_.trace_opened(index_, info_);
      return true;
    }
    case pb::Record::kEvents: {
      if (!opened_) break;
      batch_.clear();
      if (const std::string problem = from_proto(record.events(), index_, batch_); !problem.empty()) {
        fail("is damaged: in trace " + source_.path + ", " + problem);
        return false;
      }
      progress_ = std::max(progress_, record.events().progress());
      delivered_ += batch_.size();
      sink_.trace_events(index_, batch_, record.events().progress());
      return true;
    }
    case pb::Record::kEnd: {
      const pb::TraceEnd& end = record.end();
      TraceInfo info;
      if (const std::string problem = from_proto(end.info(), info); !problem.empty()) {
        fail("is damaged: trace " + source_.path + "'s end holds " + problem);
        return false;
      }
      apply_override(info);
      info_ = std::move(info);
      for (const pb::Problem& p : end.left_out()) left_out_.push_back({p.source(), p.message()});
      out_of_memory_ = end.out_of_memory();
      switch (end.status()) {
        case pb::STATUS_COMPLETE:
          progress_ = INT64_MAX;
          close(State::kDone);
          return false;
        case pb::STATUS_FAILED:
          problem_ = end.problem();
          close(State::kFailed);
          return false;
        case pb::STATUS_CANCELLED:
          problem_ = "its extraction (" + source_.extract->file + ") was cancelled before the end of the trace";
          close(State::kFailed);
          return false;
        default:
          fail("is damaged: trace " + source_.path + " ends with an unknown status (" +
               std::to_string(end.status()) + ")");
          return false;
      }
    }
    case pb::Record::RECORD_NOT_SET:
      break;
  }
  fail("is damaged: a record of trace " + source_.path + " ending at byte " + std::to_string(frames_.offset()) +
       " is out of place or of an unknown kind");
  return false;
}

}  // namespace tracesync::ingest
