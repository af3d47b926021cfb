// SPDX-License-Identifier: EPL-2.0
#include "ctf/scan_plan.h"

namespace tracesync::ctf {

namespace {

// The clock a field class's integers map to, depth first.
const std::string* mapped_clock(const FieldClassPtr& fc) {
  if (!fc) return nullptr;
  if (fc->is_integer() && !fc->mapped_clock.empty()) return &fc->mapped_clock;
  if (fc->element) return mapped_clock(fc->element);
  for (const Member& m : fc->members) {
    if (const std::string* clock = mapped_clock(m.type)) return clock;
  }
  return nullptr;
}

// Marks `entry` as a skip of fixed runs and strings, its steps appended to
// the stream's, when the plan's skip is one (every number within 32 bits);
// otherwise leaves it not fixed.
void note_string_skip(const ReadPlan& plan, ScanPlan::StreamPlan& stream, ScanPlan::StreamPlan::FixedSkip& entry) {
  using StreamPlan = ScanPlan::StreamPlan;
  const std::vector<ReadPlan::SkipStep>& steps = plan.skip_steps();
  if (steps.empty() || stream.string_skips.size() >= StreamPlan::FixedSkip::kStrings) return;
  for (const ReadPlan::SkipStep& step : steps) {
    if (step.alignment - 1 >= StreamPlan::FixedSkip::kStrings || step.bits > UINT32_MAX) return;
  }
  entry = {StreamPlan::FixedSkip::kStrings, static_cast<uint32_t>(stream.string_skips.size())};
  for (const ReadPlan::SkipStep& step : steps) {
    stream.string_skips.push_back(
        {static_cast<uint32_t>(step.alignment - 1), static_cast<uint32_t>(step.bits), step.string, false});
  }
  stream.string_skips.back().last = true;
}

}  // namespace

std::optional<ScanPlan> ScanPlan::compile(TraceClass trace_class, const EventRequests& requests,
                                          std::string* unsupported) {
  ScanPlan plan;
  plan.trace_ = std::make_unique<TraceClass>(std::move(trace_class));
  const TraceClass& trace = *plan.trace_;

  static const StreamClass no_stream;
  auto header_compiler = PlanCompiler::for_stream(trace, no_stream, unsupported);
  if (!header_compiler) return std::nullopt;
  // CTF 2 says what a member is for by its role, CTF 1.8 by its name.
  const bool by_role = trace.major >= 2;
  const std::map<std::string, int> header_names =
      by_role ? std::map<std::string, int>{{"packet-magic-number", packet_header_slot::kMagic},
                                           {"metadata-stream-uuid", packet_header_slot::kUuid},
                                           {"data-stream-class-id", packet_header_slot::kStreamId},
                                           {"data-stream-id", packet_header_slot::kInstance}}
              : std::map<std::string, int>{{"magic", packet_header_slot::kMagic},
                                           {"uuid", packet_header_slot::kUuid},
                                           {"stream_id", packet_header_slot::kStreamId},
                                           {"stream_instance_id", packet_header_slot::kInstance}};
  auto header = header_compiler->compile(Scope::kPacketHeader, trace.packet_header, header_names, {}, unsupported);
  if (!header) return std::nullopt;
  plan.packet_header_ = std::move(*header);
  plan.header_registers_ = header_compiler->registers();

  const std::map<std::string, int> context_names =
      by_role ? std::map<std::string, int>{{"packet-total-length", packet_context_slot::kPacketSize},
                                           {"packet-content-length", packet_context_slot::kContentSize},
                                           {"default-clock-timestamp", packet_context_slot::kBeginTime},
                                           {"discarded-event-record-counter-snapshot", packet_context_slot::kDiscarded},
                                           {"packet-end-default-clock-timestamp", packet_context_slot::kEndTime}}
              : std::map<std::string, int>{{"packet_size", packet_context_slot::kPacketSize},
                                           {"content_size", packet_context_slot::kContentSize},
                                           {"timestamp_begin", packet_context_slot::kBeginTime},
                                           {"events_discarded", packet_context_slot::kDiscarded},
                                           {"timestamp_end", packet_context_slot::kEndTime}};
  const std::map<std::string, int> event_header_names =
      by_role ? std::map<std::string, int>{{"event-record-class-id", 0}} : std::map<std::string, int>{{"id", 0}};
  for (const auto& [id, stream_class] : trace.stream_classes) {
    auto stream = std::make_unique<StreamPlan>();
    stream->stream_class = &stream_class;
    const std::string* clock_name = mapped_clock(stream_class.event_header);
    if (clock_name == nullptr) clock_name = mapped_clock(stream_class.packet_context);
    if (clock_name == nullptr) {
      if (unsupported) *unsupported = "stream class " + std::to_string(id) + " has no clock";
      return std::nullopt;
    }
    stream->clock = trace.clock(*clock_name);
    if (stream->clock == nullptr) {
      if (unsupported) *unsupported = "clock `" + *clock_name + "` is mapped but not declared";
      return std::nullopt;
    }
    const auto time = ClockTime::of(*stream->clock);
    if (!time) {
      if (unsupported) *unsupported = "clock `" + *clock_name + "` has an offset this reader cannot take";
      return std::nullopt;
    }
    stream->time = *time;
    auto compiler = PlanCompiler::for_stream(trace, stream_class, unsupported);
    if (!compiler) return std::nullopt;
    auto context = compiler->compile(Scope::kPacketContext, stream_class.packet_context, context_names, {}, unsupported);
    auto event_header = context ? compiler->compile(Scope::kEventHeader, stream_class.event_header, event_header_names,
                                                    {}, unsupported)
                                : std::nullopt;
    if (!event_header) return std::nullopt;
    stream->packet_context = std::move(*context);
    stream->event_header = std::move(*event_header);
    if (stream_class.event_header) {
      const int id_register = compiler->register_of(Scope::kEventHeader, {"id"});
      const bool other_registers = compiler->registers_in(Scope::kEventHeader) > (id_register >= 0 ? 1u : 0u);
      stream->fast_header =
          EventHeaderReader::recognise(*stream_class.event_header, stream->clock->name, id_register, other_registers);
    }
    for (const auto& [event_id, event_class] : stream_class.event_classes) {
      auto event = std::make_unique<EventPlan>();
      event->event_class = &event_class;
      const auto wanted = requests ? requests(event_class) : std::nullopt;
      event->selected = wanted.has_value();
      auto compiled = compiler->compile_event(event_class, wanted ? *wanted : std::vector<FieldRequest>{}, unsupported);
      if (!compiled) return std::nullopt;
      event->plan = std::move(*compiled);
      if (event->selected || !event->plan.skips()) event->straight = StraightPlan::compile(event->plan);
      if (event_id < kDenseIds) {
        if (stream->by_id.size() <= event_id) stream->by_id.resize(event_id + 1);
        stream->by_id[event_id] = std::move(event);
      } else {
        stream->sparse[event_id] = std::move(event);
      }
    }
    stream->fixed_skips.resize(stream->by_id.size());
    for (std::size_t event_id = 0; event_id < stream->by_id.size(); ++event_id) {
      const EventPlan* event = stream->by_id[event_id].get();
      const auto skip = event && !event->selected ? event->plan.fixed_skip() : std::nullopt;
      // Alignments are powers of two; a mask or a size beyond 32 bits is
      // left to the plan (no trace has one).
      if (skip && skip->alignment - 1 < StreamPlan::FixedSkip::kStrings && skip->bits <= UINT32_MAX) {
        stream->fixed_skips[event_id] = {static_cast<uint32_t>(skip->alignment - 1), static_cast<uint32_t>(skip->bits)};
      } else if (event && !event->selected) {
        note_string_skip(event->plan, *stream, stream->fixed_skips[event_id]);
      }
    }
    stream->registers = compiler->registers();
    plan.streams_[id] = std::move(stream);
  }
  return plan;
}

std::vector<ScanPlan::EventPlan*> ScanPlan::selected() {
  std::vector<EventPlan*> out;
  for (auto& [id, stream] : streams_) {
    for (auto& event : stream->by_id) {
      if (event && event->selected) out.push_back(event.get());
    }
    for (auto& [event_id, event] : stream->sparse) {
      if (event->selected) out.push_back(event.get());
    }
  }
  return out;
}

}  // namespace tracesync::ctf
