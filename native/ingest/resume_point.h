// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "match/packet_event.h"
#include "model/point.h"

namespace tracesync::ingest {

// What a trace's reader has handed its sink, so that a new reader of the
// trace, in a new reading process after the one that held it died, goes on
// where it stopped: no event given twice, none lost.
//
// At each flush a CtfTraceReader hands over exactly the network events it
// has read whose time is at or before `through`, the time every unfinished
// stream had reached (the later ones are held back, CtfTraceReader::held_).
// So what it gave is known from `through` and from how many network events
// it had read from each stream then: a stream's k-th network event (from 0)
// was given when k < read[stream] and its time <= through. Streams are
// numbered in babeltrace2's port order, which is the same at every opening
// of a trace.
struct DeliveryCut {
  model::Nanoseconds through = INT64_MIN;
  std::vector<uint64_t> read;  // per stream: network events read
  bool operator==(const DeliveryCut&) const = default;
};

// What a CTF reader hands its sink at a flush: the events of `batch` (with
// those held back before) not later than `limit`; the later ones stay held
// back in `held`, so that what a trace gave is always the trace cut at one
// time. Both CTF readers flush so, which is what makes a DeliveryCut mean
// the same whichever reader made it.
inline void hold_back_after(std::vector<match::PacketEvent>& batch, std::vector<match::PacketEvent>& held,
                            model::Nanoseconds limit) {
  batch.insert(batch.end(), held.begin(), held.end());
  held.clear();
  const auto later = std::partition(batch.begin(), batch.end(),
                                    [&](const match::PacketEvent& event) { return event.time <= limit; });
  held.assign(later, batch.end());
  batch.erase(later, batch.end());
}

// The union of the cuts of a trace's readers: a resumed reader gives what
// its predecessors did not, so what was given is what any of their cuts
// covers. The new reader reads the trace from its beginning, counting every
// event (the trace's figures come out as an undamaged reading gives them),
// and gives the sink only the events no cut covers.
class ResumePoint {
 public:
  bool empty() const { return cuts_.empty(); }
  // Whether the `position`-th network event of `stream`, at `time`, was given.
  bool delivered(std::size_t stream, uint64_t position, model::Nanoseconds time) const;
  // Adds a reader's cut, dropping the cuts it covers.
  void add(DeliveryCut cut);
  const std::vector<DeliveryCut>& cuts() const { return cuts_; }
  bool operator==(const ResumePoint&) const = default;

 private:
  std::vector<DeliveryCut> cuts_;
};

}  // namespace tracesync::ingest
