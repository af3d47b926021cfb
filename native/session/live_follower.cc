// SPDX-License-Identifier: EPL-2.0
#include "session/live_follower.h"

#include <algorithm>
#include <iterator>

#include "ingest/growing_trace_reader.h"
#include "ingest/process_followed_reader.h"
#include "match/packet_key.h"
#include "session/message_kinds.h"

namespace tracesync::session {

// The readers deliver here, on the follower's thread.
class LiveFollower::Sink final : public ingest::EventSink {
 public:
  explicit Sink(LiveFollower& follower) : follower_(follower) {}

  void trace_opened(match::TraceIndex trace, const ingest::TraceInfo& info) override {
    follower_.session_trace_[trace] =
        follower_.session_.add_trace({info.name, info.path, info.hostname, info.domain_id});
    follower_.matcher_->set_domain(trace, info.domain_id);
    opened_.push_back(trace);
  }
  void trace_events(match::TraceIndex trace, std::span<const match::PacketEvent> events,
                    model::Nanoseconds progress) override {
    if (follower_.signal_split_) {  // the signals' occurrences are paired, not matched
      rest_.clear();
      follower_.signal_split_->split(trace, events, rest_);
      follower_.matcher_->add(rest_);
    } else {
      follower_.matcher_->add(events);
    }
    if (progress != INT64_MIN) {
      follower_.matcher_->advance(trace, progress);
      follower_.promised_[trace] = std::max(follower_.promised_[trace], progress);
    }
  }
  void trace_closed(match::TraceIndex trace) override {
    // A session not found may be looked for again (a host joining late):
    // its trace stays open for the matcher until it is given up.
    if (!follower_.session_trace_[trace] && follower_.in_join_window()) {
      follower_.held_open_[trace] = true;
      return;
    }
    follower_.matcher_->close(trace);
  }

  // Traces opened since the last call.
  std::vector<match::TraceIndex> take_opened() { return std::exchange(opened_, {}); }

 private:
  LiveFollower& follower_;
  std::vector<match::TraceIndex> opened_;
  std::vector<match::PacketEvent> rest_;
};

LiveFollower::LiveFollower(SessionOptions session, LiveIngestOptions ingest)
    : ingest_(std::move(ingest)), session_(std::move(session)) {
  std::vector<ingest::MessageSpec> reading = ingest_.message_kinds;
  if (!ingest_.signals.empty()) {
    auto kinds = ingest::reading_kinds(ingest_.message_kinds, ingest_.signals);
    if (const auto* why = std::get_if<std::string>(&kinds)) {  // the front end did not validate
      v1::Problem p;
      p.set_message(*why + "; no simultaneous signal was used");
      session_.add_problem(p);
      ingest_.signals.clear();
    } else {
      reading = std::get<std::vector<ingest::MessageSpec>>(std::move(kinds));
      signal_split_ = std::make_unique<ingest::SignalOccurrences>(
          static_cast<match::MessageKind>(ingest_.message_kinds.size() + 1));
    }
  }
  ingest_.reader.selection = ingest::EventSelection(reading);
  session_.set_message_kinds(reported_kinds(ingest_.message_kinds));
  session_.set_matching_options(std::string(match::to_string(ingest_.match.key)), ingest_.match.horizon, 1);
  session_.set_probe_ports(ingest_.match.probe_ports);
  if (ingest_.reading_command.empty()) {
    session_.set_reading_program({}, 0,
                                 ingest_.in_process_reason.empty() ? "live sessions are read in this process"
                                                                   : ingest_.in_process_reason);
  } else {
    session_.set_reading_program(ingest_.reading_command.front(), 0);
  }
}

LiveFollower::~LiveFollower() = default;

void LiveFollower::add(const ingest::LiveSessionUrl& url) { sources_.push_back({url.url, url, {}}); }

void LiveFollower::add_folder(const std::string& folder) { sources_.push_back({folder, std::nullopt, folder}); }

std::unique_ptr<ingest::FollowedTraceReader> LiveFollower::make_reader(std::size_t i) {
  const auto index = static_cast<match::TraceIndex>(i);
  if (!ingest_.reading_command.empty()) {
    if (sources_[i].session) {
      return std::make_unique<ingest::ProcessFollowedReader>(ingest_.reading_command, *sources_[i].session, index,
                                                             ingest_.reader, *sink_);
    }
    return std::make_unique<ingest::ProcessFollowedReader>(ingest_.reading_command, sources_[i].folder, index,
                                                           ingest_.reader, *sink_, ingest_.quiet_end);
  }
  if (sources_[i].session) {
    return std::make_unique<ingest::LiveTraceReader>(*sources_[i].session, index, ingest_.reader, *sink_);
  }
  return std::make_unique<ingest::GrowingTraceReader>(ingest::TraceSource{sources_[i].folder, {}, std::nullopt}, index,
                                                      ingest_.reader, *sink_, ingest_.quiet_end);
}

void LiveFollower::start() {
  sink_ = std::make_unique<Sink>(*this);
  const auto on_match = [this](const match::MatchedMessage& m) {
    session_.add_trace_message(session_trace_[m.send_trace].value(), m.send, session_trace_[m.receive_trace].value(),
                               m.receive);
  };
  matcher_ = std::make_unique<match::PacketMatcher>(ingest_.match, sources_.size(), on_match);
  session_trace_.assign(sources_.size(), std::nullopt);
  reported_.assign(sources_.size(), false);
  waiting_told_.assign(sources_.size(), false);
  held_open_.assign(sources_.size(), false);
  promised_.assign(sources_.size(), INT64_MIN);
  started_ = std::chrono::steady_clock::now();
  retry_at_.assign(sources_.size(), started_);
  for (std::size_t i = 0; i < sources_.size(); ++i) readers_.push_back(make_reader(i));
}

namespace {

// What the user learns of a session that opened: whose it is, which clock.
std::string clock_words(const ingest::TraceInfo& info) {
  return "host '" + info.hostname + "', clock domain " + info.domain_id;
}

v1::Problem problem(const std::string& source, const std::string& message, bool skipped) {
  v1::Problem p;
  p.set_source(source);
  p.set_message(message);
  p.set_skipped(skipped);
  return p;
}

// "stream 3", or "stream 3 of stream class 1" past a session's first channel.
std::string stream_words(uint64_t stream) {
  const uint64_t in_class = stream & 0xffff'ffffu;
  const uint64_t stream_class = stream >> 32;
  return "stream " + std::to_string(in_class) +
         (stream_class == 0 ? "" : " of stream class " + std::to_string(stream_class));
}

std::string gap_words(const ingest::StreamGap& gap) {
  if (!gap.served) {
    return stream_words(gap.stream) + ": nothing served after " + std::to_string(gap.from) +
           " ns (the reading was attached again): it recorded nothing since, or the relay no longer had it to serve "
           "(babeltrace2's live source does not tell which; events there may be missing; the bounds hold for what "
           "was read)";
  }
  const model::Nanoseconds span = gap.to - gap.from;
  return stream_words(gap.stream) + ": nothing it recorded after " + std::to_string(gap.from) +
         " ns and before " + std::to_string(gap.to) + " ns (" + std::to_string(span / 1'000'000) + "." +
         std::to_string(span % 1'000'000 / 100'000) +
         " ms) was read: its reading process died, and the relay serves a session attached again from its newest "
         "data (events there may be missing; the bounds hold for what was read)";
}

}  // namespace

std::vector<LiveNews> LiveFollower::read(bool* read_any) {
  if (!matcher_) start();
  std::vector<LiveNews> news;
  bool any = false;
  for (std::size_t i = 0; i < readers_.size(); ++i) {
    ingest::FollowedTraceReader& reader = *readers_[i];
    using State = ingest::TraceReader::State;
    if (reader.state() == State::kNew || reader.state() == State::kReading) {
      const uint64_t before = reader.info().events;
      reader.step(ingest_.rounds_per_turn);
      any = any || reader.info().events != before || !reader.waiting();
      if (std::string resumed = reader.take_resumed(); !resumed.empty()) {
        news.push_back({LiveNews::Kind::kResumed, sources_[i].label, std::move(resumed)});
      }
      name_gaps(i, reader.take_gaps(), news);
    }
    for (const match::TraceIndex opened : sink_->take_opened()) {
      news.push_back({LiveNews::Kind::kOpened, sources_[opened].label, clock_words(readers_[opened]->info())});
    }
    if (reported_[i] || (reader.state() != State::kDone && reader.state() != State::kFailed)) continue;
    if (!session_trace_[i]) {
      const std::string why = reader.problem();  // look_again() replaces the reader
      if (look_again(i)) {
        if (!waiting_told_[i]) {
          waiting_told_[i] = true;
          news.push_back({LiveNews::Kind::kWaiting, sources_[i].label,
                          std::string(sources_[i].session ? "not on the relay yet (" : "no trace yet (") + why +
                              "); looking for it again while the join window is open"});
        }
        continue;
      }
    }
    reported_[i] = true;
    if (reader.state() == State::kDone) {
      name_gaps(i, reader.take_unserved(), news);  // the session ended: what was not served will not be
      news.push_back({LiveNews::Kind::kEnded, sources_[i].label,
                      reader.end_words() + " after " + std::to_string(reader.info().events) + " events"});
    } else {
      const bool never_opened = !session_trace_[i];
      news.push_back({LiveNews::Kind::kFailed, sources_[i].label, reader.problem()});
      session_.add_problem(problem(sources_[i].label, reader.problem(), never_opened));
    }
  }
  note_extents();
  if (read_any != nullptr) *read_any = any;
  return news;
}

void LiveFollower::name_gaps(std::size_t i, const std::vector<ingest::StreamGap>& gaps, std::vector<LiveNews>& news) {
  for (const ingest::StreamGap& gap : gaps) {
    // Messages may be missing there: the bounds stay true (a missing
    // message only takes a constraint away), the result says what.
    const std::string words = gap_words(gap);
    news.push_back({LiveNews::Kind::kGap, sources_[i].label, words});
    session_.add_problem(problem(sources_[i].label, words, false));
  }
}

std::vector<LiveNews> LiveFollower::stop() {
  std::vector<LiveNews> news;
  for (std::size_t i = 0; i < readers_.size(); ++i) {
    if (!reported_[i]) name_gaps(i, readers_[i]->take_unserved(), news);
  }
  return news;
}

bool LiveFollower::in_join_window() const {
  return std::chrono::steady_clock::now() < started_ + ingest_.join_window;
}

bool LiveFollower::look_again(std::size_t i) {
  if (!in_join_window()) {
    if (held_open_[i]) matcher_->close(static_cast<match::TraceIndex>(i));  // its trace_closed left it open
    held_open_[i] = false;
    return false;
  }
  const auto now = std::chrono::steady_clock::now();
  if (now < retry_at_[i]) return true;
  retry_at_[i] = now + ingest_.retry_every;
  readers_[i] = make_reader(i);
  return true;
}

bool LiveFollower::finished() const {
  if (!matcher_) return sources_.empty();
  for (const bool told : reported_) {
    if (!told) return false;  // still read, or looked for again
  }
  return true;
}

uint64_t LiveFollower::events() const {
  uint64_t total = 0;
  for (const auto& reader : readers_) total += reader->info().events;
  return total;
}

// Each trace's span so far: the domains' spans bound the links' uncertainties.
void LiveFollower::note_extents() {
  for (std::size_t i = 0; i < readers_.size(); ++i) {
    const ingest::TraceInfo& info = readers_[i]->info();
    if (!session_trace_[i] || !info.first_event) continue;
    session_.set_trace_extent(*session_trace_[i], *info.first_event, info.last_event.value_or(*info.first_event),
                              info.events);
    session_.set_trace_network_events(*session_trace_[i], info.network_events);
  }
}

std::vector<ingest::TraceReport> LiveFollower::trace_reports() const {
  std::vector<ingest::TraceReport> reports;
  for (std::size_t i = 0; i < readers_.size(); ++i) {
    ingest::TraceReport& report = reports.emplace_back();
    report.info = readers_[i]->info();
    if (readers_[i]->state() == ingest::TraceReader::State::kFailed) {
      report.status = session_trace_[i] ? ingest::TraceStatus::kPartial : ingest::TraceStatus::kSkipped;
      report.problem = readers_[i]->problem();
    }
  }
  return reports;
}

void LiveFollower::add_matching() {
  session_.reset_matching();
  session_.add_matching_totals(matcher_->total());
  for (const auto& [key, statistics] : matcher_->link_statistics()) {
    session_.add_link_matching(key.first, key.second, statistics);
  }
  if (!ingest_.message_kinds.empty()) {
    add_kind_matching(session_, matcher_->kind_statistics(), matcher_->link_kind_statistics());
  }
}

model::Nanoseconds LiveFollower::complete_until(TraceIndex trace) const {
  model::Nanoseconds until = INT64_MAX;
  for (std::size_t i = 0; i < readers_.size(); ++i) {
    if (!session_trace_[i] || !session_.same_domain(*session_trace_[i], trace)) continue;
    using State = ingest::TraceReader::State;
    const State state = readers_[i]->state();
    if (state != State::kDone && state != State::kFailed) until = std::min(until, promised_[i]);  // else all is read
  }
  return until;
}

SignalProblems LiveFollower::fold_signals() {
  if (!signal_split_) return {};
  for (auto& [key, list] : signal_split_->take()) {
    std::vector<ingest::SignalOccurrence>& all = occurrences_[key];
    all.insert(all.end(), std::make_move_iterator(list.begin()), std::make_move_iterator(list.end()));
  }
  folding_.complete_until = [this](TraceIndex trace) { return complete_until(trace); };
  return add_signals(session_, ingest_.signals, ingest_.message_kinds.size() + 1, occurrences_, trace_reports(),
                     session_trace_, &folding_);
}

v1::Snapshot LiveFollower::snapshot() {
  if (matcher_) {
    add_matching();
    fold_signals();  // after the messages: they align the pairing (its problems wait for the end)
  }
  v1::Snapshot s = session_.snapshot();
  s.set_complete(false);  // the sessions are still being recorded
  return s;
}

v1::Snapshot LiveFollower::finish(bool cut_short) {
  if (!matcher_) start();
  if (!finished_matching_) {
    finished_matching_ = true;
    matcher_->finish();
    note_extents();
    add_matching();
    if (!ingest_.message_kinds.empty()) {
      for (const v1::Problem& p : message_problems(ingest_.message_kinds, trace_reports())) session_.add_problem(p);
    }
    signal_problems_ = fold_signals();
    for (const auto* list : {&signal_problems_.input, &signal_problems_.pairing}) {
      for (const v1::Problem& p : *list) session_.add_problem(p);
    }
    if (cut_short) {
      session_.add_problem(problem("", "following was stopped before every live session ended", false));
    } else {
      session_.finish();  // the sessions' end closes the last windows
    }
  }
  // No message comes after the last read(): the links' streams finish in place.
  return session_.last_snapshot();
}

}  // namespace tracesync::session
