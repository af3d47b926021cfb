// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "match/chunked_pool.h"
#include "match/key_index.h"
#include "match/match_statistics.h"
#include "match/packet_event.h"
#include "match/packet_key.h"
#include "match/settle_queue.h"

namespace tracesync::match {

struct MatchOptions {
  KeyKind key = KeyKind::kTc;
  // How long an entry waits for more events of its key (`--match-horizon`).
  // kUnbounded keeps every entry to the end.
  model::Nanoseconds horizon = 600'000'000'000;  // 10 minutes
  static constexpr model::Nanoseconds kUnbounded = INT64_MAX;
  // The TCP ports tracesync probe listened on (`--probe-port`, docs/probe.md):
  // a segment from or to one of them is one of the probe's rounds, counted
  // apart (MatchStatistics::probe_matches). Needs the events' endpoints.
  std::vector<uint16_t> probe_ports = {};
};

// A matched message: the kept send and the kept receive of one key.
struct MatchedMessage {
  TraceIndex send_trace = 0;
  model::Nanoseconds send = 0;
  TraceIndex receive_trace = 0;
  model::Nanoseconds receive = 0;

  // When the pair became final in a reading sorted by time: its later end
  // (each end on its own clock, compared as recorded).
  model::Nanoseconds settles() const { return std::max(send, receive); }

  friend bool operator==(const MatchedMessage&, const MatchedMessage&) = default;
  friend auto operator<=>(const MatchedMessage&, const MatchedMessage&) = default;
};

// The order matchers emit messages in, whatever order the events arrived
// in: by settles(), then by send trace and time, then by receive trace and
// time. The readers' interleaving, the number of threads and of shards do
// not change it, so neither do the link estimates built from it.
inline bool emitted_before(const MatchedMessage& a, const MatchedMessage& b) {
  const model::Nanoseconds sa = a.settles();
  const model::Nanoseconds sb = b.settles();
  return sa != sb ? sa < sb : a < b;
}

// Pairs the send and receive events of the traces of an experiment
// (DESIGN.md, "Matching"): TCP segments, and the application messages of
// `--messages`. A key is a PacketKey, kind included: events of two kinds
// never match, and each kind has its own statistics (kind_statistics).
//
// The result is defined on the experiment sorted by (time, trace), each
// trace's time on its own clock, as a muxed reading would see it:
//   - per key, the first send and the first receive are kept; every later
//     send is a retransmission, every later receive a duplicate;
//   - the kept pair is a message, emitted unless both ends are in one clock
//     domain (then counted as same_domain).
// Events may arrive in any order across traces (the traces are read in
// parallel) and in any order within a trace, as long as each trace keeps the
// promise it makes through advance(trace, w): no event of `trace` given later
// is earlier than w. The emitted messages and all statistics then equal the
// sorted-order result.
//
// When a message is emitted: once its pair can no longer change, i.e. both
// kept ends are earlier than the progress of every trace still open (the
// smallest w over open traces). An earlier send arriving later could
// otherwise replace a pair already emitted. Waiting messages leave in
// slices of kSettleSlice ns, a slice once that progress has passed its end,
// so a message may wait up to one slice longer than needed. Messages are
// emitted during add / advance / close / finish, in emitted_before order;
// emitted_below() tells how far that order is complete. (An event that
// breaks its trace's promise, below, may be emitted out of that order.)
//
// The horizon (DESIGN.md, "Matching"): a key's events that lie more than
// the horizon apart belong to different entries. Precisely: sort the
// events of one key by time (each on its own clock, compared as recorded)
// and cut between two consecutive events more than the horizon apart; each
// piece is an entry of its own, to which the rules above apply (its first
// send and first receive are kept). An entry with one end only counts as
// expired when the horizon has passed it before the experiment's end, that
// is when its newest event + horizon < the latest TCP event of the whole
// experiment; otherwise as unmatched. This depends on the events only, not
// on the order they arrive in nor on how the traces are read, so reports do
// not change from run to run nor with --jobs, even when a clock is offset by
// more than the horizon (its messages then expire, deterministically).
// Results equal unbounded matching whenever no two consecutive events of a
// key are more than the horizon apart (lone ends then count as expired
// rather than unmatched when the horizon passed them).
//
// Memory: an entry is dropped once the progress of every open trace is a
// horizon past its newest event (no later event can join it). Entries are
// dropped in time order, whatever order they arrived in. Memory is then
// bounded by the entries of a horizon (plus the traffic read ahead of the
// slowest trace), as long as all traces progress: entries wait for traces
// that have not started, and for the slowest trace. Two clocks far apart
// (further than the horizon) keep the entries of the faster one for that
// offset; readers limit that by not reading ahead (ReadOptions::max_lead).
//
// Out of memory: every call may throw std::bad_alloc. The matcher is then
// left consistent (the event that failed is not counted; messages stay
// emitted at most once), and finish() may still be called.
//
// An event that breaks its trace's promise is still used but counted as
// `late`; if it would have replaced an emitted end it counts as a
// retransmission or duplicate instead, and the result may differ from the
// sorted-order one.
//
// Not thread-safe: callers serialize. The callback runs inside the calls.
class PacketMatcher {
 public:
  static constexpr model::Nanoseconds kSettleSlice = model::Nanoseconds{1} << 20;  // about 1 ms
  using MatchCallback = std::function<void(const MatchedMessage&)>;
  // A link between two domains, the smaller id first (byte-wise).
  using LinkKey = std::pair<std::string, std::string>;

  // Traces 0 .. trace_count - 1, each in a domain of its own (named
  // "#trace N") until set_domain() says otherwise.
  PacketMatcher(MatchOptions options, std::size_t trace_count, MatchCallback on_match);

  // Must be called before any message of `trace` is emitted (before its
  // first event is simplest).
  void set_domain(TraceIndex trace, const std::string& domain_id);

  void add(const PacketEvent& event);
  // The same for several events, faster: their index slots are loaded ahead.
  void add(std::span<const PacketEvent> events);
  // An event at `time` was given to another matcher of the same experiment
  // (a shard): entries use the latest event of the whole experiment.
  void note_event_time(model::Nanoseconds time) { latest_ = std::max(latest_, time); }
  // Promise: no event of `trace` given later is earlier than `watermark`.
  void advance(TraceIndex trace, model::Nanoseconds watermark);
  // No more events of `trace`.
  void close(TraceIndex trace);
  // Closes every trace, emits what is left and counts the unmatched keys.
  // Call once, after the last event.
  void finish();

  const MatchOptions& options() const { return options_; }
  const MatchStatistics& total() const { return total_; }
  // Events counted on their own trace; matches and same_domain on the trace
  // of each end (once when both ends are in one trace); unmatched and
  // expired keys on the trace of their end.
  const MatchStatistics& trace_statistics(TraceIndex trace) const { return per_trace_.at(trace); }
  // Per link: matches, and the sends, receives, retransmissions and
  // duplicates of the keys matched on it.
  std::map<LinkKey, MatchStatistics> link_statistics() const;
  // The same per link and message kind (only the kinds with messages on it).
  std::map<std::pair<LinkKey, MessageKind>, MatchStatistics> link_kind_statistics() const;
  // Per message kind, indexed by kind: what total() counts, for the events
  // of that kind (the vector is as long as the largest kind seen, plus one).
  const std::vector<MatchStatistics>& kind_statistics() const { return per_kind_; }
  // Entries (keys, or pieces of keys far apart) held in memory now.
  std::size_t pending_keys() const { return index_.size(); }
  // Every message that settles before this time has been emitted; nullopt
  // once every trace is closed and every message has been emitted.
  std::optional<model::Nanoseconds> emitted_below() const {
    if (!progress_) return std::nullopt;
    return (*progress_ >> kSliceBits) * kSettleSlice;
  }

 private:
  static constexpr TraceIndex kNoTrace = UINT32_MAX;
  // One end of a key; ends are ordered by (time, trace).
  struct End {
    model::Nanoseconds time = 0;
    TraceIndex trace = kNoTrace;  // kNoTrace: no such end yet
    bool present() const { return trace != kNoTrace; }
    friend auto operator<=>(const End&, const End&) = default;
  };
  // What is known of one entry of a key, in 64 bytes (the strict key's
  // addresses and ports live in endpoints_, an application key in
  // app_keys_, under the same number). Numbers
  // are reused; a number's generation changes on reuse and when the record
  // is queued again, so stale settle queue items are seen.
  struct Record {
    TcpFields tcp;
    bool queued : 1 = false;   // waits in settle_queue_
    bool emitted : 1 = false;  // its message was emitted (or counted same-domain)
    bool live : 1 = false;     // its number is in use (stale expiry items see it)
    bool probe : 1 = false;    // a segment of tracesync probe's (MatchOptions::probe_ports)
    MessageKind kind = kTcpKind;
    uint32_t hash = 0;
    uint32_t generation = 0;
    TraceIndex send_trace = kNoTrace;  // the first send ...
    TraceIndex receive_trace = kNoTrace;  // ... and the first receive
    model::Nanoseconds send_time = 0;
    model::Nanoseconds receive_time = 0;
    model::Nanoseconds newest = 0;  // the latest time of any event of the key
    uint32_t sends = 0;
    uint32_t receives = 0;

    End send() const { return {send_time, send_trace}; }
    End end(Direction direction) const { return direction == Direction::kSend ? send() : receive(); }
    bool complete() const { return send().present() && receive().present(); }
    // Its earliest event: the kept ends are the earliest of their kind.
    model::Nanoseconds oldest() const {
      if (!send().present()) return receive_time;
      if (!receive().present()) return send_time;
      return std::min(send_time, receive_time);
    }
    MatchedMessage message() const { return {send_trace, send_time, receive_trace, receive_time}; }
    End receive() const { return {receive_time, receive_trace}; }
    void set(Direction direction, End end) {
      (direction == Direction::kSend ? send_time : receive_time) = end.time;
      (direction == Direction::kSend ? send_trace : receive_trace) = end.trace;
    }
  };
  static constexpr int kSliceBits = 20;
  static_assert(kSettleSlice == model::Nanoseconds{1} << kSliceBits);

  // A key and its hash, as looked up in index_.
  struct HashedKey {
    PacketKey key;
    uint32_t hash = 0;
  };
  HashedKey hashed(const PacketEvent& event) const;
  bool probe_segment(const PacketEvent& event) const;
  bool same_key(uint32_t number, const PacketKey& key) const;
  void add_hashed(const PacketEvent& event, const HashedKey& key);
  uint32_t entry_for(const HashedKey& key, model::Nanoseconds time, bool& settles_earlier);
  uint32_t create(const HashedKey& key, model::Nanoseconds time);
  bool joins(const Record& record, model::Nanoseconds time) const;
  void absorb(uint32_t into, uint32_t other, bool& settles_earlier);
  void take_end(Record& record, Direction direction, End end, bool& settles_earlier);
  void make_room();
  void count_repeat(const Record& record, Direction direction, TraceIndex trace);
  void queue(Record& record, uint32_t number);
  void drain();
  void order_equal_times(std::vector<SettleQueue::Waiting>& due) const;
  void emit(Record& record);
  void drop(uint32_t number);
  void release(uint32_t number);
  void expire();
  void recompute_progress();
  MatchStatistics& link_of(const Record& record);
  // Counts one event (or key) of `kind` on `trace`, in the total and per kind.
  void count(TraceIndex trace, MessageKind kind, uint64_t MatchStatistics::*counter);
  MatchStatistics& of_kind(MessageKind kind);
  bool same_domain(TraceIndex a, TraceIndex b) const { return domain_of_[a] == domain_of_[b]; }
  void check_trace(TraceIndex trace) const;
  bool bounded() const { return options_.horizon != MatchOptions::kUnbounded; }

  MatchOptions options_;
  MatchCallback on_match_;

  std::vector<uint32_t> domain_of_;        // per trace: index into domain_ids_
  std::vector<std::string> domain_ids_;
  std::vector<model::Nanoseconds> watermark_;  // per trace: its promise
  std::vector<bool> closed_;
  // The smallest watermark over open traces; nullopt once all are closed.
  std::optional<model::Nanoseconds> progress_ = INT64_MIN;

  ChunkedPool<Record> records_;
  ChunkedPool<Endpoints> endpoints_;  // strict key only: parallel to records_ (ensure(), never allocate())
  ChunkedPool<AppKey> app_keys_;      // application kinds only: parallel to records_
  KeyIndex index_;                    // key -> record number
  SettleQueue settle_queue_;  // by the later kept end: emitted once progress passes it
  std::vector<SettleQueue::Waiting> due_;  // drain()'s buffer, kept for its capacity
  // When bounded, a min-heap by time of {newest time when pushed, record},
  // at least one item per live record: a record is dropped when its item is
  // on top and the limit has passed its newest time + horizon, pushed again
  // if it has had newer events since. (A queue in arrival order would let
  // one entry far ahead hold back every entry behind it.)
  struct Expiry {
    model::Nanoseconds time = 0;
    uint32_t record = 0;
  };
  static bool expires_after(const Expiry& a, const Expiry& b) { return a.time > b.time; }
  std::vector<Expiry> expiry_heap_;
  // The latest TCP event given to this matcher or noted (note_event_time).
  model::Nanoseconds latest_ = INT64_MIN;
  // entry_for()'s buffer: the entries an event joins (at most two, the one
  // before it and the one after it, which it then joins into one).
  std::vector<uint32_t> joined_;

  MatchStatistics total_;
  std::vector<MatchStatistics> per_trace_;
  std::vector<MatchStatistics> per_kind_;
  // By domain numbers, smaller number first, and kind.
  struct LinkOfKind {
    uint32_t a = 0, b = 0;
    MessageKind kind = kTcpKind;
    friend auto operator<=>(const LinkOfKind&, const LinkOfKind&) = default;
  };
  std::map<LinkOfKind, MatchStatistics> per_link_;
};

}  // namespace tracesync::match
