// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "match/match_statistics.h"
#include "match/packet_event.h"
#include "network/network.h"
#include "session/domain_table.h"
#include "session/link_table.h"
#include "session/session_options.h"
#include "session/trace_table.h"
#include "snapshot/tracesync.pb.h"

namespace tracesync::session {

// One synchronization: traces (or the hosts of a match stream) grouped
// into clock domains, a link estimator per pair of domains that exchanged
// messages, and the network that turns the usable links into one transform
// per domain. Messages can keep arriving after a snapshot: that is how live
// traces are followed.
//
// Not thread-safe: callers serialize (the trace reader and the JNI layer do).
class Session {
 public:
  // The options must be valid (see validate()).
  explicit Session(SessionOptions options);

  // Match-stream input: each host name is a trace and a clock domain.
  void add_host_message(const std::string& sender, model::Nanoseconds send, const std::string& receiver,
                        model::Nanoseconds receive);

  // A match stream's host (a trace and a clock domain of its own), made
  // when first named: what add_host_message uses.
  TraceIndex add_host(const std::string& name);

  // Trace input: register the traces, then their matched messages.
  TraceIndex add_trace(const TraceDescription& trace);
  void add_trace_message(TraceIndex sender, model::Nanoseconds send, TraceIndex receiver, model::Nanoseconds receive);
  // A pair of one simultaneous signal's occurrences (docs/signals.md): `one`
  // on trace `on_one`'s clock, `other` on `on_other`'s, recorded within
  // `pair_jitter` of each other as either clock reads it. The link between
  // their domains gets, at the a-time of the pair, a lower point pair_jitter
  // above the b-time and an upper point pair_jitter below it.
  void add_signal_pair(TraceIndex on_one, model::Nanoseconds one, TraceIndex on_other, model::Nanoseconds other,
                       model::Nanoseconds pair_jitter);
  // What the messages so far say of other's clock - one's clock at `at` (on
  // one's clock): the estimate and the largest distance from it to what the
  // messages allow there. nullopt unless the link is ACCURATE and bounded.
  std::optional<std::pair<model::Nanoseconds, model::Nanoseconds>> message_offset(TraceIndex one, TraceIndex other,
                                                                                  model::Nanoseconds at);
  // What a signal gave the link between two traces' domains (a as
  // `signal.unpaired_a` means: `one`'s domain when it sorts first); a
  // signal of the same name given again replaces it.
  void add_link_signal(TraceIndex one, TraceIndex other, v1::LinkSignal signal);
  // Whether two traces are in one clock domain.
  bool same_domain(TraceIndex one, TraceIndex other) const { return traces_[one].domain == traces_[other].domain; }
  void set_trace_extent(TraceIndex trace, model::Nanoseconds first, model::Nanoseconds last, uint64_t events);
  // The network send and receive events read from a trace: a trace with none
  // is named as such in the snapshot (Trace.network_events).
  void set_trace_network_events(TraceIndex trace, uint64_t network_events);
  // Which CTF reader read a trace, and why (Trace.reader, Trace.reader_reason).
  void set_trace_reader(TraceIndex trace, std::string reader, std::string why);
  // Matching statistics of the link between two domains (by id).
  void add_link_matching(const std::string& one, const std::string& other, const match::MatchStatistics& statistics);
  void add_matching_totals(const match::MatchStatistics& totals);
  // Forgets every matching statistic added (totals, per link, per kind), so
  // that a matcher's figures so far can be added again at each result
  // (`tracesync live`).
  void reset_matching();
  // The application message kinds (kinds 1.., in order): reports then show
  // the matching of every kind, and the kinds of each link's messages.
  void set_message_kinds(std::vector<v1::MessageKind> kinds);
  // `--probe-port`: stated in the report's options (EngineOptions::probe_ports).
  void set_probe_ports(std::vector<uint16_t> ports);
  // Matching statistics of one kind (0: TCP), and of one kind on one link.
  void add_kind_matching(match::MessageKind kind, const match::MatchStatistics& statistics);
  void add_link_kind_matches(const std::string& one, const std::string& other, match::MessageKind kind,
                             uint64_t matches);
  // How the input was matched, for the report.
  void set_matching_options(const std::string& key, model::Nanoseconds horizon, unsigned jobs);
  // The program that reads each trace in a process of its own (empty when
  // traces are read in this process), and its opening time limit (0: none).
  // `in_process_reason` says why there is no program (empty: not said).
  void set_reading_program(std::string program, model::Nanoseconds open_timeout, std::string in_process_reason = {});
  void set_domain_overrides(std::map<std::string, std::string> overrides);

  // An input that could not be used, or only in part.
  void add_problem(v1::Problem problem);
  const std::vector<v1::Problem>& problems() const { return problems_; }

  // Called after every message with the state of the link it went to (its
  // names carried as in snapshot()).
  using HistoryObserver = std::function<void(uint64_t message, const v1::Link& link)>;
  void set_history_observer(HistoryObserver observer) { history_ = std::move(observer); }
  // Called, with a history observer set, after a message that changed the
  // number of the link's segments: the link's state (segments filled) and
  // its segments as they are now, in time order.
  using SegmentObserver =
      std::function<void(uint64_t message, const v1::Link& link, uint32_t previous_segments,
                         const std::vector<v1::LinkSegment>& segments)>;
  void set_segment_observer(SegmentObserver observer) { segment_history_ = std::move(observer); }

  // Closes partial windows (window estimators); call at the end of input.
  void finish();

  // Everything known now. Brings the network up to date with the links
  // first (their estimates and their uncertainties over the domains'
  // current spans): between snapshots only the links change. Its strings
  // are UTF-8: names that are not carry their bytes in `*_raw` fields
  // (snapshot/exact_names.h).
  v1::Snapshot snapshot();
  // The same, for a caller that takes no other and adds no message after
  // (`tracesync sync`, a finished `live` run): each link's estimator is told the input ended
  // (LinkEstimator::end_input: it may finish its state in place rather
  // than a copy), and what the session keeps to make the next snapshot
  // cheaply (each trace's pieces and segments, each link's report) moves
  // into this one or is dropped, instead of being held twice beside it. A
  // later snapshot() recomputes it; a message added later is late.
  v1::Snapshot last_snapshot();

  uint64_t messages() const { return messages_; }
  // Changes whenever what a snapshot would say changes (snapshots themselves
  // do not change it).
  uint64_t revision() const { return revision_; }
  std::size_t trace_count() const { return traces_.size(); }
  // --reference names that match no domain so far.
  std::vector<std::string> unresolved_references() const;

 private:
  DomainIndex register_domain(const std::string& id, const std::string& hostname);
  void add_message(DomainIndex sender, model::Nanoseconds send, DomainIndex receiver, model::Nanoseconds receive);
  void add_link_point(Link& link, const hull::LinkMessage& message);
  // Recomputes what changed of the link since the last snapshot and tells
  // the network; returns the up-to-date computation.
  const Link::Computed& refresh(Link& link);
  // snapshot(), or with `last_one` last_snapshot().
  v1::Snapshot make_snapshot(bool last_one);
  bool names_domain(const std::string& name, DomainIndex domain) const;
  std::string kind_name(match::MessageKind kind) const;  // "tcp", or an application kind's name

  SessionOptions options_;
  DomainTable domains_;
  std::vector<TraceRecord> traces_;
  std::map<std::string, TraceIndex> hosts_;  // match-stream hosts
  LinkTable links_;
  std::unique_ptr<network::Network> network_;
  std::vector<v1::Problem> problems_;
  match::MatchStatistics matching_totals_;
  std::vector<v1::MessageKind> message_kinds_;
  std::vector<match::MatchStatistics> kind_totals_;  // by kind
  bool has_matching_ = false;
  std::string match_key_;
  model::Nanoseconds match_horizon_ = 0;
  unsigned jobs_ = 0;
  std::vector<uint16_t> probe_ports_;
  std::string reading_program_;
  model::Nanoseconds open_timeout_ = 0;
  std::string in_process_reason_;
  std::map<std::string, std::string> domain_overrides_;
  uint64_t messages_ = 0;
  uint64_t revision_ = 0;
  uint64_t same_domain_messages_ = 0;
  HistoryObserver history_;
  SegmentObserver segment_history_;
  // Trace transforms are mostly unchanged from one snapshot to the next:
  // their decimals (slow to print) are kept per trace.
  struct TraceTransformReport {
    std::vector<network::ReportedPiece> pieces;
    v1::Decimal slope;
    v1::Decimal offset;
    double uncertainty_ns = 0;
    std::vector<v1::Segment> segments;
  };
  std::vector<std::optional<TraceTransformReport>> trace_reports_;
  // The rate limit where a map is used beyond its span (ns per ns; 0 under
  // --clock-stability 0): network::PiecewiseTransform adds |slope - 1|.
  model::Quad growth() const;
};

}  // namespace tracesync::session
