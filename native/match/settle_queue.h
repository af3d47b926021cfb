// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <vector>

#include "match/packet_event.h"

namespace tracesync::match {

// Matched records waiting for the progress of every open trace to pass the
// time of their later end; they leave in time order once it has.
//
// Pushes come in reading order, not time order: one reader's turn pushes
// records across a second or so of its trace, and the next reader's turn
// pushes into that same second again. A structure indexed by time (the
// queue used to be an array of millisecond slices) then takes a cache miss
// or two per push, on memory last touched a turn earlier: the largest cost
// of matching on network-heavy traces. So a push only appends to an inbox,
// whose tail stays in the cache. Once the time limit reaches the inbox's
// earliest record, the inbox is sorted into a run; what is due leaves from
// the front of each run. Runs are merged, sizes permitting, so that few
// exist and each record is copied a few times, sequentially.
class SettleQueue {
 public:
  struct Waiting {
    model::Nanoseconds time = 0;
    uint32_t record = 0;
    uint32_t generation = 0;
  };

  SettleQueue() { spare_.reserve(kMaxSpare); }

  bool empty() const { return inbox_.empty() && runs_.empty(); }

  // Makes room for one push, so that the next push cannot fail: callers
  // that must not be left half-changed by std::bad_alloc call it first.
  void make_room() {
    if (inbox_.size() == inbox_.capacity()) inbox_.reserve(std::max<std::size_t>(256, 2 * inbox_.capacity()));
  }

  void push(const Waiting& waiting) {
    inbox_.push_back(waiting);
    if (waiting.time < inbox_earliest_) inbox_earliest_ = waiting.time;
  }

  // Removes every record earlier than `limit` and appends them to `out` (a
  // caller reuses one buffer), in time order (equal times by record number):
  // the order a reading sorted by time would have completed them in.
  // Out of memory: throws std::bad_alloc and loses no record (some may be
  // both in `out` and still queued).
  void pop_earlier_than(model::Nanoseconds limit, std::vector<Waiting>& out) { pop(limit, false, out); }
  // Removes every record and appends them to `out`, in the same order.
  void pop_all(std::vector<Waiting>& out) { pop(0, true, out); }

 private:
  struct Run {
    std::vector<Waiting> records;  // sorted by time
    std::size_t head = 0;          // the records before it have left
    std::size_t size() const { return records.size() - head; }
  };

  void pop(model::Nanoseconds limit, bool everything, std::vector<Waiting>& out);
  void seal_inbox();
  void merge_last_two();
  std::vector<Waiting> take_buffer();
  void give_back(std::vector<Waiting>&& buffer);

  std::vector<Waiting> inbox_;
  model::Nanoseconds inbox_earliest_ = INT64_MAX;
  // Older runs first. After each sealing, the last run is at most half
  // the size of the one before it: O(log n) runs, each record merged
  // O(log n) times.
  std::vector<Run> runs_;
  // Emptied buffers, for the next inbox or merge (their capacity is what counts).
  static constexpr std::size_t kMaxSpare = 8;
  std::vector<std::vector<Waiting>> spare_;
};

}  // namespace tracesync::match
