// SPDX-License-Identifier: EPL-2.0
#include "ingest/signal_occurrences.h"

namespace tracesync::ingest {

void SignalOccurrences::split(match::TraceIndex trace, std::span<const match::PacketEvent> events,
                              std::vector<match::PacketEvent>& rest) {
  std::vector<std::pair<std::size_t, SignalOccurrence>> mine;
  for (const match::PacketEvent& e : events) {
    if (!is_signal(e.kind)) {
      rest.push_back(e);
    } else if (e.layout == match::Layout::kTcp) {  // decoded (the census counts the others)
      mine.emplace_back(static_cast<std::size_t>(e.kind - first_kind_), SignalOccurrence{e.time, e.app});
    }
  }
  if (mine.empty()) return;
  const std::lock_guard lock(mutex_);
  for (auto& [signal, occurrence] : mine) occurrences_[{trace, signal}].push_back(occurrence);
}

SignalOccurrences::ByTrace SignalOccurrences::take() {
  const std::lock_guard lock(mutex_);
  return std::exchange(occurrences_, {});
}

}  // namespace tracesync::ingest
