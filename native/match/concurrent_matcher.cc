// SPDX-License-Identifier: EPL-2.0
#include "match/concurrent_matcher.h"

#include <algorithm>

namespace tracesync::match {

ConcurrentMatcher::ConcurrentMatcher(MatchOptions options, std::size_t trace_count, std::size_t shards,
                                     PacketMatcher::MatchCallback on_match)
    : options_(options), on_match_(std::move(on_match)) {
  const std::size_t count = std::max<std::size_t>(shards, 1);
  // One shard emits in order, under its own lock. Several shards hold
  // their messages here until release() can merge them in order.
  PacketMatcher::MatchCallback per_shard = on_match_;
  if (on_match_ && count > 1) {
    per_shard = [this](const MatchedMessage& message) {
      const std::lock_guard lock(callback_mutex_);
      held_.push_back(message);
    };
  }
  for (std::size_t i = 0; i < count; ++i) {
    auto shard = std::make_unique<Shard>();
    shard->matcher = std::make_unique<PacketMatcher>(options, trace_count, per_shard);
    emitted_below_.push_back(shard->matcher->emitted_below());
    shards_.push_back(std::move(shard));
  }
}

template <typename Operation>
void ConcurrentMatcher::on_shard(std::size_t index, Operation operation) {
  Shard& shard = *shards_[index];
  std::optional<model::Nanoseconds> limit;
  {
    const std::lock_guard lock(shard.mutex);
    operation(*shard.matcher);
    limit = shard.matcher->emitted_below();
  }
  if (shards_.size() == 1 || !on_match_) return;
  const std::lock_guard lock(callback_mutex_);
  release(index, limit);
}

void ConcurrentMatcher::release(std::size_t shard, std::optional<model::Nanoseconds> limit) {
  // Limits only grow, but two threads may report one shard's out of order.
  std::optional<model::Nanoseconds>& known = emitted_below_[shard];
  if (known && (!limit || *limit > *known)) known = limit;
  std::optional<model::Nanoseconds> all_below;  // nullopt: every shard is done
  for (const auto& below : emitted_below_) {
    if (below) all_below = std::min(all_below.value_or(INT64_MAX), *below);
  }
  const auto ready = all_below ? std::partition(held_.begin(), held_.end(),
                                                [&](const MatchedMessage& m) { return m.settles() < *all_below; })
                               : held_.end();
  if (ready == held_.begin()) return;
  // Out of held_ before the callback runs: it may throw.
  std::vector<MatchedMessage> out(held_.begin(), ready);
  held_.erase(held_.begin(), ready);
  std::sort(out.begin(), out.end(), emitted_before);
  for (const MatchedMessage& message : out) on_match_(message);
}

void ConcurrentMatcher::set_domain(TraceIndex trace, const std::string& domain_id) {
  for (auto& shard : shards_) {
    const std::lock_guard lock(shard->mutex);
    shard->matcher->set_domain(trace, domain_id);
  }
}

void ConcurrentMatcher::add(TraceIndex trace, std::span<const PacketEvent> events, model::Nanoseconds progress) {
  if (shards_.size() == 1) {
    on_shard(0, [&](PacketMatcher& matcher) {
      matcher.add(events);
      matcher.advance(trace, progress);
    });
    return;
  }
  // Split by key; events without a key (not TCP, undecodable) and go to shard 0.
  // Every shard learns the latest TCP event: the horizon's effect depends
  // on that of the whole experiment, not on how keys were split.
  const auto lent = splits_.borrow();
  std::vector<std::vector<PacketEvent>>& split = *lent;
  split.resize(shards_.size());
  for (auto& part : split) part.clear();
  model::Nanoseconds latest = INT64_MIN;
  for (const PacketEvent& event : events) {
    const bool tcp = event.layout == Layout::kTcp;
    const std::size_t shard = tcp ? PacketKeyHash{}(make_key(event, options_.key)) % shards_.size() : 0;
    split[shard].push_back(event);
    if (tcp) latest = std::max(latest, event.time);
  }
  for (std::size_t i = 0; i < shards_.size(); ++i) {
    on_shard(i, [&](PacketMatcher& matcher) {
      matcher.note_event_time(latest);
      matcher.add(std::span<const PacketEvent>(split[i]));
      matcher.advance(trace, progress);
    });
  }
}

void ConcurrentMatcher::close(TraceIndex trace) {
  for (std::size_t i = 0; i < shards_.size(); ++i) on_shard(i, [&](PacketMatcher& matcher) { matcher.close(trace); });
}

void ConcurrentMatcher::finish() {
  for (std::size_t i = 0; i < shards_.size(); ++i) on_shard(i, [](PacketMatcher& matcher) { matcher.finish(); });
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

std::vector<MatchStatistics> ConcurrentMatcher::kind_statistics() const {
  std::vector<MatchStatistics> sum;
  for (const auto& shard : shards_) {
    const std::vector<MatchStatistics>& kinds = shard->matcher->kind_statistics();
    if (sum.size() < kinds.size()) sum.resize(kinds.size());
    for (std::size_t kind = 0; kind < kinds.size(); ++kind) sum[kind] += kinds[kind];
  }
  return sum;
}

std::map<std::pair<PacketMatcher::LinkKey, MessageKind>, MatchStatistics> ConcurrentMatcher::link_kind_statistics()
    const {
  std::map<std::pair<PacketMatcher::LinkKey, MessageKind>, MatchStatistics> sum;
  for (const auto& shard : shards_) {
    for (const auto& [link, statistics] : shard->matcher->link_kind_statistics()) sum[link] += statistics;
  }
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
