// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "base/huge_page_vector.h"

namespace tracesync::match {

// An open-addressing hash index from keys to record numbers: the records
// live elsewhere (stable numbers the matcher's queues can hold), the index
// keeps only {hash, number} pairs, 8 bytes a slot, at most half full, with
// linear probing and backward-shift deletion (no tombstones). Usually one
// cache miss per lookup instead of the two or three of a node-based map.
// One key may have several records (the matcher keeps a key's events that
// lie far apart in time apart): for_each_with_hash visits them all.
//
// Out of memory (std::bad_alloc from insert or reserve_one) leaves the
// index as it was: a larger table is allocated before anything moves.
class KeyIndex {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  // The record whose key `same(record)` says equals the one sought, or kNone.
  template <typename Same>
  uint32_t find(uint32_t hash, Same same) const {
    if (slots_.empty()) return kNone;
    for (std::size_t at = hash & mask_;; at = (at + 1) & mask_) {
      const Slot& slot = slots_[at];
      if (slot.record == kNone) return kNone;
      if (slot.hash == hash && same(slot.record)) return slot.record;
    }
  }

  // Calls f(record) for every record stored under `hash` (and perhaps a
  // few of other keys with the same hash: callers compare the keys).
  template <typename F>
  void for_each_with_hash(uint32_t hash, F f) const {
    if (slots_.empty()) return;
    for (std::size_t at = hash & mask_;; at = (at + 1) & mask_) {
      const Slot& slot = slots_[at];
      if (slot.record == kNone) return;
      if (slot.hash == hash) f(slot.record);
    }
  }

  // Starts loading the slot a lookup of `hash` begins at.
  void prefetch(uint32_t hash) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[hash & mask_]);
  }

  // The record in the slot a lookup of `hash` begins at when that slot
  // holds `hash` (the likely match), else kNone: a hint, not a lookup.
  uint32_t likely_record(uint32_t hash) const {
    if (slots_.empty()) return kNone;
    const Slot& slot = slots_[hash & mask_];
    return slot.hash == hash ? slot.record : kNone;
  }

  // Makes room for one more record, so that the next insert cannot fail.
  void reserve_one() {
    if (2 * (size_ + 1) > slots_.size()) grow();
  }

  // Adds `record` under `hash` (other records may share the hash).
  void insert(uint32_t hash, uint32_t record) {
    reserve_one();
    place(slots_, mask_, hash, record);
    ++size_;
  }

  // Removes `record`, stored under `hash`.
  void erase(uint32_t hash, uint32_t record) {
    std::size_t hole = hash & mask_;
    while (slots_[hole].record != record) hole = (hole + 1) & mask_;
    // Shift back the slots of the run after the hole that may move into it.
    for (std::size_t next = (hole + 1) & mask_;; next = (next + 1) & mask_) {
      const Slot& slot = slots_[next];
      if (slot.record == kNone) break;
      const std::size_t home = slot.hash & mask_;
      // `slot` may fill the hole unless its home lies cyclically in (hole, next].
      const bool home_after_hole = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next);
      if (!home_after_hole) {
        slots_[hole] = slot;
        hole = next;
      }
    }
    slots_[hole] = Slot{};
    --size_;
  }

  void clear() {
    slots_.clear();
    mask_ = 0;
    size_ = 0;
  }
  std::size_t size() const { return size_; }

 private:
  struct Slot {
    uint32_t hash = 0;
    uint32_t record = kNone;
  };

  static void place(base::HugePageVector<Slot>& slots, std::size_t mask, uint32_t hash, uint32_t record) {
    std::size_t at = hash & mask;
    while (slots[at].record != kNone) at = (at + 1) & mask;
    slots[at] = {hash, record};
  }

  void grow() {
    // Allocated first: if that fails, the index is untouched.
    base::HugePageVector<Slot> larger(slots_.empty() ? 1024 : 2 * slots_.size(), Slot{});
    const std::size_t mask = larger.size() - 1;
    for (const Slot& slot : slots_) {
      if (slot.record != kNone) place(larger, mask, slot.hash, slot.record);
    }
    slots_ = std::move(larger);
    mask_ = mask;
  }

  base::HugePageVector<Slot> slots_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

}  // namespace tracesync::match
