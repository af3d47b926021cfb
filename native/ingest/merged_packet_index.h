// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <vector>

namespace tracesync::ingest {

// A packet in the index of a stream babeltrace2 2.0's src.ctf.fs reads
// (ctf_fs_ds_index_entry): where it is, and its bounds. A packet without
// timestamp_begin or _end has -1 for it; the sequence number comes only
// from an LTTng index file of version 1.1.
struct IndexEntry {
  std::size_t file = 0;  // among the stream's files in directory order
  uint64_t offset = 0, size = 0;  // bytes
  uint64_t begin = UINT64_MAX, end = UINT64_MAX;  // in cycles
  int64_t begin_ns = -1;  // timestamp_begin in ns from origin
  uint64_t sequence = UINT64_MAX;
};

// The index of a stream split over several files, merged as src.ctf.fs
// merges it (ds_index_insert_ds_index_entry_sorted, stream_instances.h):
// the first file's entries as they are, then each entry of the later files
// inserted before the first entry that does not begin earlier, unless that
// one is the same packet (size, bounds, sequence number: overlapping
// snapshots). babeltrace2 searches from the start each time (quadratic);
// the same place is found in log time: the first entry not beginning
// earlier than x begins later than every entry before it, so it is one of
// the sequence's records (entries beginning later than all before them),
// whose beginnings increase: the first record not earlier than x.
class MergedPacketIndex {
 public:
  explicit MergedPacketIndex(const std::vector<IndexEntry>& first) {
    for (const IndexEntry& entry : first) {
      const auto at = entries_.insert(entries_.end(), entry);
      if (records_.empty() || entry.begin_ns > records_.rbegin()->first) records_.emplace(entry.begin_ns, at);
    }
  }

  void insert(const IndexEntry& entry) {
    const auto record = records_.lower_bound(entry.begin_ns);
    if (record == records_.end()) {
      records_.emplace_hint(record, entry.begin_ns, entries_.insert(entries_.end(), entry));
      return;
    }
    const IndexEntry& other = *record->second;
    if (other.size == entry.size && other.begin == entry.begin && other.end == entry.end &&
        other.sequence == entry.sequence) {
      return;  // a copy of that packet
    }
    const auto at = entries_.insert(record->second, entry);
    // It begins later than all before it; the record after it stays one
    // only if it begins later still.
    if (record->first == entry.begin_ns) {
      record->second = at;
    } else {
      records_.emplace_hint(record, entry.begin_ns, at);
    }
  }

  const std::list<IndexEntry>& entries() const { return entries_; }

 private:
  std::list<IndexEntry> entries_;
  std::map<int64_t, std::list<IndexEntry>::iterator> records_;  // by beginning
};

}  // namespace tracesync::ingest
