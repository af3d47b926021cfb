#include "match/packet_matcher.h"

#include <algorithm>
#include <stdexcept>

namespace tracesync::match {

namespace {

using Counter = uint64_t MatchStatistics::*;

model::Nanoseconds saturating_add(model::Nanoseconds a, model::Nanoseconds b) {
  model::Nanoseconds sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? INT64_MAX : sum;
}

}  // namespace

PacketMatcher::PacketMatcher(MatchOptions options, std::size_t trace_count, MatchCallback on_match)
    : options_(options),
      on_match_(std::move(on_match)),
      watermark_(trace_count, INT64_MIN),
      closed_(trace_count, false),
      per_trace_(trace_count) {
  if (options_.horizon < 0) throw std::invalid_argument("the match horizon must not be negative");
  for (std::size_t trace = 0; trace < trace_count; ++trace) {
    domain_of_.push_back(static_cast<uint32_t>(domain_ids_.size()));
    domain_ids_.push_back("#trace " + std::to_string(trace));
  }
  if (trace_count == 0) progress_.reset();
}

void PacketMatcher::check_trace(TraceIndex trace) const {
  if (trace >= watermark_.size()) {
    throw std::out_of_range("trace " + std::to_string(trace) + " is not one of the " +
                            std::to_string(watermark_.size()) + " traces of the matcher");
  }
}

void PacketMatcher::set_domain(TraceIndex trace, const std::string& domain_id) {
  check_trace(trace);
  const auto known = std::find(domain_ids_.begin(), domain_ids_.end(), domain_id);
  domain_of_[trace] = static_cast<uint32_t>(known - domain_ids_.begin());
  if (known == domain_ids_.end()) domain_ids_.push_back(domain_id);
}

void PacketMatcher::add(const PacketEvent& event) {
  check_trace(event.trace);
  auto count = [&](TraceIndex trace, Counter counter) {
    ++(total_.*counter);
    ++(per_trace_[trace].*counter);
  };
  if (event.layout != Layout::kTcp) {
    count(event.trace, event.layout == Layout::kNonTcp ? &MatchStatistics::non_tcp : &MatchStatistics::unknown_layout);
    return;
  }
  const bool is_send = event.direction == Direction::kSend;
  count(event.trace, is_send ? &MatchStatistics::sends : &MatchStatistics::receives);
  if (options_.key == KeyKind::kStrict && !event.endpoints.present()) count(event.trace, &MatchStatistics::tc_key_fallback);
  if (closed_[event.trace] || event.time < watermark_[event.trace]) count(event.trace, &MatchStatistics::late);

  auto [it, inserted] = table_.try_emplace(make_key(event, options_.key));
  Node& node = *it;
  Entry& entry = node.second;
  if (inserted) {
    entry.newest = event.time;
    expiry_queue_.push({event.time, &node});
  } else {
    entry.newest = std::max(entry.newest, event.time);
  }

  const End end{event.time, event.trace};
  std::optional<End>& kept = is_send ? entry.send : entry.receive;
  ++(is_send ? entry.sends : entry.receives);
  if (!kept) {
    kept = end;
  } else if (end < *kept && !entry.emitted) {
    count_repeat(node, event.direction, kept->trace);  // the former first one is the repeat
    kept = end;
  } else {
    count_repeat(node, event.direction, event.trace);
  }

  if (entry.send && entry.receive && !entry.emitted && !entry.queued) {
    entry.queued = true;
    settle_queue_.push({std::max(entry.send->time, entry.receive->time), &node});
  }
  drain();
}

void PacketMatcher::count_repeat(const Node& node, Direction direction, TraceIndex trace) {
  const Counter counter = direction == Direction::kSend ? &MatchStatistics::retransmissions : &MatchStatistics::duplicates;
  ++(total_.*counter);
  ++(per_trace_[trace].*counter);
  const Entry& entry = node.second;
  if (entry.emitted && !same_domain(entry.send->trace, entry.receive->trace)) {
    MatchStatistics& link = link_of(entry);
    ++(link.*counter);
    ++(direction == Direction::kSend ? link.sends : link.receives);
  }
}

void PacketMatcher::advance(TraceIndex trace, model::Nanoseconds watermark) {
  check_trace(trace);
  if (closed_[trace] || watermark <= watermark_[trace]) return;
  watermark_[trace] = watermark;
  recompute_progress();
  drain();
}

void PacketMatcher::close(TraceIndex trace) {
  check_trace(trace);
  if (closed_[trace]) return;
  closed_[trace] = true;
  recompute_progress();
  drain();
}

void PacketMatcher::recompute_progress() {
  progress_.reset();
  for (std::size_t trace = 0; trace < watermark_.size(); ++trace) {
    if (!closed_[trace]) progress_ = std::min(progress_.value_or(INT64_MAX), watermark_[trace]);
  }
}

void PacketMatcher::drain() {
  // An end earlier than the progress of every open trace is final: every
  // event still to come is later. With no trace open, everything is final.
  while (!settle_queue_.empty() && (!progress_ || settle_queue_.top().time < *progress_)) {
    Node& node = *settle_queue_.top().node;
    settle_queue_.pop();
    emit(node);
  }
  // Expiry needs an open trace: once all are closed, what is left is
  // "unmatched at the end", not expired. Settling runs first, and a key
  // settles no later than it expires (its later end is not newer than its
  // newest event), so no waiting entry is dropped.
  if (!progress_) return;
  while (!expiry_queue_.empty() && saturating_add(expiry_queue_.top().time, options_.horizon) < *progress_) {
    Node& node = *expiry_queue_.top().node;
    expiry_queue_.pop();
    if (saturating_add(node.second.newest, options_.horizon) < *progress_) {
      drop(node);
    } else {
      expiry_queue_.push({node.second.newest, &node});
    }
  }
}

void PacketMatcher::emit(Node& node) {
  Entry& entry = node.second;
  entry.queued = false;
  entry.emitted = true;
  const End send = *entry.send;
  const End receive = *entry.receive;
  const bool same = same_domain(send.trace, receive.trace);
  const Counter counter = same ? &MatchStatistics::same_domain : &MatchStatistics::matches;
  ++(total_.*counter);
  ++(per_trace_[send.trace].*counter);
  if (receive.trace != send.trace) ++(per_trace_[receive.trace].*counter);
  if (same) return;
  MatchStatistics& link = link_of(entry);
  ++link.matches;
  link.sends += entry.sends;
  link.receives += entry.receives;
  link.retransmissions += entry.sends - 1;
  link.duplicates += entry.receives - 1;
  if (on_match_) on_match_({send.trace, send.time, receive.trace, receive.time});
}

void PacketMatcher::drop(Node& node) {
  const Entry& entry = node.second;
  if (!entry.emitted) {
    const End end = entry.send ? *entry.send : *entry.receive;
    ++total_.expired;
    ++per_trace_[end.trace].expired;
  }
  table_.erase(node.first);
}

MatchStatistics& PacketMatcher::link_of(const Entry& entry) {
  const std::string& a = domain_ids_[domain_of_[entry.send->trace]];
  const std::string& b = domain_ids_[domain_of_[entry.receive->trace]];
  return a < b ? per_link_[{a, b}] : per_link_[{b, a}];
}

void PacketMatcher::finish() {
  std::fill(closed_.begin(), closed_.end(), true);
  progress_.reset();
  drain();
  for (const auto& [key, entry] : table_) {
    if (entry.send && entry.receive) continue;  // emitted by drain()
    const bool is_send = entry.send.has_value();
    const TraceIndex trace = is_send ? entry.send->trace : entry.receive->trace;
    const Counter counter = is_send ? &MatchStatistics::unmatched_sends : &MatchStatistics::unmatched_receives;
    ++(total_.*counter);
    ++(per_trace_[trace].*counter);
  }
  table_.clear();
  expiry_queue_ = {};
}

}  // namespace tracesync::match
