// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ingest/ctf_trace_reader.h"
#include "ingest/followed_trace_reader.h"

namespace tracesync::ingest {

// An LTTng live session as lttng-relayd serves it to viewers:
// net://HOST[:PORT]/host/HOSTNAME/SESSION (PORT 5344 when absent).
struct LiveSessionUrl {
  std::string url;  // as given
  std::string relay;  // net://HOST:PORT
  std::string hostname;
  std::string session;

  // "HOSTNAME/SESSION": the trace's name in reports.
  std::string name() const { return hostname + "/" + session; }
};

// The session `text` names, or nullopt with `problem` saying what is wrong.
std::optional<LiveSessionUrl> parse_live_session_url(std::string_view text, std::string& problem);

// Follows one live session into an EventSink while the relay streams it:
// CtfTraceReader's graph with babeltrace2's `src.ctf.lttng-live` as its
// source (CtfInput::kLive), so events are recognised, decoded and delivered
// exactly as from a trace folder. The source muxes the session's streams
// by time, so a step-back tolerance is not needed: the progress promised is
// the latest time seen (an inactivity message from the relay moves it on
// while a host is quiet).
//
// Its lifecycle, as the sink and the caller see it:
//   - the session is found and its first stream begins: trace_opened;
//   - between two flushes of the tracer there is nothing to read: step()
//     returns kReading with waiting() true; step again a little later;
//   - the session is destroyed: the source ends (session-not-found-action
//     = end), the reader is kDone and the sink gets trace_closed;
//   - the relay goes away, or the session is unknown to it: kFailed with a
//     problem naming the URL; what was delivered before stands.
// The relay serves a session to one viewer at a time.
class LiveTraceReader final : public FollowedTraceReader {
 public:
  LiveTraceReader(const LiveSessionUrl& session, match::TraceIndex index, ReaderOptions options, EventSink& sink);

  State step(std::size_t rounds) override { return reader_.step(rounds); }
  State state() const override { return reader_.state(); }
  const TraceInfo& info() const override { return reader_.info(); }
  const std::string& problem() const override { return reader_.problem(); }
  bool out_of_memory() const override { return reader_.out_of_memory(); }
  model::Nanoseconds progress() const override { return reader_.progress(); }
  uint64_t bytes_read() const override { return 0; }  // a stream has no known size
  bool waiting() const override { return reader_.stalled(); }
  std::string end_words() const override { return "the session ended"; }
  // Before the first step: this attachment follows one whose reading process
  // died after giving what `given` covers (CtfTraceReader::
  // resume_live_after): none of those events is given again, each stream
  // the relay begins again later than the cut is a gap, and each stream of
  // the cut the relay has not begun again is unserved().
  void resume_after(LiveCut given) { reader_.resume_live_after(std::move(given)); }
  const std::vector<StreamGap>& gaps() const { return reader_.gaps(); }
  std::vector<uint64_t> unserved() const { return reader_.unserved(); }
  // What this attachment and the ones before gave, as of its last flush.
  const LiveCut& live_cut() const { return reader_.live_cut(); }

 private:
  static ReaderOptions live_options(ReaderOptions options);

  CtfTraceReader reader_;
};

}  // namespace tracesync::ingest
