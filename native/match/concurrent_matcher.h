#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "match/packet_matcher.h"

namespace tracesync::match {

// PacketMatcher for several reader threads at once: the keys are split over
// `shards` matchers by hash, each behind its own lock, so threads that feed
// different keys rarely wait for each other. Every shard sees every trace's
// progress, so each applies the matching rules exactly as one matcher would
// to its keys; the keys being disjoint, the statistics simply add up.
//
// The callback runs on the feeding threads but never twice at once.
class ConcurrentMatcher {
 public:
  ConcurrentMatcher(MatchOptions options, std::size_t trace_count, std::size_t shards,
                    PacketMatcher::MatchCallback on_match);

  void set_domain(TraceIndex trace, const std::string& domain_id);
  // Events of one trace, then the trace's promise (PacketMatcher::advance).
  void add(TraceIndex trace, std::span<const PacketEvent> events, model::Nanoseconds progress);
  void close(TraceIndex trace);
  void finish();

  // Sums over the shards; call after finish() (or with no feeding thread left).
  MatchStatistics total() const;
  MatchStatistics trace_statistics(TraceIndex trace) const;
  std::map<PacketMatcher::LinkKey, MatchStatistics> link_statistics() const;
  std::size_t shard_count() const { return shards_.size(); }

 private:
  struct Shard {
    std::mutex mutex;
    std::unique_ptr<PacketMatcher> matcher;
  };

  MatchOptions options_;
  PacketMatcher::MatchCallback on_match_;
  std::mutex callback_mutex_;
  std::vector<std::unique_ptr<Shard>> shards_;
};

}  // namespace tracesync::match
