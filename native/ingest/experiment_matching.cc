// SPDX-License-Identifier: EPL-2.0
#include "ingest/experiment_matching.h"

#include <algorithm>
#include <thread>

namespace tracesync::ingest {

namespace {
constexpr model::Nanoseconds kMinimumLead = 1'000'000'000;

// Hands every trace and event to the matching sink, then to another.
class BothSinks final : public EventSink {
 public:
  BothSinks(EventSink& first, EventSink& second) : first_(first), second_(second) {}
  void trace_opened(match::TraceIndex trace, const TraceInfo& info) override {
    first_.trace_opened(trace, info);
    second_.trace_opened(trace, info);
  }
  void trace_events(match::TraceIndex trace, std::span<const match::PacketEvent> events,
                    model::Nanoseconds progress) override {
    first_.trace_events(trace, events, progress);
    second_.trace_events(trace, events, progress);
  }
  void trace_closed(match::TraceIndex trace) override {
    first_.trace_closed(trace);
    second_.trace_closed(trace);
  }

 private:
  EventSink& first_;
  EventSink& second_;
};
}  // namespace

MatchingSink::MatchingSink(match::ConcurrentMatcher& matcher, TraceOpened on_trace_opened, SignalOccurrences* signals)
    : matcher_(matcher), on_trace_opened_(std::move(on_trace_opened)), signals_(signals) {}

void MatchingSink::trace_opened(match::TraceIndex trace, const TraceInfo& info) {
  // The trace has no event in the matcher yet, so none of its messages can be
  // emitted before this returns.
  if (on_trace_opened_) {
    const std::lock_guard lock(opened_mutex_);
    on_trace_opened_(trace, info);
  }
  matcher_.set_domain(trace, info.domain_id);
}

void MatchingSink::trace_events(match::TraceIndex trace, std::span<const match::PacketEvent> events,
                                model::Nanoseconds progress) {
  if (signals_ == nullptr || !signals_->any()) return matcher_.add(trace, events, progress);
  const auto messages = messages_.borrow();
  messages->clear();
  signals_->split(trace, events, *messages);
  matcher_.add(trace, *messages, progress);
}

void MatchingSink::trace_closed(match::TraceIndex trace) { matcher_.close(trace); }

ExperimentResult match_experiment(const std::vector<TraceSource>& traces, const ExperimentOptions& options,
                                  const ExperimentCallbacks& callbacks, const ProgressCallback& progress,
                                  const std::atomic<bool>* cancel) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t workers = std::min<std::size_t>(options.read.jobs == 0 ? cores : options.read.jobs, traces.size());
  match::ConcurrentMatcher matcher(options.match, traces.size(), workers, callbacks.on_match);
  SignalOccurrences signals(options.first_signal_kind);
  MatchingSink sink(matcher, callbacks.on_trace_opened, &signals);
  ReadOptions read = options.read;
  // Ports too when tracesync probe's rounds are told apart by them.
  read.reader.endpoints = options.match.key == match::KeyKind::kStrict || !options.match.probe_ports.empty();
  // With a horizon, a trace far ahead of the others waits for them rather
  // than fill the matcher (a second at least, so that traces are still read
  // in parallel when the horizon is tiny).
  if (options.match.horizon != match::MatchOptions::kUnbounded) {
    read.max_lead = std::min(read.max_lead, std::max(options.match.horizon, kMinimumLead));
    read.reader.step_span = std::min(read.reader.step_span, read.max_lead);
  }
  ExperimentResult result;
  if (callbacks.beside != nullptr) {
    BothSinks both(sink, *callbacks.beside);
    result.read = read_experiment(traces, read, both, progress, cancel);
  } else {
    result.read = read_experiment(traces, read, sink, progress, cancel);
  }
  matcher.finish();
  result.total = matcher.total();
  for (match::TraceIndex t = 0; t < traces.size(); ++t) result.per_trace.push_back(matcher.trace_statistics(t));
  result.per_link = matcher.link_statistics();
  result.per_kind = matcher.kind_statistics();
  result.per_kind.resize(std::max(result.per_kind.size(), read.reader.selection.kinds().size() + 1));
  result.per_link_kind = matcher.link_kind_statistics();
  result.signals = signals.take();
  return result;
}

}  // namespace tracesync::ingest
