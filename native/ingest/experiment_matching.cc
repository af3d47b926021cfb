#include "ingest/experiment_matching.h"

namespace tracesync::ingest {

MatchingSink::MatchingSink(match::PacketMatcher& matcher, TraceOpened on_trace_opened)
    : matcher_(matcher), on_trace_opened_(std::move(on_trace_opened)) {}

void MatchingSink::trace_opened(match::TraceIndex trace, const TraceInfo& info) {
  const std::lock_guard lock(mutex_);
  matcher_.set_domain(trace, info.domain_id);
  if (on_trace_opened_) on_trace_opened_(trace, info);
}

void MatchingSink::trace_events(match::TraceIndex trace, std::span<const match::PacketEvent> events,
                                model::Nanoseconds progress) {
  const std::lock_guard lock(mutex_);
  for (const match::PacketEvent& event : events) matcher_.add(event);
  matcher_.advance(trace, progress);
}

void MatchingSink::trace_closed(match::TraceIndex trace) {
  const std::lock_guard lock(mutex_);
  matcher_.close(trace);
}

ExperimentResult match_experiment(const std::vector<TraceSource>& traces, const ExperimentOptions& options,
                                  const ExperimentCallbacks& callbacks, const ProgressCallback& progress,
                                  const std::atomic<bool>* cancel) {
  match::PacketMatcher matcher(options.match, traces.size(), callbacks.on_match);
  MatchingSink sink(matcher, callbacks.on_trace_opened);
  ExperimentResult result;
  result.read = read_experiment(traces, options.read, sink, progress, cancel);
  matcher.finish();
  result.total = matcher.total();
  for (match::TraceIndex t = 0; t < traces.size(); ++t) result.per_trace.push_back(matcher.trace_statistics(t));
  result.per_link = matcher.link_statistics();
  return result;
}

}  // namespace tracesync::ingest
