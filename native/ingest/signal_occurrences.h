// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <map>
#include <mutex>
#include <span>
#include <utility>
#include <vector>

#include "match/packet_event.h"

namespace tracesync::ingest {

// One occurrence of a simultaneous signal in one trace: when the trace
// recorded it, and its key (the filter field, typed: SignalSpec::passes).
struct SignalOccurrence {
  model::Nanoseconds time = 0;
  match::AppKey key;
};

// The occurrences of the simultaneous signals (kinds first_kind.. of the
// reading path, ingest/signal_spec.h), set apart from the messages as the
// readers deliver them: they are paired after reading, by order, not
// matched by key. Thread-safe: readers deliver from worker threads.
class SignalOccurrences {
 public:
  // first_kind 0: no signal.
  explicit SignalOccurrences(match::MessageKind first_kind = 0) : first_kind_(first_kind) {}
  bool any() const { return first_kind_ != 0; }
  bool is_signal(match::MessageKind kind) const { return first_kind_ != 0 && kind >= first_kind_; }
  // Keeps the signal events of `events` (those decoded in full), appends
  // the others to `rest`.
  void split(match::TraceIndex trace, std::span<const match::PacketEvent> events,
             std::vector<match::PacketEvent>& rest);
  // By (trace, signal: 0 for kind first_kind), in the order delivered.
  using ByTrace = std::map<std::pair<match::TraceIndex, std::size_t>, std::vector<SignalOccurrence>>;
  ByTrace take();

 private:
  match::MessageKind first_kind_;
  std::mutex mutex_;
  ByTrace occurrences_;
};

}  // namespace tracesync::ingest
