// SPDX-License-Identifier: EPL-2.0
#pragma once

// An EventSink that keeps every network event it is given, to compare two
// readings of a trace whatever their batching: sorted() orders them by time,
// then by their other fields. read_sorted() reads one trace into it.

#include <algorithm>
#include <mutex>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ingest/event_sink.h"
#include "ingest/experiment_reader.h"

namespace tracesync::ingest::testing {

class SortedEventSink final : public EventSink {
 public:
  void trace_opened(match::TraceIndex, const TraceInfo&) override {}
  void trace_events(match::TraceIndex, std::span<const match::PacketEvent> events, model::Nanoseconds) override {
    const std::lock_guard lock(mutex_);
    events_.insert(events_.end(), events.begin(), events.end());
  }
  void trace_closed(match::TraceIndex) override {}

  std::vector<match::PacketEvent> sorted() {
    std::sort(events_.begin(), events_.end(), earlier);
    return events_;
  }
  static bool earlier(const match::PacketEvent& a, const match::PacketEvent& b) {
    return std::tie(a.time, a.direction, a.tcp.seq, a.tcp.ack_seq, a.tcp.flags) <
           std::tie(b.time, b.direction, b.tcp.seq, b.tcp.ack_seq, b.tcp.flags);
  }

 private:
  std::mutex mutex_;
  std::vector<match::PacketEvent> events_;
};

// One trace read alone (one job), in this process or in a reading process
// (TRACESYNC_TEST_READ_TRACE): its report and its network events, sorted.
struct SortedReading {
  TraceReport report;
  std::vector<match::PacketEvent> events;
};

inline SortedReading read_sorted(const std::string& trace, bool in_process,
                                 ReaderChoice reader = ReaderOptions{}.reader) {
  SortedEventSink sink;
  ReadOptions options;
  options.jobs = 1;
  options.reader.reader = reader;
  if (!in_process) options.reading_command = {TRACESYNC_TEST_READ_TRACE};
  ExperimentReport report = read_experiment({{trace, "trace", {}}}, options, sink);
  return {std::move(report.traces.at(0)), sink.sorted()};
}

}  // namespace tracesync::ingest::testing
