// SPDX-License-Identifier: EPL-2.0
#include "session/synchronization.h"

#include <chrono>
#include <filesystem>
#include <optional>

#include "ingest/domain_overrides.h"
#include "ingest/experiment_matching.h"
#include "ingest/trace_discovery.h"
#include "match/packet_key.h"
#include "session/message_kinds.h"
#include "session/signal_links.h"

namespace tracesync::session {

std::string Synchronization::validate(const SessionOptions& session, const IngestOptions& ingest) {
  if (std::string problem = session::validate(session); !problem.empty()) return problem;
  if (!match::parse_key_kind(ingest.match_key)) {
    return "the match key must be 'tc' or 'strict', not '" + ingest.match_key + "'";
  }
  if (ingest.match_horizon <= 0) return "the match horizon must be positive";
  if (!ingest.messages.empty() || !ingest.messages_files.empty()) {
    auto specs = ingest::parse_message_specs(ingest.messages, ingest.messages_files);
    if (auto* why = std::get_if<std::string>(&specs)) return *why;
  }
  if (!ingest.simultaneous.empty() || !ingest.simultaneous_files.empty()) {
    auto signals = ingest::parse_signal_specs(ingest.simultaneous, ingest.simultaneous_files);
    if (auto* why = std::get_if<std::string>(&signals)) return *why;
    auto specs = ingest::parse_message_specs(ingest.messages, ingest.messages_files);
    auto kinds = ingest::reading_kinds(std::get<std::vector<ingest::MessageSpec>>(specs),
                                       std::get<std::vector<ingest::SignalSpec>>(signals));
    if (auto* why = std::get_if<std::string>(&kinds)) return *why;
  }
  if (ingest.open_timeout < 0) return "the opening time limit must not be negative";
  if (ingest.open_timeout > 0 && ingest.reading_command.empty()) {
    return "an opening time limit needs traces read in processes of their own (not in-process)";
  }
  return {};
}

Synchronization::Synchronization(SessionOptions session, IngestOptions ingest)
    : session_options_(session), ingest_(std::move(ingest)), session_(std::move(session)) {
  // validate() says whether they parse; a front end that did not ask gets
  // no application kinds rather than half of them, and the report says why.
  auto specs = ingest::parse_message_specs(ingest_.messages, ingest_.messages_files);
  if (auto* why = std::get_if<std::string>(&specs)) {
    v1::Problem p;
    p.set_message(*why + "; no application messages were matched");
    session_.add_problem(p);
  } else {
    message_kinds_ = std::get<std::vector<ingest::MessageSpec>>(std::move(specs));
  }
  auto signals = ingest::parse_signal_specs(ingest_.simultaneous, ingest_.simultaneous_files);
  std::variant<std::vector<ingest::MessageSpec>, std::string> kinds = message_kinds_;
  if (auto* why = std::get_if<std::string>(&signals)) {
    v1::Problem p;
    p.set_message(*why + "; no simultaneous signal was used");
    session_.add_problem(p);
  } else if (kinds = ingest::reading_kinds(message_kinds_, std::get<std::vector<ingest::SignalSpec>>(signals));
             std::holds_alternative<std::string>(kinds)) {
    v1::Problem p;
    p.set_message(std::get<std::string>(kinds) + "; no simultaneous signal was used");
    session_.add_problem(p);
  } else {
    signals_ = std::get<std::vector<ingest::SignalSpec>>(std::move(signals));
  }
  reading_kinds_ = message_kinds_;
  if (!signals_.empty()) reading_kinds_ = std::get<std::vector<ingest::MessageSpec>>(std::move(kinds));
  session_.set_message_kinds(reported_kinds(message_kinds_));
  // The report states every option, whichever front end set it.
  session_.set_matching_options(ingest_.match_key, ingest_.match_horizon, ingest_.jobs);
  session_.set_probe_ports(ingest_.probe_ports);
  session_.set_domain_overrides(ingest_.domain_overrides);
  session_.set_reading_program(ingest_.reading_command.empty() ? std::string() : ingest_.reading_command.front(),
                               ingest_.open_timeout,
                               ingest_.reading_command.empty() ? ingest_.in_process_reason : std::string());
}

const std::string& Synchronization::serialized_snapshot() {
  if (serialized_revision_ != session_.revision()) {
    session_.snapshot().SerializeToString(&serialized_);
    serialized_revision_ = session_.revision();
  }
  return serialized_;
}

std::string Synchronization::add_trace_path(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return "'" + path + "' does not exist";
  pending_paths_.push_back(path);
  return {};
}

namespace {

v1::Problem problem(const std::string& source, const std::string& message, bool skipped) {
  v1::Problem p;
  p.set_source(source);
  p.set_message(message);
  p.set_skipped(skipped);
  return p;
}

}  // namespace

RunOutcome Synchronization::run(const ProgressCallback& progress, const std::atomic<bool>* cancel) {
  RunOutcome outcome;
  if (pending_paths_.empty()) {
    // The callback hears of every run at least once, even one with nothing to read.
    if (progress) outcome.cancelled = !progress(RunProgress{});
    return outcome;
  }
  ingest::Discovery discovery = ingest::discover_traces(pending_paths_);
  pending_paths_.clear();
  for (const ingest::Problem& p : discovery.problems) outcome.skipped.push_back(problem(p.source, p.message, true));
  for (const ingest::Problem& p : ingest::apply_domain_overrides(discovery.traces, ingest_.domain_overrides)) {
    outcome.usage.push_back(problem(p.source, p.message, false));
  }

  ingest::ExperimentOptions options;
  options.read.jobs = ingest_.jobs;
  options.read.reading_command = ingest_.reading_command;
  options.read.reader.reader = ingest_.reader;
  // Whole milliseconds, rounded up: a limit is never shorter than asked.
  options.read.open_timeout = std::chrono::milliseconds((ingest_.open_timeout + 999'999) / 1'000'000);
  options.match.key = *match::parse_key_kind(ingest_.match_key);
  options.match.horizon = ingest_.match_horizon;
  options.match.probe_ports = ingest_.probe_ports;
  options.read.reader.stream_ranges = static_cast<bool>(progress);
  options.read.reader.selection = ingest::EventSelection(reading_kinds_);
  if (!signals_.empty()) options.first_signal_kind = static_cast<match::MessageKind>(message_kinds_.size() + 1);  // finer progress, only when someone listens
  // A trace is in the session once it opened; a run cancelled before some
  // were opened leaves them out (no index to give them).
  std::vector<std::optional<TraceIndex>> session_trace(discovery.traces.size());
  ingest::ExperimentCallbacks callbacks;
  callbacks.beside = event_observer_;
  // The reader calls these one at a time, so the session needs no lock.
  callbacks.on_trace_opened = [&](match::TraceIndex trace, const ingest::TraceInfo& info) {
    session_trace[trace] = session_.add_trace({info.name, info.path, info.hostname, info.domain_id});
  };
  // A message involves two traces that have opened (the matcher hears of a
  // trace's events only after its opening).
  callbacks.on_match = [&](const match::MatchedMessage& m) {
    session_.add_trace_message(session_trace[m.send_trace].value(), m.send, session_trace[m.receive_trace].value(),
                               m.receive);
  };
  const ingest::ExperimentResult result = ingest::match_experiment(
      discovery.traces, options, callbacks,
      [&](const ingest::ReadProgress& p) {
        return !progress || progress(RunProgress{p.bytes_read, p.bytes_total, p.traces_done, p.traces_total});
      },
      cancel);

  std::size_t never_opened = 0;
  for (std::size_t i = 0; i < result.read.traces.size(); ++i) {
    const ingest::TraceReport& t = result.read.traces[i];
    const bool skipped = t.status == ingest::TraceStatus::kSkipped;
    if (!skipped && !session_trace[i]) {  // cancelled before it opened
      ++never_opened;
      continue;
    }
    for (const ingest::Problem& p : t.left_out) outcome.left_out.push_back(problem(p.source, p.message, false));
    if (t.out_of_memory) {
      outcome.out_of_memory.push_back(problem(t.info.path, t.problem, skipped));
    } else if (skipped) {
      outcome.skipped.push_back(problem(t.info.path, t.problem, true));
    } else if (t.status == ingest::TraceStatus::kPartial) {
      outcome.damaged.push_back(problem(t.info.path, t.problem, false));
    }
    if (t.info.damaged_packets > 0) outcome.damaged.push_back(problem(t.info.path, ingest::time_damage_text(t.info), false));
    if (skipped) continue;
    ++outcome.traces_read;
    // A trace without events (a rotated chunk of a quiet host: empty
    // packets only) has no span of its own: taking [0, 0] for it would
    // stretch its domain's span back to the epoch, and every bound with it.
    if (t.info.first_event) {
      session_.set_trace_extent(*session_trace[i], *t.info.first_event, t.info.last_event.value_or(*t.info.first_event),
                                t.info.events);
    }
    session_.set_trace_network_events(*session_trace[i], t.info.network_events);
    if (!t.info.reader.empty()) session_.set_trace_reader(*session_trace[i], t.info.reader, t.info.reader_reason);
  }
  outcome.cancelled = result.read.cancelled;
  session_.add_matching_totals(result.total);
  for (const auto& [key, statistics] : result.per_link) session_.add_link_matching(key.first, key.second, statistics);
  if (!message_kinds_.empty()) {
    std::vector<match::MatchStatistics> per_kind = result.per_kind;  // the signals' kinds are never matched
    per_kind.resize(std::min(per_kind.size(), message_kinds_.size() + 1));
    add_kind_matching(session_, per_kind, result.per_link_kind);
    for (const v1::Problem& p : message_problems(message_kinds_, result.read.traces)) {
      outcome.messages.push_back(p);
    }
  }
  if (!signals_.empty()) {
    // After the messages: they align the pairing where a link has them.
    SignalProblems signal_problems = add_signals(session_, signals_, message_kinds_.size() + 1, result.signals,
                                                 result.read.traces, session_trace);
    for (v1::Problem& p : signal_problems.input) outcome.messages.push_back(std::move(p));
    outcome.signals = std::move(signal_problems.pairing);
  }
  for (const auto* list : {&outcome.skipped, &outcome.damaged, &outcome.out_of_memory, &outcome.left_out, &outcome.usage,
                           &outcome.messages, &outcome.signals}) {
    for (const v1::Problem& p : *list) session_.add_problem(p);
  }
  if (outcome.cancelled) {
    std::string message = "reading was cancelled before the end of the traces";
    if (never_opened > 0) {
      message += "; " + std::to_string(never_opened) + (never_opened == 1 ? " trace was" : " traces were") +
                 " not opened yet";
    }
    session_.add_problem(problem("", message, false));
  } else {
    session_.finish();  // the traces' end closes the last windows
  }
  return outcome;
}

std::string Synchronization::follow(const FollowOptions& options, const LiveLoopCallbacks& callbacks,
                                    LiveLoopEnd& end) {
  if (options.match_horizon <= 0) {
    return "the match horizon to follow with must be positive, not " + std::to_string(options.match_horizon) + " ns";
  }
  LiveIngestOptions ingest;
  ingest.match.key = *match::parse_key_kind(ingest_.match_key);
  ingest.match.horizon = options.match_horizon;
  ingest.match.probe_ports = ingest_.probe_ports;
  ingest.reader.endpoints = ingest.match.key == match::KeyKind::kStrict || !ingest.match.probe_ports.empty();
  ingest.message_kinds = message_kinds_;
  ingest.signals = signals_;
  ingest.join_window = std::chrono::milliseconds(options.wait / 1'000'000);
  ingest.quiet_end = std::chrono::milliseconds(options.quiet / 1'000'000);
  ingest.reader.reader = ingest_.reader;  // a folder's packets are read as sync reads a trace
  // Each source in a reading process of its own, as sync reads each trace:
  // a damaged stream must not end the follower's process (a JVM's).
  ingest.reading_command = ingest_.reading_command;
  ingest.in_process_reason = ingest_.in_process_reason;
  // live's link budget, unless this session's options gave one.
  SessionOptions session_options = session_options_;
  if (!session_options.estimator.link_budget) session_options.estimator.link_budget = kLiveLinkBudget;
  LiveFollower follower(session_options, ingest);
  for (const std::string& source : options.sources) {
    if (source.find("://") == std::string::npos) {
      follower.add_folder(source);
      continue;
    }
    std::string problem;
    const auto url = ingest::parse_live_session_url(source, problem);
    if (!url) return problem;
    follower.add(*url);
  }
  end = follow_live(follower, options.interval, callbacks);
  return {};
}

}  // namespace tracesync::session
