// SPDX-License-Identifier: EPL-2.0
#pragma once

// An EventSink that keeps everything it is given, and checks the order of
// the calls about each trace.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

#include "ingest/event_sink.h"

namespace tracesync::ingest::testing {

class RecordingSink final : public EventSink {
 public:
  void trace_opened(match::TraceIndex trace, const TraceInfo& info) override {
    const std::lock_guard lock(mutex_);
    EXPECT_EQ(opened.count(trace), 0u) << "trace " << trace << " opened twice";
    EXPECT_EQ(closed.count(trace), 0u) << "trace " << trace << " opened after closing";
    opened[trace] = info;
  }
  void trace_events(match::TraceIndex trace, std::span<const match::PacketEvent> batch,
                    model::Nanoseconds progress) override {
    const std::lock_guard lock(mutex_);
    EXPECT_EQ(opened.count(trace), 1u) << "events of trace " << trace << " before it opened";
    EXPECT_EQ(closed.count(trace), 0u) << "events of trace " << trace << " after it closed";
    model::Nanoseconds& promised = progress_of.try_emplace(trace, INT64_MIN).first->second;
    for (const match::PacketEvent& e : batch) {
      EXPECT_EQ(e.trace, trace);
      if (e.time < promised) ++broken_promises;
      events.push_back(e);
    }
    EXPECT_GE(progress, promised) << "trace " << trace << " took back its progress";
    promised = progress;
  }
  void trace_closed(match::TraceIndex trace) override {
    const std::lock_guard lock(mutex_);
    EXPECT_EQ(closed.count(trace), 0u) << "trace " << trace << " closed twice";
    closed[trace] = true;
  }

  std::vector<match::PacketEvent> events_of(match::TraceIndex trace) const {
    std::vector<match::PacketEvent> out;
    for (const auto& e : events) {
      if (e.trace == trace) out.push_back(e);
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.time < b.time; });
    return out;
  }

  std::map<match::TraceIndex, TraceInfo> opened;
  std::map<match::TraceIndex, bool> closed;
  std::map<match::TraceIndex, model::Nanoseconds> progress_of;
  std::vector<match::PacketEvent> events;
  int broken_promises = 0;

 private:
  std::mutex mutex_;
};

}  // namespace tracesync::ingest::testing
