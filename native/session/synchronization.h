// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ingest/event_sink.h"
#include "ingest/message_spec.h"
#include "ingest/signal_spec.h"
#include "ingest/reader_choice.h"
#include "session/live_loop.h"
#include "session/session.h"

namespace tracesync::session {

// How traces are read and their packets matched (`tracesync sync` options).
struct IngestOptions {
  unsigned jobs = 0;                                    // 0: one per core
  std::string match_key = "tc";                         // tc | strict
  model::Nanoseconds match_horizon = 600'000'000'000;   // 10 min
  std::map<std::string, std::string> domain_overrides;  // trace (path or name) -> domain id
  // Application message kinds (docs/app-messages.md): `--messages` specs,
  // then the specs of each `--messages-file`, kinds 1.. in that order.
  std::vector<std::string> messages;
  std::vector<std::string> messages_files;
  // Simultaneous signals (docs/signals.md): `--simultaneous` specs, then
  // those of each `--simultaneous-file`; read as kinds after the messages'.
  std::vector<std::string> simultaneous;
  std::vector<std::string> simultaneous_files;
  // Empty: read traces in this process. Otherwise the program (and its first
  // arguments) that reads each trace in a process of its own, `tracesync
  // read-trace`: babeltrace2 aborting or looping on a damaged trace then
  // costs that trace only (ingest::ProcessTraceReader).
  std::vector<std::string> reading_command;
  // With a reading command: a trace babeltrace2 is still opening after this
  // long is skipped (ingest::ReadOptions::open_timeout). 0: no limit.
  model::Nanoseconds open_timeout = 0;
  // Without a reading command: why, for the report (empty: not said).
  std::string in_process_reason;
  ingest::ReaderChoice reader = ingest::ReaderChoice::kAuto;  // `--reader`
  // The TCP ports tracesync probe listened on (`--probe-port`,
  // docs/probe.md): kernel traces' segments from or to them are counted as
  // the probe's rounds (match::MatchOptions::probe_ports).
  std::vector<uint16_t> probe_ports;
};

struct RunProgress {
  uint64_t bytes_done = 0;
  uint64_t bytes_total = 0;
  uint32_t traces_done = 0;
  uint32_t traces_total = 0;
};

// Called from the thread that runs run(), about ten times a second and at
// least once (at the end); returning false cancels the run.
using ProgressCallback = std::function<bool(const RunProgress&)>;

struct RunOutcome {
  bool cancelled = false;
  uint32_t traces_read = 0;          // read in full or in part
  std::vector<v1::Problem> skipped;  // traces that could not be read at all
  std::vector<v1::Problem> damaged;  // traces read in part: what came before the damage stands
  // Traces whose reading ran out of memory (in part or not at all read; the
  // problem's `skipped` says which): not their fault, and in no list above.
  std::vector<v1::Problem> out_of_memory;
  // Entries of trace directories babeltrace2 leaves out (a FIFO, a device, a
  // link to nothing, a directory or an empty file in place of a stream
  // file), each named: their traces were read without them.
  std::vector<v1::Problem> left_out;
  std::vector<v1::Problem> usage;    // --domain options that select nothing or conflict
  // What the traces lack to serve the `--messages` kinds: a key field an
  // event class lacks, keys too long, an event no trace records.
  std::vector<v1::Problem> messages;
  // Simultaneous signals' occurrences that pairing left out, per link (said
  // on stderr and in the report; not an error). What the traces lack to
  // serve a signal spec is in `messages`.
  std::vector<v1::Problem> signals;
};

// The whole pipeline behind one facade, as the CLI and the JNI layer use
// it: trace paths or matched messages in, a Snapshot out.
//   traces -> events -> matches -> links -> network -> snapshot
// Calls must be serialized by the caller.
class Synchronization {
 public:
  // A problem with the options, in words for the user; empty when fine.
  static std::string validate(const SessionOptions& session, const IngestOptions& ingest);

  Synchronization(SessionOptions session, IngestOptions ingest);

  // Queues a trace directory (searched recursively) for the next run().
  // Returns an error when the path does not exist or holds no trace.
  std::string add_trace_path(const std::string& path);

  // A matched message for streaming use: hosts are domains.
  void add_match(const std::string& sender, model::Nanoseconds send, const std::string& receiver,
                 model::Nanoseconds receive) {
    session_.add_host_message(sender, send, receiver, receive);
  }

  // Reads every queued trace (one worker per trace, `jobs` at a time),
  // matches packets and feeds the links. A trace that fails is reported
  // and the others are still synchronized. `cancel`, when set from another
  // thread, stops the reading as the progress callback returning false does.
  RunOutcome run(const ProgressCallback& progress, const std::atomic<bool>* cancel = nullptr);

  // What is known now. Window estimators publish at window ends, so a
  // snapshot never closes a window early: run() closes them when its traces
  // are read to their end (a stream of matches has no end).
  v1::Snapshot snapshot() { return session_.snapshot(); }
  // The snapshot when no other follows (Session::last_snapshot).
  v1::Snapshot last_snapshot() { return session_.last_snapshot(); }

  // The snapshot serialized, as the JNI layer hands it to Java: built once
  // per change of the session and reused until the next change.
  const std::string& serialized_snapshot();

  Session& session() { return session_; }

  // Also hands every event the next run() reads to `sink` (not owned), as
  // the matcher gets them: `sync --certificate` learns from it the stream
  // file of each event it cites. Null: none.
  void set_event_observer(ingest::EventSink* sink) { event_observer_ = sink; }

  // Follows live sessions (net://... URLs) and trace folders being written
  // as `tracesync live` does, into a session of its own made with these
  // options (this one's traces and results are left alone), each source read
  // as this session reads traces (its reading command, its reader choice):
  // results go to callbacks.on_result, and `end` gets the final one. Returns a problem
  // with a source (a URL that names no session), in words, before anything
  // is followed, or with the options (a match horizon that is not
  // positive); empty otherwise.
  struct FollowOptions {
    std::vector<std::string> sources;
    model::Nanoseconds interval = 1'000'000'000;
    model::Nanoseconds quiet = 10'000'000'000;  // a folder with nothing new for this long has ended
    model::Nanoseconds wait = 0;                // a source not there yet is looked for this long
    // live's, not this session's (sync's): following runs for hours.
    model::Nanoseconds match_horizon = kLiveMatchHorizon;
  };
  std::string follow(const FollowOptions& options, const LiveLoopCallbacks& callbacks, LiveLoopEnd& end);

 private:
  SessionOptions session_options_;  // for the sessions follow() makes
  IngestOptions ingest_;
  std::vector<ingest::MessageSpec> message_kinds_;  // parsed from ingest_ once
  std::vector<ingest::SignalSpec> signals_;          // likewise
  ingest::EventSink* event_observer_ = nullptr;
  std::vector<ingest::MessageSpec> reading_kinds_;   // the kinds read: the messages', then the signals' ones
  Session session_;
  std::vector<std::string> pending_paths_;
  std::optional<uint64_t> serialized_revision_;
  std::string serialized_;
};

}  // namespace tracesync::session
