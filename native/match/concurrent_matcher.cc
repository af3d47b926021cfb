#include "match/concurrent_matcher.h"

#include <algorithm>

namespace tracesync::match {

ConcurrentMatcher::ConcurrentMatcher(MatchOptions options, std::size_t trace_count, std::size_t shards,
                                     PacketMatcher::MatchCallback on_match)
    : options_(options), on_match_(std::move(on_match)) {
  const std::size_t count = std::max<std::size_t>(shards, 1);
  // One shard's lock already serializes its callbacks; several shards share
  // a lock for theirs.
  PacketMatcher::MatchCallback serialized = on_match_;
  if (on_match_ && count > 1) {
    serialized = [this](const MatchedMessage& message) {
      const std::lock_guard lock(callback_mutex_);
      on_match_(message);
    };
  }
  for (std::size_t i = 0; i < count; ++i) {
    auto shard = std::make_unique<Shard>();
    shard->matcher = std::make_unique<PacketMatcher>(options, trace_count, serialized);
    shards_.push_back(std::move(shard));
  }
}

void ConcurrentMatcher::set_domain(TraceIndex trace, const std::string& domain_id) {
  for (auto& shard : shards_) {
    const std::lock_guard lock(shard->mutex);
    shard->matcher->set_domain(trace, domain_id);
  }
}

void ConcurrentMatcher::add(TraceIndex trace, std::span<const PacketEvent> events, model::Nanoseconds progress) {
  if (shards_.size() == 1) {
    Shard& shard = *shards_.front();
    const std::lock_guard lock(shard.mutex);
    shard.matcher->add(events);
    shard.matcher->advance(trace, progress);
    return;
  }
  // Split by key; events that are not TCP have no key and go to shard 0.
  thread_local std::vector<std::vector<PacketEvent>> split;
  split.resize(shards_.size());
  for (auto& part : split) part.clear();
  for (const PacketEvent& event : events) {
    const std::size_t shard =
        event.layout == Layout::kTcp ? PacketKeyHash{}(make_key(event, options_.key)) % shards_.size() : 0;
    split[shard].push_back(event);
  }
  for (std::size_t i = 0; i < shards_.size(); ++i) {
    Shard& shard = *shards_[i];
    const std::lock_guard lock(shard.mutex);
    shard.matcher->add(std::span<const PacketEvent>(split[i]));
    shard.matcher->advance(trace, progress);
  }
}

void ConcurrentMatcher::close(TraceIndex trace) {
  for (auto& shard : shards_) {
    const std::lock_guard lock(shard->mutex);
    shard->matcher->close(trace);
  }
}

void ConcurrentMatcher::finish() {
  for (auto& shard : shards_) {
    const std::lock_guard lock(shard->mutex);
    shard->matcher->finish();
  }
}

MatchStatistics ConcurrentMatcher::total() const {
  MatchStatistics sum;
  for (const auto& shard : shards_) sum += shard->matcher->total();
  return sum;
}

MatchStatistics ConcurrentMatcher::trace_statistics(TraceIndex trace) const {
  MatchStatistics sum;
  for (const auto& shard : shards_) sum += shard->matcher->trace_statistics(trace);
  return sum;
}

std::map<PacketMatcher::LinkKey, MatchStatistics> ConcurrentMatcher::link_statistics() const {
  std::map<PacketMatcher::LinkKey, MatchStatistics> sum;
  for (const auto& shard : shards_) {
    for (const auto& [link, statistics] : shard->matcher->link_statistics()) sum[link] += statistics;
  }
  return sum;
}

}  // namespace tracesync::match
