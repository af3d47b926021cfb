#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "match/packet_event.h"

namespace tracesync::match {

// Matched records waiting for the progress of every open trace to pass the
// time of their later end, grouped by time slice (time >> kSliceBits): a
// slice leaves whole, in no particular order within it, once progress has
// passed its end.
//
// While one trace is read ahead of the others (one reader per trace), the
// queue spans the whole experiment: hundreds of thousands of slices, most
// holding a record or two per trace. A tree of slices cost a descent of
// cache misses per push. Slices are kept in pages of kPageSlices instead
// (about 4 s), a tree of a few hundred pages: the descent stays in the
// cache and a slice is an array index. Clocks of different hosts may be
// days apart; pages exist only where records wait.
class SettleQueue {
 public:
  static constexpr int kSliceBits = 20;

  struct Waiting {
    model::Nanoseconds time = 0;
    uint32_t record = 0;
    uint32_t generation = 0;
  };

  bool empty() const { return pages_.empty(); }

  void push(const Waiting& waiting) {
    const int64_t slice = waiting.time >> kSliceBits;
    std::unique_ptr<Page>& page = pages_[slice >> kPageBits];
    if (!page) page = std::make_unique<Page>();
    const auto index = static_cast<std::size_t>(slice & (kPageSlices - 1));
    std::vector<Waiting>& records = page->slices[index];
    if (records.capacity() == 0 && !spare_.empty()) {
      records = std::move(spare_.back());
      spare_.pop_back();
    }
    records.push_back(waiting);
    ++page->waiting;
    if (index < page->first) page->first = index;
  }

  // The earliest slice holding records; precondition: !empty().
  int64_t first_slice() {
    const auto& [number, page] = *pages_.begin();
    while (page->slices[page->first].empty()) ++page->first;
    return (number << kPageBits) | static_cast<int64_t>(page->first);
  }

  // Removes the earliest slice and appends its records to `out`, so that a
  // caller can gather several slices and work through them in one pass;
  // precondition: !empty().
  void pop_first_slice(std::vector<Waiting>& out) {
    first_slice();
    const auto first_page = pages_.begin();
    Page& page = *first_page->second;
    std::vector<Waiting>& slice = page.slices[page.first];
    out.insert(out.end(), slice.begin(), slice.end());
    page.waiting -= slice.size();
    slice.clear();
    if (spare_.size() < kMaxSpare) spare_.push_back(std::move(slice));
    slice = {};
    if (page.waiting == 0) pages_.erase(first_page);
  }

 private:
  static constexpr int kPageBits = 12;
  static constexpr std::size_t kPageSlices = std::size_t{1} << kPageBits;
  struct Page {
    std::array<std::vector<Waiting>, kPageSlices> slices;
    std::size_t first = 0;    // no records wait in the slices before this one
    std::size_t waiting = 0;  // records in all slices
  };
  std::map<int64_t, std::unique_ptr<Page>> pages_;  // by slice >> kPageBits
  // Emptied slices' buffers, reused by the next slices that fill: a slice
  // per millisecond allocating and freeing its own buffer cost a malloc and
  // a free, on cold memory, per record or two.
  static constexpr std::size_t kMaxSpare = 1024;
  std::vector<std::vector<Waiting>> spare_;
};

}  // namespace tracesync::match
