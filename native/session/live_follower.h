// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ingest/experiment_reader.h"
#include "ingest/followed_trace_reader.h"
#include "ingest/live_trace_reader.h"
#include "ingest/message_spec.h"
#include "ingest/signal_occurrences.h"
#include "ingest/signal_spec.h"
#include "match/packet_matcher.h"
#include "session/session.h"
#include "session/signal_links.h"

namespace tracesync::session {

// The match horizon of following (`tracesync live`, TraceSync.follow) when
// none is given: shorter than sync's 10 min, since following runs for hours
// and the matcher (and a link's flat envelope) hold a horizon of messages;
// one minute still covers clocks a minute apart (docs/live.md, "The match
// horizon in live").
inline constexpr model::Nanoseconds kLiveMatchHorizon = 60'000'000'000;

// The link budget of following (hull::EstimatorOptions::link_budget) when
// none is given: about a minute of a link at 1,000 messages a second, where
// sync's (4 Mi) is 70 minutes of it. Past its budget a link streams its
// local bands and releases what its frontier settles, answering the same
// (docs/local-band.md), so a followed link's memory and a result's cost stop
// growing after its first minutes instead of after an hour (docs/live.md).
inline constexpr std::size_t kLiveLinkBudget = std::size_t{1} << 16;

// How live sessions are read and their messages matched (`tracesync live`).
struct LiveIngestOptions {
  match::MatchOptions match;
  // Its selection is made from message_kinds by the follower.
  ingest::ReaderOptions reader;
  // The application message kinds of `--messages` (kinds 1.., in order).
  std::vector<ingest::MessageSpec> message_kinds;
  // The simultaneous signals of `--simultaneous` (kinds after the messages'):
  // paired at each result over the occurrences read so far (docs/signals.md).
  std::vector<ingest::SignalSpec> signals;
  std::size_t rounds_per_turn = 64;  // a session's turn: this many batches of messages
  // A session the relay does not have yet (its host joins late) is looked
  // for again, every retry_every, until this long after the first read().
  // Zero: a session not found is a failure at once.
  std::chrono::milliseconds join_window{0};
  std::chrono::milliseconds retry_every{500};
  // A trace folder to which nothing was written for this long is taken as
  // ended (LTTng leaves no mark when a session stops).
  std::chrono::milliseconds quiet_end{10'000};
  // Empty: every source is read in this process. Otherwise the program (and
  // its first arguments) that reads each source in a process of its own,
  // `tracesync read-trace` (ingest::ProcessFollowedReader): babeltrace2
  // aborting or looping on a damaged stream then costs that source only.
  std::vector<std::string> reading_command;
  // Without a reading command: why, for the report (empty: not said).
  std::string in_process_reason;
};

// One thing followed: a live session from a relay, or a trace folder that
// LTTng is writing.
struct FollowedSource {
  std::string label;  // the URL or the folder, as given
  std::optional<ingest::LiveSessionUrl> session;  // a live session
  std::string folder;                             // else a folder
};

// What happened to a followed session during a turn, for the user.
struct LiveNews {
  enum class Kind { kOpened, kEnded, kFailed, kWaiting, kResumed, kGap };
  Kind kind = Kind::kOpened;
  std::string url;   // the session URL or the folder, as given
  std::string text;  // in words: the host and its clock, or why it failed
};

// Follows LTTng live sessions and trace folders being written into one
// Session, incrementally: each session is read by a LiveTraceReader, each
// folder by a GrowingTraceReader, each in a reading process of its own when
// a reading command is given (ingest::ProcessFollowedReader: a folder whose
// process dies is read on in a new one after what it gave, a live session
// attached again, told as news, with each stretch of a stream the relay no
// longer served as news and a problem; a source that cannot be fails,
// keeping what it gave, and the others go on),
// else in this process; their events go to one PacketMatcher
// and the matched messages to the session's links as they settle; the
// network is brought up to date at each snapshot (Session::snapshot). This
// is `sync` on traces being recorded: on the same events, finish() gives
// the result `sync` gives on the recorded traces.
//
// One thread does everything (the readers' steps are short and the relay
// sends little at a time). Memory: the matcher drops keys a horizon behind
// every session's progress, and the links keep their hulls.
class LiveFollower {
 public:
  LiveFollower(SessionOptions session, LiveIngestOptions ingest);
  ~LiveFollower();
  LiveFollower(const LiveFollower&) = delete;
  LiveFollower& operator=(const LiveFollower&) = delete;

  // Before the first read(): one more session to follow.
  void add(const ingest::LiveSessionUrl& url);
  // Before the first read(): one more trace folder to follow while it is written.
  void add_folder(const std::string& folder);

  // A turn for every session still followed: reads what the relays have
  // now. Returns what happened to sessions (opened, ended, failed); sets
  // *read_any when some session delivered messages (false: all waited).
  std::vector<LiveNews> read(bool* read_any);

  // Following stops (Ctrl-C) before every session ended: names, as read()
  // does when a session ends, each stream of a session attached again of
  // which the relay served nothing since (kGap news, and a problem). Once,
  // before finish(true).
  std::vector<LiveNews> stop();

  // Every session has ended or failed: nothing more will come.
  bool finished() const;
  std::size_t sessions() const { return readers_.size(); }
  uint64_t events() const;  // events read from every session so far
  // Entries the matcher holds now: a count, where memory itself is not
  // deterministic (tests of flat memory).
  std::size_t matcher_entries() const { return matcher_ ? matcher_->pending_keys() : 0; }

  // The result now: what the messages matched so far say (`complete` false:
  // the sessions go on), with the matching statistics so far (keys still
  // waiting for their other end are not counted as unmatched yet).
  v1::Snapshot snapshot();
  // Ends the matching (keys waiting for their other end count as unmatched),
  // adds the matching statistics and closes the estimators' last windows:
  // the final result. Once, after the last read(). `cut_short`: sessions
  // were still followed (Ctrl-C): said in the result's problems.
  v1::Snapshot finish(bool cut_short);

  Session& session() { return session_; }
  // After finish(): what the signals could not serve (bad input) and what
  // their pairing left out, as `sync` tells them.
  const SignalProblems& signal_problems() const { return signal_problems_; }

 private:
  class Sink;
  // Names the gaps of source i's streams (StreamGap) in `news` and in the
  // result's problems.
  void name_gaps(std::size_t i, const std::vector<ingest::StreamGap>& gaps, std::vector<LiveNews>& news);

  void start();
  std::unique_ptr<ingest::FollowedTraceReader> make_reader(std::size_t i);
  void note_extents();
  void add_matching();  // the matcher's statistics now, into the session
  // A reader that ended or failed before its session opened, looked for
  // again while the join window is open: true when it was (or will be).
  bool look_again(std::size_t reader);
  std::vector<ingest::TraceReport> trace_reports() const;  // as read_experiment reports traces
  bool in_join_window() const;
  // The signals' occurrences read so far, paired; the settled pairs not
  // folded before go to the links.
  SignalProblems fold_signals();
  // Every occurrence of `trace`'s domain before this has been read.
  model::Nanoseconds complete_until(TraceIndex trace) const;

  LiveIngestOptions ingest_;
  Session session_;
  std::vector<FollowedSource> sources_;
  std::unique_ptr<Sink> sink_;
  std::unique_ptr<match::PacketMatcher> matcher_;
  std::vector<std::unique_ptr<ingest::FollowedTraceReader>> readers_;
  std::vector<std::optional<TraceIndex>> session_trace_;  // per reader, once opened
  std::vector<bool> reported_;                            // its end or failure was told
  std::vector<bool> waiting_told_;                        // "not on the relay yet" was told
  std::vector<bool> held_open_;  // its trace_closed was kept from the matcher (looked for again)
  std::vector<std::chrono::steady_clock::time_point> retry_at_;  // when it is looked for next
  std::chrono::steady_clock::time_point started_;
  bool finished_matching_ = false;
  std::unique_ptr<ingest::SignalOccurrences> signal_split_;  // with signals only
  ingest::SignalOccurrences::ByTrace occurrences_;          // every one read so far
  std::vector<model::Nanoseconds> promised_;                // per reader: nothing earlier will come
  SignalFolding folding_;
  SignalProblems signal_problems_;
};

}  // namespace tracesync::session
