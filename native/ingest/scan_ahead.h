// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "ingest/trace_being_read.h"

namespace tracesync::ingest {

// The stream files of one trace scanned ahead of their reader, so that one
// big trace keeps every core busy (issue 30): helper threads scan the
// next packets of the streams (each stream by one thread at a time, its
// packets in order) into a short queue per stream, and the reader takes
// them stream by stream in the order it always took them. What the reader
// does with a packet, and so everything it delivers, is the same with any
// number of helpers; with none, next() scans on the calling thread.
//
// `scan(stream, packet, reached)` reads the stream's next packet into
// `packet`, sets `reached` to the latest time it holds, and says whether
// the stream goes on (false at its end or on damage: no packet of it is
// scanned again). It is called for different streams at once, never twice
// at once for one stream. A helper takes the stream furthest behind in time
// whose queue has room: the one the reader will want first.
template <typename Packet>
class ScanAhead {
 public:
  using Scan = std::function<bool(std::size_t stream, Packet& packet, int64_t& reached)>;

  ScanAhead(std::size_t streams, std::size_t helpers, std::size_t depth, Scan scan)
      : scan_(std::move(scan)), depth_(std::max<std::size_t>(depth, 1)), streams_(streams) {
    for (std::size_t h = 0; h < helpers; ++h) {
      try {
        helpers_.emplace_back([this] { help(); });
      } catch (const std::system_error&) {
        break;  // the thread limit: scan with the helpers there are (or on the reader's thread)
      }
    }
  }
  ~ScanAhead() {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_helpers_.notify_all();
    for (std::thread& helper : helpers_) helper.join();
  }
  ScanAhead(const ScanAhead&) = delete;
  ScanAhead& operator=(const ScanAhead&) = delete;

  // The stream's next packet: queued, being scanned (then waited for), or
  // scanned now on this thread. Rethrows what its scan threw. Not called
  // again for a stream whose scan said it does not go on.
  Packet next(std::size_t stream) {
    std::unique_lock lock(mutex_);
    StreamQueue& queue = streams_[stream];
    while (queue.packets.empty() && queue.busy) {
      // A helper scans the packet wanted: rather than wait for it, this
      // thread scans ahead what a helper would scan next (the reader wants
      // it soon), so that the reader's core does not idle (issue 30: the
      // helper takes the stream furthest behind, which is the one the
      // reader wants, so the two would otherwise take turns).
      const std::size_t other = furthest_behind();
      if (other == streams_.size()) {
        packet_ready_.wait(lock);
      } else {
        scan_into_queue(other, lock);
      }
    }
    if (queue.packets.empty()) {
      Entry entry = scan_marked_busy(stream, lock);
      wake_helpers_.notify_all();
      if (entry.error) std::rethrow_exception(entry.error);
      return std::move(entry.packet);
    }
    Entry entry = std::move(queue.packets.front());
    queue.packets.pop_front();
    wake_helpers_.notify_all();  // room in its queue
    if (entry.error) std::rethrow_exception(entry.error);
    return std::move(entry.packet);
  }

  std::size_t helpers() const { return helpers_.size(); }

 private:
  struct Entry {
    Packet packet;
    std::exception_ptr error;
    int64_t reached = INT64_MIN;
    bool goes_on = true;
  };
  struct StreamQueue {
    std::deque<Entry> packets;
    bool busy = false;      // a thread scans its next packet
    bool ended = false;     // its scan said it does not go on
    int64_t reached = INT64_MIN;  // of its latest scanned packet
  };

  Entry scan_one(std::size_t stream) {
    Entry entry;
    try {
      entry.goes_on = scan_(stream, entry.packet, entry.reached);
    } catch (...) {
      entry.error = std::current_exception();
      entry.goes_on = false;
    }
    return entry;
  }

  void note(StreamQueue& queue, const Entry& entry) {
    queue.reached = std::max(queue.reached, entry.reached);
    if (!entry.goes_on) queue.ended = true;
  }

  // The stream furthest behind in time that no thread scans and whose queue
  // has room (the one the reader will want first); streams_.size() when none.
  std::size_t furthest_behind() const {
    std::size_t chosen = streams_.size();
    for (std::size_t s = 0; s < streams_.size(); ++s) {
      const StreamQueue& queue = streams_[s];
      if (queue.busy || queue.ended || queue.packets.size() >= depth_) continue;
      if (chosen == streams_.size() || queue.reached < streams_[chosen].reached) chosen = s;
    }
    return chosen;
  }

  // Scans the stream's next packet, the stream marked busy and the lock
  // released meanwhile.
  Entry scan_marked_busy(std::size_t stream, std::unique_lock<std::mutex>& lock) {
    StreamQueue& queue = streams_[stream];
    queue.busy = true;
    lock.unlock();
    Entry entry = scan_one(stream);
    lock.lock();
    queue.busy = false;
    note(queue, entry);
    return entry;
  }

  // Scans the stream's next packet into its queue.
  void scan_into_queue(std::size_t stream, std::unique_lock<std::mutex>& lock) {
    Entry entry = scan_marked_busy(stream, lock);
    streams_[stream].packets.push_back(std::move(entry));
    packet_ready_.notify_all();
  }

  void help() {
    const ReadingThreadStack signal_stack;
    std::unique_lock lock(mutex_);
    while (true) {
      const std::size_t chosen = furthest_behind();
      if (stopping_) return;
      if (chosen == streams_.size()) {
        wake_helpers_.wait(lock);
        continue;
      }
      scan_into_queue(chosen, lock);
    }
  }

  Scan scan_;
  std::size_t depth_;
  std::mutex mutex_;
  std::condition_variable packet_ready_, wake_helpers_;
  std::vector<StreamQueue> streams_;
  bool stopping_ = false;
  std::vector<std::thread> helpers_;  // last: started once the rest is ready
};

}  // namespace tracesync::ingest
