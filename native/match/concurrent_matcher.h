// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/scratch_pool.h"
#include "match/packet_matcher.h"

namespace tracesync::match {

// PacketMatcher for several reader threads at once: the keys are split over
// `shards` matchers by hash, each behind its own lock, so threads that feed
// different keys rarely wait for each other. Every shard sees every trace's
// progress, so each applies the matching rules exactly as one matcher would
// to its keys; the keys being disjoint, the statistics simply add up.
//
// The callback runs on the feeding threads but never twice at once, and
// sees the messages in emitted_before order, as from one matcher: each
// shard's messages wait until every shard has emitted what settles before
// them, so how threads interleave changes nothing downstream.
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
  std::vector<MatchStatistics> kind_statistics() const;  // PacketMatcher::kind_statistics
  std::map<std::pair<PacketMatcher::LinkKey, MessageKind>, MatchStatistics> link_kind_statistics() const;
  std::size_t shard_count() const { return shards_.size(); }

 private:
  struct Shard {
    std::mutex mutex;
    std::unique_ptr<PacketMatcher> matcher;
  };
  // After an operation on shard `shard` left it complete below `limit`
  // (PacketMatcher::emitted_below), hands on every held message that all
  // shards are complete below, in order. Called with callback_mutex_ held.
  void release(std::size_t shard, std::optional<model::Nanoseconds> limit);
  // Runs `operation` on one shard under its lock, then releases what it settled.
  template <typename Operation>
  void on_shard(std::size_t shard, Operation operation);

  MatchOptions options_;
  PacketMatcher::MatchCallback on_match_;
  std::vector<std::unique_ptr<Shard>> shards_;
  // A batch's events by shard, for add().
  base::ScratchPool<std::vector<std::vector<PacketEvent>>> splits_;
  // With several shards, guarded by callback_mutex_: messages emitted by
  // their shard and not yet handed on, and how far each shard is complete
  // (nullopt: all of it).
  std::mutex callback_mutex_;
  std::vector<MatchedMessage> held_;
  std::vector<std::optional<model::Nanoseconds>> emitted_below_;
};

}  // namespace tracesync::match
