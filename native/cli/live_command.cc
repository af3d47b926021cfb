// SPDX-License-Identifier: EPL-2.0
// `tracesync live`: synchronize LTTng live sessions while they are recorded,
// printing a new result whenever it changes materially.

#include <boost/program_options.hpp>

#include <malloc.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iostream>
#include <sstream>
#include <thread>
#include <variant>

#include "base/whole_file.h"
#include "cli/command.h"
#include "cli/command_line.h"
#include "cli/duration.h"
#include "cli/exit_codes.h"
#include "cli/interrupt_guard.h"
#include "cli/trace_reading.h"
#include "hull/piecewise_hull_estimator.h"
#include "ingest/message_spec.h"
#include "ingest/signal_spec.h"
#include "match/packet_key.h"
#include "probe/peer_address.h"
#include "session/live_follower.h"
#include "session/live_loop.h"
#include "session/point_log.h"
#include "snapshot/html_report.h"
#include "snapshot/json_report.h"
#include "snapshot/utf8.h"

namespace tracesync::cli {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kCommand = "live";

struct LiveArguments {
  std::vector<std::string> urls;
  std::string output;
  std::string interval = "1s";
  std::string wait;  // empty: no waiting
  std::string quiet = "10s";
  std::string match_key = "tc";
  std::string match_horizon;  // empty: session::kLiveMatchHorizon (1min), not sync's 10min
  std::string clock_model = "piecewise";
  std::string link_budget;  // empty: session::kLiveLinkBudget (64 Ki messages), not sync's 1 Mi
  std::vector<std::string> references;
  std::vector<std::string> messages;
  std::vector<std::string> messages_files;
  std::vector<std::string> simultaneous;
  std::vector<std::string> simultaneous_files;
  std::vector<std::string> probe_ports;
  std::string reader = "auto";
  bool in_process = false;
};

po::options_description live_options(LiveArguments& a) {
  po::options_description options("options");
  options.add_options()
      ("help,h", "print this help and exit")
      ("output,o", po::value(&a.output)->value_name("FILE"),
       "also keep FILE an HTML report of the latest result (rewritten atomically); its latency proof's messages, "
       "16 bytes each, wait in temporary files in $TMPDIR (or /tmp)")
      ("interval,i", po::value(&a.interval)->value_name("DURATION"),
       "at most one result per DURATION (default 1s), and per ten times the last result's computing time: a "
       "result is printed when it changed materially since the last one printed")
      ("wait", po::value(&a.wait)->value_name("DURATION"),
       "look for a session the relay does not have yet, or a trace in a folder that has none yet (a host that "
       "joins late), until DURATION after the start (default: not found fails at once)")
      ("quiet", po::value(&a.quiet)->value_name("DURATION"),
       "a trace folder to which nothing was written for DURATION is taken as ended (default 10s): LTTng leaves "
       "no mark on a folder when its session stops")
      ("messages", po::value(&a.messages)->value_name("SPEC")->composing(),
       "also match application messages, as `sync --messages`: [name=NAME,]send=EVENT,recv=EVENT,key=FIELD[+FIELD...]; "
       "repeatable (docs/app-messages.md)")
      ("messages-file", po::value(&a.messages_files)->value_name("FILE")->composing(),
       "read more message specs from FILE, one per line, as `sync --messages-file`")
      ("simultaneous", po::value(&a.simultaneous)->value_name("SPEC")->composing(),
       "also use a signal every host records at one true instant, as `sync --simultaneous`: "
       "[name=NAME,]event=EVENT[,filter=FIELD==VALUE],jitter=DURATION[,clocks-within=DURATION]; repeatable "
       "(docs/signals.md). Paired at each result over the occurrences read so far")
      ("simultaneous-file", po::value(&a.simultaneous_files)->value_name("FILE")->composing(),
       "read more signal specs from FILE, one per line, as `sync --simultaneous-file`")
      ("probe-port", po::value(&a.probe_ports)->value_name("PORT")->composing(),
       "the TCP port 'tracesync probe --listen' used: kernel traces' segments from or to it are counted as the "
       "probe's rounds, as `sync --probe-port` (docs/probe.md); repeatable")
      ("clock-model", po::value(&a.clock_model)->value_name("MODEL"),
       "piecewise (default): each link in segments, with bounds at every instant; linear: one line per link")
      ("link-budget", po::value(&a.link_budget)->value_name("MESSAGES"),
       ("the piecewise model's messages a link keeps before it streams its local bands (default " +
        std::to_string(session::kLiveLinkBudget) + ", about a minute at 1,000 messages a second; sync keeps " +
        std::to_string(hull::PiecewiseHullEstimator::kKeepAtMost) +
        "): past it a link's memory and a result's cost stop growing, its results the same (docs/live.md)")
           .c_str())
      ("reference,r", po::value(&a.references)->value_name("ID")->composing(),
       "make this clock domain (id, hostname or trace name) the reference of its island; repeatable")
      ("reader", po::value(&a.reader)->value_name("READER"),
       "how a folder's packets are read, as `sync --reader`: auto (default), scanner or babeltrace2 (a live "
       "session is read by babeltrace2)")
      ("in-process", po::bool_switch(&a.in_process),
       "read every session and folder in this process, not each in a reading process of its own (where "
       "babeltrace2 aborting on a damaged stream costs that source only, a folder whose process is killed "
       "is read on in a new one, and a live session attached again, what the relay no longer serves named "
       "as a gap)")
      ("match-key", po::value(&a.match_key)->value_name("KEY"),
       "packet key: tc (default) or strict (adds addresses and ports)")
      ("match-horizon", po::value(&a.match_horizon)->value_name("DURATION"),
       "how long an unmatched message waits for its other end before it is dropped (default 1min; "
       "sync's is 10min): every message whose ends are recorded at most DURATION apart is matched, the others "
       "are counted (expired, unmatched)");
  return options;
}

void print_help(const po::options_description& options) {
  std::cout << "usage: tracesync live [options] (net://HOST[:PORT]/host/HOSTNAME/SESSION | DIR)...\n\n"
               "Follows LTTng live sessions as lttng-relayd streams them, and trace folders (DIR) as a\n"
               "session writes them (`lttng create --output DIR`, channels with a --switch-timer: only\n"
               "whole packets are read), and synchronizes their clocks while they are recorded. Each\n"
               "time the result changes materially (a trace's transform or bound moves by a nanosecond\n"
               "or more, a link's quality changes, a host joins or leaves, a problem appears), at most\n"
               "once per --interval, prints it as one JSON object per line on\n"
               "stdout (the schema of `tracesync sync --format json`). Ends when every session has\n"
               "ended (a folder: nothing written to it for --quiet, or a rotating session's last trace\n"
               "chunk archived), printing the final result: what `tracesync sync` gives on the recorded\n"
               "traces. Ctrl-C prints the last result and ends.\n\n"
            << options
            << "\n`babeltrace2 -i lttng-live net://HOST:PORT` lists a relay's sessions; the relay serves each\n"
               "session to one viewer at a time, from its newest data on (start following before the hosts\n"
               "send, or sync the relay's files afterwards for what came before).\n"
               "A per-CPU stream file that records nothing holds a folder's results back until its session\n"
               "ends: give the session a rotation schedule (`lttng enable-rotation --timer 1s`) and follow\n"
               "its output folder; each rotation moves a quiet stream on, and results wait at most a period.\n"
               "--simultaneous pairs a signal's occurrences read so far at each result and folds into the links\n"
               "the pairs no later occurrence can change; the final result pairs them as `tracesync sync`\n"
               "does (docs/signals.md). --probe-port counts tracesync probe's rounds as `sync` does.\n"
               "The final result is `tracesync sync`'s given the same --match-horizon: live's default (1min)\n"
               "is shorter than sync's (10min), so that a horizon of messages held stays small over hours.\n"
            << "Durations take a unit: " << kDurationUnits << " (e.g. 30s, 500ms, 5min).\n"
            << "\n" << exit_codes_help();
}

// Written whole, then renamed over FILE (base::write_whole_file): a reader of
// FILE sees the old report or the new one, never half of one.
std::string write_html_atomically(const v1::Snapshot& snapshot, const std::string& path) {
  const std::string html = snapshot::to_html(snapshot);
  const std::string why = base::write_whole_file(
      path, [&](std::ostream& out) { out.write(html.data(), static_cast<std::streamsize>(html.size())); });
  return why.empty() ? "" : "could not write the report to '" + path + "': " + why;
}

// Prints a result: a JSON line on stdout, the HTML report with -o.
bool emit(const v1::Snapshot& snapshot, const std::string& output) {
  std::string line = snapshot::to_json(snapshot, -1);
  if (line.empty() || line.back() != '\n') line += '\n';
  std::cout << line;
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "tracesync: could not write a result to standard output\n";
    return false;
  }
  if (!output.empty()) {
    if (const std::string error = write_html_atomically(snapshot, output); !error.empty()) {
      std::cerr << "tracesync: " << snapshot::readable_text(error) << "\n";
      return false;
    }
  }
  return true;
}

std::string_view news_word(session::LiveNews::Kind kind) {
  switch (kind) {
    case session::LiveNews::Kind::kOpened: return "following";
    case session::LiveNews::Kind::kEnded: return "ended";
    case session::LiveNews::Kind::kFailed: return "lost";
    case session::LiveNews::Kind::kWaiting: return "waiting for";
    case session::LiveNews::Kind::kResumed: return "resumed";
    case session::LiveNews::Kind::kGap: return "gap in";
  }
  return "";
}

}  // namespace

int run_live(const std::vector<std::string>& arguments) {
  LiveArguments a;
  const po::options_description options = live_options(a);
  po::variables_map vm;
  if (const std::string problem = parse_arguments(arguments, options, &a.urls, vm); !problem.empty()) {
    return usage_error(kCommand, problem);
  }
  if (vm.count("help")) {
    print_help(options);
    return kSuccess;
  }
  if (a.urls.empty()) {
    return usage_error(kCommand,
                       "give the live sessions (net://HOST:PORT/host/HOSTNAME/SESSION) or trace folders to follow");
  }
  session::LiveIngestOptions ingest;
  ingest.match.horizon = session::kLiveMatchHorizon;
  session::SessionOptions session_options;
  model::Nanoseconds interval = 0;
  model::Nanoseconds wait = 0;
  model::Nanoseconds quiet = 0;
  for (const auto& [name, text, out] : {std::tuple{"interval", &a.interval, &interval}, {"wait", &a.wait, &wait},
                                        {"quiet", &a.quiet, &quiet},
                                        {"match-horizon", &a.match_horizon, &ingest.match.horizon}}) {
    if (text->empty()) continue;
    if (std::string problem = read_duration_option(name, *text, *out); !problem.empty()) {
      return usage_error(kCommand, problem);
    }
  }
  ingest.join_window = std::chrono::milliseconds(wait / 1'000'000);
  ingest.quiet_end = std::chrono::milliseconds(quiet / 1'000'000);
  // Each source in a process of its own (unless --in-process), as sync reads each trace.
  auto reading = choose_trace_reading(a.reader, a.in_process);
  if (const auto* why = std::get_if<std::string>(&reading)) return usage_error(kCommand, *why);
  ingest.reader.reader = std::get<TraceReading>(reading).reader;
  ingest.reading_command = std::move(std::get<TraceReading>(reading).reading_command);
  if (a.in_process) ingest.in_process_reason = "--in-process was given";
  const auto key = match::parse_key_kind(a.match_key);
  if (!key) return usage_error(kCommand, "--match-key must be 'tc' or 'strict', not '" + a.match_key + "'");
  ingest.match.key = *key;
  for (const std::string& text : a.probe_ports) {
    const auto port = probe::parse_port(text);
    if (const auto* why = std::get_if<std::string>(&port)) return usage_error(kCommand, "--probe-port: " + *why);
    ingest.match.probe_ports.push_back(static_cast<uint16_t>(std::get<int>(port)));
  }
  // The ports are read with the addresses (--match-key strict, --probe-port).
  ingest.reader.endpoints = *key == match::KeyKind::kStrict || !ingest.match.probe_ports.empty();
  if (a.clock_model == "piecewise") {
    session_options.estimator.clock_model = hull::ClockModel::kPiecewise;
  } else if (a.clock_model == "linear") {
    session_options.estimator.clock_model = hull::ClockModel::kLinear;
  } else {
    return usage_error(kCommand, "--clock-model must be 'piecewise' or 'linear', not '" + a.clock_model + "'");
  }
  session_options.estimator.link_budget = session::kLiveLinkBudget;
  if (!a.link_budget.empty()) {
    // from_chars refuses a sign, which stoull would wrap around.
    const char* end = a.link_budget.data() + a.link_budget.size();
    std::size_t budget = 0;
    const auto [stop, error] = std::from_chars(a.link_budget.data(), end, budget);
    if (error != std::errc() || stop != end || budget == 0) {
      return usage_error(kCommand, "--link-budget must be a count of messages, 1 or more, not '" + a.link_budget + "'");
    }
    session_options.estimator.link_budget = budget;
  }
  session_options.forced_references = a.references;
  if (!a.messages.empty() || !a.messages_files.empty()) {
    auto specs = ingest::parse_message_specs(a.messages, a.messages_files);
    if (const auto* why = std::get_if<std::string>(&specs)) return usage_error(kCommand, *why);
    ingest.message_kinds = std::get<std::vector<ingest::MessageSpec>>(std::move(specs));
  }
  if (!a.simultaneous.empty() || !a.simultaneous_files.empty()) {
    auto signals = ingest::parse_signal_specs(a.simultaneous, a.simultaneous_files);
    if (const auto* why = std::get_if<std::string>(&signals)) return usage_error(kCommand, *why);
    ingest.signals = std::get<std::vector<ingest::SignalSpec>>(std::move(signals));
    const auto kinds = ingest::reading_kinds(ingest.message_kinds, ingest.signals);
    if (const auto* why = std::get_if<std::string>(&kinds)) return usage_error(kCommand, *why);
  }
  // The HTML report's latency proof keeps every message (16 bytes each), in
  // temporary files: memory stays flat however long the recording.
  if (!a.output.empty()) {
    session_options.keep_latency_evidence = true;
    session_options.latency_evidence_on_disk = true;
    if (const std::string why = session::PointLog::cannot_make_file(); !why.empty()) {
      return usage_error(kCommand, "-o keeps the latency proof's messages in temporary files, and " + why +
                                       " (give TMPDIR a directory that can hold them)");
    }
  }
  if (std::string problem = session::validate(session_options); !problem.empty()) return usage_error(kCommand, problem);

  session::LiveFollower follower(session_options, ingest);
  for (const std::string& text : a.urls) {
    if (text.find("://") == std::string::npos) {
      follower.add_folder(text);  // a trace folder being written
      continue;
    }
    std::string problem;
    const auto url = ingest::parse_live_session_url(text, problem);
    if (!url) return usage_error(kCommand, problem);
    follower.add(*url);
  }

  // glibc raises its mmap threshold each time a large block is freed, and
  // then serves later large blocks (each result's copy of the links'
  // streams) from the heap, which they leave in pieces: followed for
  // minutes, the resident memory grew while the memory in use stayed flat
  // (docs/live.md, "What grew 1.5 bytes a message"). A fixed threshold
  // keeps large blocks in their own mappings, given back when freed.
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);

  const InterruptGuard interrupt;
  ExitCode exit_code = kSuccess;
  bool output_failed = false;
  session::LiveLoopCallbacks callbacks;
  callbacks.keep_going = [&] { return !interrupt.flag()->load(); };
  callbacks.on_news = [&](const session::LiveNews& news) {
    std::cerr << "tracesync: " << news_word(news.kind) << " " << snapshot::readable_text(news.url) << ": "
              << snapshot::readable_text(news.text) << "\n";
    if (news.kind == session::LiveNews::Kind::kFailed || news.kind == session::LiveNews::Kind::kGap) {
      exit_code = worse(exit_code, kTraceSkipped);
    }
  };
  callbacks.on_result = [&](const v1::Snapshot& snapshot) {
    output_failed = !emit(snapshot, a.output) || output_failed;
  };
  const session::LiveLoopEnd end = session::follow_live(follower, interval, callbacks);
  const bool interrupted = end.stopped;
  const v1::Snapshot& final_result = end.final_result;
  output_failed = !emit(final_result, a.output) || output_failed;
  if (output_failed) return kInternalError;
  // As `sync` tells them: what the signals could not serve is bad input.
  const session::SignalProblems& signal_problems = follower.signal_problems();
  for (const auto* list : {&signal_problems.input, &signal_problems.pairing}) {
    for (const v1::Problem& p : *list) {
      std::cerr << "tracesync: " << (p.source().empty() ? "" : snapshot::readable_text(p.source()) + ": ")
                << snapshot::readable_text(p.message()) << "\n";
    }
  }
  if (!signal_problems.input.empty()) exit_code = worse(exit_code, kBadInput);
  for (const v1::Trace& t : final_result.traces()) {
    if (t.synchronized()) continue;
    std::cerr << "tracesync: " << snapshot::readable_text(t.name())
              << " is not synchronized with the rest: " << snapshot::readable_text(t.unsynchronized_reason()) << "\n";
    exit_code = worse(exit_code, kNotSynchronized);
  }
  if (interrupted) {
    std::cerr << "tracesync: interrupted; the last result covers what was read\n";
    return interrupt.exit_code();
  }
  return exit_code;
}

}  // namespace tracesync::cli
