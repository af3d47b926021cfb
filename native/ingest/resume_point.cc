// SPDX-License-Identifier: EPL-2.0
#include "ingest/resume_point.h"

#include <algorithm>

namespace tracesync::ingest {

namespace {

// Every event `inner` covers, `outer` covers.
bool covers(const DeliveryCut& outer, const DeliveryCut& inner) {
  if (outer.through < inner.through || outer.read.size() < inner.read.size()) return false;
  for (std::size_t s = 0; s < inner.read.size(); ++s) {
    if (outer.read[s] < inner.read[s]) return false;
  }
  return true;
}

}  // namespace

bool ResumePoint::delivered(std::size_t stream, uint64_t position, model::Nanoseconds time) const {
  return std::any_of(cuts_.begin(), cuts_.end(), [&](const DeliveryCut& cut) {
    return time <= cut.through && stream < cut.read.size() && position < cut.read[stream];
  });
}

void ResumePoint::add(DeliveryCut cut) {
  if (std::any_of(cuts_.begin(), cuts_.end(), [&](const DeliveryCut& kept) { return covers(kept, cut); })) return;
  std::erase_if(cuts_, [&](const DeliveryCut& kept) { return covers(cut, kept); });
  cuts_.push_back(std::move(cut));
}

}  // namespace tracesync::ingest
