// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

#include "base/scratch_pool.h"
#include "ingest/event_sink.h"
#include "ingest/experiment_reader.h"
#include "ingest/signal_occurrences.h"
#include "match/concurrent_matcher.h"
#include "match/packet_matcher.h"

namespace tracesync::ingest {

// Feeds a ConcurrentMatcher from the readers' worker threads. Its callback
// runs on worker threads, one call at a time. `on_trace_opened` (optional)
// runs under the same lock as the callback, before any message of that
// trace is emitted.
class MatchingSink final : public EventSink {
 public:
  using TraceOpened = std::function<void(match::TraceIndex, const TraceInfo&)>;

  // `signals`, when set, takes the simultaneous signals' events (they are
  // paired after reading, not matched).
  MatchingSink(match::ConcurrentMatcher& matcher, TraceOpened on_trace_opened = {},
               SignalOccurrences* signals = nullptr);

  void trace_opened(match::TraceIndex trace, const TraceInfo& info) override;
  void trace_events(match::TraceIndex trace, std::span<const match::PacketEvent> events,
                    model::Nanoseconds progress) override;
  void trace_closed(match::TraceIndex trace) override;

 private:
  match::ConcurrentMatcher& matcher_;
  TraceOpened on_trace_opened_;
  std::mutex opened_mutex_;
  SignalOccurrences* signals_;
  base::ScratchPool<std::vector<match::PacketEvent>> messages_;  // the events that are not signals
};

struct ExperimentOptions {
  ReadOptions read;
  match::MatchOptions match;
  // The reading kind of the first simultaneous signal (ingest::reading_kinds);
  // 0: none.
  match::MessageKind first_signal_kind = 0;
};

// What the session hears while an experiment is read. Both callbacks run on
// worker threads (and on the calling thread at the end), each never twice at
// once; a trace's on_trace_opened returns before any message that involves it
// is emitted. They should not throw: if one does, the trace being read when
// it did fails with that message.
struct ExperimentCallbacks {
  MatchingSink::TraceOpened on_trace_opened;
  match::PacketMatcher::MatchCallback on_match;
  // Optional: a sink that gets every event and trace too, after the matcher
  // (verify keeps the events its certificate cites).
  EventSink* beside = nullptr;
};

struct ExperimentResult {
  ExperimentReport read;
  match::MatchStatistics total;
  std::vector<match::MatchStatistics> per_trace;  // in the order of the traces given
  std::map<match::PacketMatcher::LinkKey, match::MatchStatistics> per_link;
  std::vector<match::MatchStatistics> per_kind;  // kind 0 (TCP), then the application kinds
  std::map<std::pair<match::PacketMatcher::LinkKey, match::MessageKind>, match::MatchStatistics> per_link_kind;
  SignalOccurrences::ByTrace signals;  // with ExperimentOptions::first_signal_kind
};

// Reads the traces and matches their packets: read_experiment into a
// ConcurrentMatcher with a shard per worker, finished once reading ends
// (even when cancelled). Addresses and ports are decoded only for the strict
// key.
ExperimentResult match_experiment(const std::vector<TraceSource>& traces, const ExperimentOptions& options,
                                  const ExperimentCallbacks& callbacks, const ProgressCallback& progress = {},
                                  const std::atomic<bool>* cancel = nullptr);

}  // namespace tracesync::ingest
