// SPDX-License-Identifier: EPL-2.0
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

model::Nanoseconds saturating_sub(model::Nanoseconds a, model::Nanoseconds b) {
  model::Nanoseconds difference = 0;
  return __builtin_sub_overflow(a, b, &difference) ? INT64_MIN : difference;
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
  joined_.reserve(4);
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

PacketMatcher::HashedKey PacketMatcher::hashed(const PacketEvent& event) const {
  HashedKey out{make_key(event, options_.key), 0};
  out.key.probe = probe_segment(event);
  out.hash = static_cast<uint32_t>(PacketKeyHash{}(out.key) >> 32);
  return out;
}

bool PacketMatcher::probe_segment(const PacketEvent& event) const {
  if (event.kind != kTcpKind || !event.endpoints.present()) return false;
  for (const uint16_t port : options_.probe_ports) {
    if (event.endpoints.source_port == port || event.endpoints.dest_port == port) return true;
  }
  return false;
}

bool PacketMatcher::same_key(uint32_t number, const PacketKey& key) const {
  const Record& record = records_[number];
  if (record.kind != key.kind) return false;
  if (key.kind != kTcpKind) return app_keys_[number] == key.app;
  return record.tcp.seq == key.tcp.seq && record.tcp.ack_seq == key.tcp.ack_seq && record.tcp.flags == key.tcp.flags &&
         record.probe == key.probe && (options_.key != KeyKind::kStrict || endpoints_[number] == key.endpoints);
}

MatchStatistics& PacketMatcher::of_kind(MessageKind kind) {
  if (per_kind_.size() <= kind) per_kind_.resize(std::size_t{kind} + 1);
  return per_kind_[kind];
}

void PacketMatcher::count(TraceIndex trace, MessageKind kind, Counter counter) {
  ++(of_kind(kind).*counter);
  ++(total_.*counter);
  ++(per_trace_[trace].*counter);
}

bool PacketMatcher::joins(const Record& record, model::Nanoseconds time) const {
  return saturating_sub(time, options_.horizon) <= record.newest && saturating_add(time, options_.horizon) >= record.oldest();
}

uint32_t PacketMatcher::entry_for(const HashedKey& hashed_key, model::Nanoseconds time, bool& settles_earlier) {
  const PacketKey& key = hashed_key.key;
  // The entries of this key within a horizon of the event. Entries of one
  // key are more than a horizon apart, so there are at most two (within
  // capacity: never allocates).
  joined_.clear();
  index_.for_each_with_hash(hashed_key.hash, [&](uint32_t number) {
    if (same_key(number, key) && joins(records_[number], time) && joined_.size() < joined_.capacity()) {
      joined_.push_back(number);
    }
  });
  if (joined_.empty()) return create(hashed_key, time);
  // The event bridges the gap between two entries: they become one, under
  // the earlier.
  const auto earlier = [&](uint32_t a, uint32_t b) {
    const model::Nanoseconds ta = records_[a].oldest();
    const model::Nanoseconds tb = records_[b].oldest();
    return ta != tb ? ta < tb : a < b;
  };
  std::sort(joined_.begin(), joined_.end(), earlier);
  for (std::size_t i = 1; i < joined_.size(); ++i) absorb(joined_[0], joined_[i], settles_earlier);
  return joined_[0];
}

uint32_t PacketMatcher::create(const HashedKey& hashed_key, model::Nanoseconds time) {
  // Whatever may fail (out of memory) happens before anything changes.
  index_.reserve_one();
  // The per-kind statistics exist before the first event of a kind counts.
  of_kind(hashed_key.key.kind);
  const uint32_t number = records_.allocate();
  const bool app = hashed_key.key.kind != kTcpKind;
  if (app || options_.key == KeyKind::kStrict) {
    try {
      (app ? app_keys_.ensure(number) : endpoints_.ensure(number));
    } catch (...) {
      records_.release(number);
      throw;
    }
    if (app) {
      app_keys_[number] = hashed_key.key.app;
    } else {
      endpoints_[number] = hashed_key.key.endpoints;
    }
  }
  Record& record = records_[number];
  const uint32_t generation = record.generation + 1;
  record = Record{};
  record.kind = hashed_key.key.kind;
  record.tcp = hashed_key.key.tcp;
  record.probe = hashed_key.key.probe;
  record.hash = hashed_key.hash;
  record.generation = generation;
  record.live = true;
  record.newest = time;
  index_.insert(hashed_key.hash, number);
  if (bounded()) {
    expiry_heap_.push_back({time, number});  // room made by make_room()
    std::push_heap(expiry_heap_.begin(), expiry_heap_.end(), expires_after);
  }
  return number;
}

void PacketMatcher::take_end(Record& record, Direction direction, End end, bool& settles_earlier) {
  const End kept = record.end(direction);
  if (!kept.present()) {
    record.set(direction, end);
  } else if (end < kept && !record.emitted) {
    count_repeat(record, direction, kept.trace);  // the former first one is the repeat
    const model::Nanoseconds before = record.message().settles();
    record.set(direction, end);
    settles_earlier = settles_earlier || (record.queued && record.message().settles() < before);
  } else {
    count_repeat(record, direction, end.trace);
  }
}

void PacketMatcher::absorb(uint32_t into, uint32_t other, bool& settles_earlier) {
  Record& kept = records_[into];
  const Record& later = records_[other];
  // `later` was never emitted: it settles after the event that joins it,
  // which is not earlier than progress. Its ends become `kept`'s ends or
  // repeats; its repeats, counted already, are now `kept`'s.
  for (const Direction direction : {Direction::kSend, Direction::kReceive}) {
    const End end = later.end(direction);
    if (!end.present()) continue;
    take_end(kept, direction, end, settles_earlier);
    const uint32_t repeats = (direction == Direction::kSend ? later.sends : later.receives) - 1;
    if (kept.emitted && !same_domain(kept.send_trace, kept.receive_trace)) {
      MatchStatistics& link = link_of(kept);
      (direction == Direction::kSend ? link.sends : link.receives) += repeats;
      (direction == Direction::kSend ? link.retransmissions : link.duplicates) += repeats;
    }
  }
  kept.sends += later.sends;
  kept.receives += later.receives;
  kept.newest = std::max(kept.newest, later.newest);
  release(other);
}

void PacketMatcher::make_room() {
  // So that no allocation fails once an event has begun to change things.
  settle_queue_.make_room();
  if (bounded() && expiry_heap_.size() == expiry_heap_.capacity()) {
    expiry_heap_.reserve(std::max<std::size_t>(1024, 2 * expiry_heap_.capacity()));
  }
}

void PacketMatcher::add(const PacketEvent& event) {
  check_trace(event.trace);
  add_hashed(event, event.layout == Layout::kTcp ? hashed(event) : HashedKey{});
}

void PacketMatcher::add(std::span<const PacketEvent> events) {
  // Lookups miss the cache once the index is large: compute the keys
  // kAhead events ahead and have their index slots on the way; kAhead / 2
  // events ahead, the slot has arrived, and the record it names (an event's
  // other end, usually) is fetched in turn. A later insert may move a slot:
  // these are hints only, the lookup itself is exact.
  constexpr std::size_t kAhead = 16;
  constexpr std::size_t kRecordAhead = kAhead / 2;
  HashedKey ahead[kAhead];
  auto load = [&](std::size_t i) {
    const PacketEvent& event = events[i];
    check_trace(event.trace);
    ahead[i % kAhead] = event.layout == Layout::kTcp ? hashed(event) : HashedKey{};
    index_.prefetch(ahead[i % kAhead].hash);
  };
  for (std::size_t i = 0; i < std::min(kAhead, events.size()); ++i) load(i);
  for (std::size_t i = 0; i < events.size(); ++i) {
    const HashedKey key = ahead[i % kAhead];
    if (i + kAhead < events.size()) load(i + kAhead);
    if (i + kRecordAhead < events.size()) {
      const uint32_t record = index_.likely_record(ahead[(i + kRecordAhead) % kAhead].hash);
      if (record != KeyIndex::kNone) __builtin_prefetch(&records_[record]);
    }
    add_hashed(events[i], key);
  }
}

void PacketMatcher::add_hashed(const PacketEvent& event, const HashedKey& key) {
  if (event.layout != Layout::kTcp) {
    count(event.trace, event.kind,
          event.layout == Layout::kNonTcp      ? &MatchStatistics::non_tcp
          : event.layout == Layout::kKeyTooLong ? &MatchStatistics::key_too_long
                                                : &MatchStatistics::unknown_layout);
    return;
  }
  make_room();
  bool settles_earlier = false;  // a queued pair's later end was replaced
  const uint32_t number = entry_for(key, event.time, settles_earlier);  // the last call that may fail
  latest_ = std::max(latest_, event.time);
  const bool is_send = event.direction == Direction::kSend;
  count(event.trace, event.kind, is_send ? &MatchStatistics::sends : &MatchStatistics::receives);
  if (event.kind == kTcpKind && options_.key == KeyKind::kStrict && !event.endpoints.present()) {
    count(event.trace, event.kind, &MatchStatistics::tc_key_fallback);
  }
  const bool late = closed_[event.trace] || event.time < watermark_[event.trace];
  if (late) count(event.trace, event.kind, &MatchStatistics::late);

  Record& record = records_[number];
  record.newest = std::max(record.newest, event.time);
  ++(is_send ? record.sends : record.receives);
  take_end(record, event.direction, {event.time, event.trace}, settles_earlier);

  if (record.complete() && !record.emitted && (!record.queued || settles_earlier)) queue(record, number);
  // Progress only moves in advance / close / finish, which drain. Since
  // then, a record queued here settles at or after progress, so no slice
  // is due, and a new expiry item is due only if its event is older than
  // progress by the horizon: only a late event can make anything due.
  if (late) drain();
}

void PacketMatcher::queue(Record& record, uint32_t number) {
  const model::Nanoseconds settles = record.message().settles();
  if (!progress_ || settles < *progress_) {
    emit(record);  // final already (a late event completed it)
    return;
  }
  // Queued again because its pair settles earlier now: the item under the
  // former time goes stale, so that the message leaves in its place in
  // emitted_before order whichever end arrived first.
  if (record.queued) ++record.generation;
  record.queued = true;
  settle_queue_.push({settles, number, record.generation});
}

void PacketMatcher::count_repeat(const Record& record, Direction direction, TraceIndex trace) {
  const Counter counter = direction == Direction::kSend ? &MatchStatistics::retransmissions : &MatchStatistics::duplicates;
  count(trace, record.kind, counter);
  if (record.emitted && !same_domain(record.send_trace, record.receive_trace)) {
    MatchStatistics& link = link_of(record);
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
  // (The buffer is taken, not shared, in case a callback adds events.)
  std::vector<SettleQueue::Waiting> due = std::move(due_);
  due.clear();
  if (!progress_) {
    settle_queue_.pop_all(due);
  } else {
    // A slice leaves once progress has passed its end: every record before
    // the slice progress is in.
    settle_queue_.pop_earlier_than((*progress_ >> kSliceBits) * kSettleSlice, due);
  }
  order_equal_times(due);
  // A due record was last touched when its pair completed, long before in
  // reading order: its cache line is fetched a few records ahead.
  constexpr std::size_t kAhead = 8;
  for (std::size_t i = 0; i < due.size(); ++i) {
    if (i + kAhead < due.size()) __builtin_prefetch(&records_[due[i + kAhead].record]);
    Record& record = records_[due[i].record];
    if (record.generation == due[i].generation && record.queued) emit(record);
  }
  due_ = std::move(due);
  expire();
}

void PacketMatcher::expire() {
  // Expiry needs an open trace: once all are closed, what is left is
  // classified by finish().
  if (!progress_ || !bounded()) return;
  const model::Nanoseconds limit = *progress_;
  // A lone end is dropped (as expired) only once the horizon has passed it
  // before the latest event too: finish() then counts one left in memory as
  // expired exactly when it could have been dropped.
  const model::Nanoseconds lone_limit = std::min(limit, latest_);
  // Items that cannot leave yet although their time has come are set aside
  // at the end of the vector, out of the heap, and go back after: complete
  // entries whose slice has not settled (they leave in their place in
  // emitted_before order first) and lone ends beyond the latest event.
  std::size_t aside = 0;
  const auto heap_end = [&] { return expiry_heap_.end() - static_cast<std::ptrdiff_t>(aside); };
  while (heap_end() != expiry_heap_.begin() &&
         saturating_add(expiry_heap_.front().time, options_.horizon) < limit) {
    std::pop_heap(expiry_heap_.begin(), heap_end(), expires_after);
    Expiry& item = *(heap_end() - 1);
    const Record& record = records_[item.record];
    const model::Nanoseconds expires = saturating_add(record.newest, options_.horizon);
    if (!record.live) {
      std::swap(item, expiry_heap_.back());  // joined into another entry since
      expiry_heap_.pop_back();
    } else if (expires >= limit) {
      item.time = record.newest;  // newer events since: wait for the newest
      std::push_heap(expiry_heap_.begin(), heap_end(), expires_after);
    } else if (record.queued || (!record.complete() && expires >= lone_limit)) {
      ++aside;
    } else {
      const uint32_t number = item.record;
      std::swap(item, expiry_heap_.back());
      expiry_heap_.pop_back();
      drop(number);
    }
  }
  while (aside > 0) {
    --aside;
    std::push_heap(expiry_heap_.begin(), heap_end(), expires_after);
  }
}

void PacketMatcher::order_equal_times(std::vector<SettleQueue::Waiting>& due) const {
  // The queue orders equal times by record number, that is by arrival;
  // emitted_before orders them by the messages themselves. Equal times are
  // rare: a scan finds them.
  for (std::size_t begin = 0; begin + 1 < due.size();) {
    std::size_t end = begin + 1;
    while (end < due.size() && due[end].time == due[begin].time) ++end;
    if (end - begin > 1) {
      // Stale items sort anywhere: they are skipped.
      std::sort(due.begin() + static_cast<std::ptrdiff_t>(begin), due.begin() + static_cast<std::ptrdiff_t>(end),
                [&](const SettleQueue::Waiting& a, const SettleQueue::Waiting& b) {
                  return records_[a.record].message() < records_[b.record].message();
                });
    }
    begin = end;
  }
}

void PacketMatcher::emit(Record& record) {
  const End send = record.send();
  const End receive = record.receive();
  const bool same = same_domain(send.trace, receive.trace);
  // The link first: adding it is the one step that may fail.
  MatchStatistics* link = same ? nullptr : &link_of(record);
  record.queued = false;
  record.emitted = true;
  const Counter counter = same ? &MatchStatistics::same_domain : &MatchStatistics::matches;
  count(send.trace, record.kind, counter);
  if (receive.trace != send.trace) ++(per_trace_[receive.trace].*counter);
  if (record.probe && !same) {
    count(send.trace, record.kind, &MatchStatistics::probe_matches);
    if (receive.trace != send.trace) ++per_trace_[receive.trace].probe_matches;
    ++link->probe_matches;
  }
  if (same) return;
  ++link->matches;
  link->sends += record.sends;
  link->receives += record.receives;
  link->retransmissions += record.sends - 1;
  link->duplicates += record.receives - 1;
  if (on_match_) on_match_({send.trace, send.time, receive.trace, receive.time});
}

void PacketMatcher::drop(uint32_t number) {
  Record& record = records_[number];
  if (record.queued) emit(record);  // never lose a message (expire() drops none that wait)
  if (!record.emitted) {
    const End end = record.send().present() ? record.send() : record.receive();
    count(end.trace, record.kind, &MatchStatistics::expired);
  }
  release(number);
}

void PacketMatcher::release(uint32_t number) {
  Record& record = records_[number];
  index_.erase(record.hash, number);
  ++record.generation;  // its settle queue item, if any, goes stale
  record.live = false;  // and its expiry items
  records_.release(number);
}

MatchStatistics& PacketMatcher::link_of(const Record& record) {
  const uint32_t a = domain_of_[record.send_trace];
  const uint32_t b = domain_of_[record.receive_trace];
  return per_link_[{std::min(a, b), std::max(a, b), record.kind}];
}

std::map<PacketMatcher::LinkKey, MatchStatistics> PacketMatcher::link_statistics() const {
  std::map<LinkKey, MatchStatistics> out;
  for (const auto& [link, statistics] : link_kind_statistics()) out[link.first] += statistics;
  return out;
}

std::map<std::pair<PacketMatcher::LinkKey, MessageKind>, MatchStatistics> PacketMatcher::link_kind_statistics() const {
  std::map<std::pair<LinkKey, MessageKind>, MatchStatistics> out;
  for (const auto& [link, statistics] : per_link_) {
    const std::string& a = domain_ids_[link.a];
    const std::string& b = domain_ids_[link.b];
    out[{a < b ? LinkKey{a, b} : LinkKey{b, a}, link.kind}] += statistics;
  }
  return out;
}

void PacketMatcher::finish() {
  std::fill(closed_.begin(), closed_.end(), true);
  progress_.reset();
  drain();
  // Complete entries still waiting were left by a failure (out of memory)
  // that interrupted a drain: they are emitted now, in order among themselves.
  std::vector<uint32_t> stranded;
  records_.for_each_live([&](uint32_t number, const Record& record) {
    if (record.complete()) {
      if (!record.emitted) stranded.push_back(number);
      return;
    }
    const bool is_send = record.send().present();
    const TraceIndex trace = is_send ? record.send_trace : record.receive_trace;
    // Expired when the horizon passed it before the experiment's last event:
    // as if it had been dropped while reading, whenever reading happened.
    const Counter counter = saturating_add(record.newest, options_.horizon) < latest_ ? &MatchStatistics::expired
                            : is_send                                               ? &MatchStatistics::unmatched_sends
                                                                                    : &MatchStatistics::unmatched_receives;
    count(trace, record.kind, counter);
  });
  std::sort(stranded.begin(), stranded.end(), [&](uint32_t a, uint32_t b) {
    return emitted_before(records_[a].message(), records_[b].message());
  });
  for (const uint32_t number : stranded) emit(records_[number]);
  index_.clear();
  records_.clear();
  endpoints_.clear();
  app_keys_.clear();
  expiry_heap_.clear();
}

}  // namespace tracesync::match
