// SPDX-License-Identifier: EPL-2.0
#pragma once

// An EventSink that keeps every network event it is given, to compare two
// readings of a trace whatever their batching: sorted() orders them by time,
// then by their other fields.

#include <algorithm>
#include <mutex>
#include <span>
#include <tuple>
#include <vector>

#include "ingest/event_sink.h"

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

}  // namespace tracesync::ingest::testing
