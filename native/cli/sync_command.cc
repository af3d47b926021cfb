// SPDX-License-Identifier: EPL-2.0
// `tracesync sync`: synchronize traces, or a stream of matched messages.

#include <boost/program_options.hpp>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/colour.h"
#include "cli/command.h"
#include "cli/command_line.h"
#include "cli/duration.h"
#include "cli/event_streams.h"
#include "cli/exit_codes.h"
#include "cli/interrupt_guard.h"
#include "cli/ppm.h"
#include "cli/progress_bar.h"
#include "cli/report_writer.h"
#include "cli/slow_opening_watch.h"
#include "cli/trace_reading.h"
#include "cli/sync_command.h"
#include "ingest/domain_overrides.h"
#include "ingest/match_stream.h"
#include "ingest/network_event_names.h"
#include "probe/peer_address.h"
#include "session/signal_links.h"
#include "session/synchronization.h"
#include "snapshot/json_report.h"
#include "snapshot/people_order.h"
#include "snapshot/segment_history.h"
#include "snapshot/text_report.h"
#include "snapshot/utf8.h"

namespace tracesync::cli {
namespace {

namespace po = boost::program_options;

struct SyncArguments {
  std::vector<std::string> traces;
  std::string matches;
  std::string format = "text";
  std::string output;
  std::string algorithm = "hull";
  std::string window = "3s";
  int confidence = 90;
  std::string network = "incremental";
  std::string clock_model = "piecewise";
  std::string clock_stability;  // empty: the estimator's default
  std::vector<std::string> references;
  bool history = false;
  unsigned jobs = 0;
  bool in_process = false;
  std::string reader = "auto";
  std::string open_timeout;
  std::string match_key = "tc";
  std::string match_horizon = "10min";
  std::vector<std::string> domains;
  std::vector<std::string> messages;
  std::vector<std::string> messages_files;
  std::vector<std::string> simultaneous;
  std::vector<std::string> simultaneous_files;
  std::string certificate;
  std::vector<std::string> probe_ports;
};

// The options of `sync`; `apply` has them all but --matches (it needs
// traces to copy) and --output (its own is the directory of the copies).
po::options_description sync_options(SyncArguments& a, const SyncExtension* extension) {
  po::options_description options("options");
  options.add_options()("help,h", "print this help and exit");
  if (extension == nullptr) {
    options.add_options()
        ("matches,m", po::value(&a.matches)->value_name("FILE"),
         "read matched messages ('SENDER SEND_NS RECEIVER RECV_NS' per line) from FILE, or '-' for stdin")
        ("output,o", po::value(&a.output)->value_name("FILE"), "write the report to FILE instead of stdout");
  } else {
    extension->add_options(options);
  }
  options.add_options()
      ("format,f", po::value(&a.format)->value_name("FORMAT"), "report format: text (default), json, protobuf or html")
      ("certificate", po::value(&a.certificate)->value_name("FILE"),
       "also write the certificate of the report to FILE: the messages pinning every link's lines (each event's "
       "trace and stream file, where the reader names them) and the path of every trace's transform, for "
       "'tracesync verify' (docs/verify.md)")
      ("algorithm,a", po::value(&a.algorithm)->value_name("NAME"),
       "link estimator: hull (default, exact), linreg, window-independent, window-replace, window-correlated")
      ("window", po::value(&a.window)->value_name("DURATION"), "window length of the window-* estimators (default 3s)")
      ("confidence", po::value(&a.confidence)->value_name("PERCENT"),
       "linreg's confidence interval for dropping slow round trips: 90 (default), 95 or 99")
      ("network", po::value(&a.network)->value_name("KIND"),
       "incremental (default): dynamic minimum spanning forest; baseline: recompute with Boost.Graph")
      ("clock-model", po::value(&a.clock_model)->value_name("MODEL"),
       "piecewise (default): each link in segments, with bounds at every instant; linear: one line per link "
       "(Trace Compass's model)")
      ("clock-stability", po::value(&a.clock_stability)->value_name("PPM"),
       "the clock-stability assumption the piecewise bounds rest on, in ppm (e.g. 0.5ppm; a bare number is ppm)")
      ("reference,r", po::value(&a.references)->value_name("ID")->composing(),
       "make this clock domain (id, hostname or trace name) the reference of its island; repeatable")
      ("history", po::bool_switch(&a.history),
       "print each link's state after every message (JSON Lines with --format json), then the report")
      ("jobs,j", po::value(&a.jobs)->value_name("N"), "traces read at once (default: the number of cores); with fewer traces, their stream files are scanned "
       "on the cores left idle")
      ("open-timeout", po::value(&a.open_timeout)->value_name("DURATION"),
       "skip a trace babeltrace2 is still opening after DURATION (it loops on some damaged traces; a large trace "
       "may also take long): its reading process is killed, the others go on (default: no limit)")
      ("reader", po::value(&a.reader)->value_name("READER"),
       "which reader reads the traces: auto (default: tracesync's own scanner when it can read a trace, babeltrace2 "
       "otherwise), scanner (tracesync's own CTF reader, several times faster) or babeltrace2; the report says which "
       "read each trace and why")
      ("in-process", po::bool_switch(&a.in_process),
       "read traces in this process, not each in a process of its own (babeltrace2 aborting on a damaged trace "
       "then ends the run, and one it loops on needs a second Ctrl-C)")
      ("match-key", po::value(&a.match_key)->value_name("KEY"),
       "packet key: tc (default: seq, ack_seq, flags as Trace Compass) or strict (adds addresses and ports)")
      ("match-horizon", po::value(&a.match_horizon)->value_name("DURATION"),
       "how long an unmatched packet waits for its other end before it is dropped (default 10min)")
      ("domain", po::value(&a.domains)->value_name("TRACE=ID")->composing(),
       "put TRACE (a path, a trace name, or a directory above traces) in clock domain ID; repeatable")
      ("messages", po::value(&a.messages)->value_name("SPEC")->composing(),
       "also match application messages: SPEC is [name=NAME,]send=EVENT,recv=EVENT,key=FIELD[+FIELD...] "
       "(e.g. send=myapp:msg_send,recv=myapp:msg_recv,key=msg_id); repeatable, one kind each")
      ("messages-file", po::value(&a.messages_files)->value_name("FILE")->composing(),
       "read message SPECs from FILE, one a line ('#' begins a comment); repeatable")
      ("simultaneous", po::value(&a.simultaneous)->value_name("SPEC")->composing(),
       "also use a signal every host records at one true instant (docs/signals.md): SPEC is "
       "[name=NAME,]event=EVENT[,filter=FIELD==VALUE],jitter=DURATION[,clocks-within=DURATION] "
       "(e.g. event=gps:pps,jitter=1us); repeatable, one signal each")
      ("simultaneous-file", po::value(&a.simultaneous_files)->value_name("FILE")->composing(),
       "read signal SPECs from FILE, one a line ('#' begins a comment); repeatable")
      ("probe-port", po::value(&a.probe_ports)->value_name("PORT")->composing(),
       "the TCP port 'tracesync probe --listen' used: kernel traces' segments from or to it are counted as the "
       "probe's rounds in the report (docs/probe.md); repeatable");
  return options;
}

void print_help(const po::options_description& options, const SyncExtension* extension) {
  if (extension != nullptr) {
    std::cout << extension->usage;
  } else {
    std::cout << "usage: tracesync sync [options] TRACE_DIR...\n"
                 "       tracesync sync [options] --matches FILE\n\n"
                 "Synchronizes the clocks of several hosts from the messages they exchanged and prints,\n"
                 "for every trace, the transform t_ref = slope * t + offset onto its island's reference,\n"
                 "and for every pair of hosts, the link's quality and bounds.\n\n";
  }
  std::cout << options
            << "\nTRACE_DIR is searched recursively: every directory holding a CTF 'metadata' file is a trace.\n"
               "An extract file ('tracesync extract') stands for the traces it holds, with the same report.\n"
               "A trace's clock domain is its clock's UUID, else its hostname, else its path (see --domain).\n"
               "Kernel traces are matched by their TCP events; --messages adds an application's own send and\n"
               "receive events (lttng-ust PROVIDER:EVENT), matched by the key fields named: kinds 1.. in the\n"
               "order declared, --messages first, then each --messages-file (docs/app-messages.md).\n"
               "--simultaneous names an event every host records at one true instant (a PPS interrupt, a\n"
               "shared hardware line): its occurrences are paired across hosts by order, each pair pinning\n"
               "the two clocks within the jitter, on links with messages or none (docs/signals.md).\n"
            << "Durations take a unit: " << kDurationUnits << " (e.g. 30s, 500ms, 5min).\n"
            << "\n" << exit_codes_help();
}

// Parses the arguments into the pipeline's options; returns an error message.
std::string to_options(const SyncArguments& a, session::SessionOptions& options, session::IngestOptions& ingest) {
  ingest.jobs = a.jobs;
  auto reading = choose_trace_reading(a.reader, a.in_process);
  if (auto* why = std::get_if<std::string>(&reading)) return std::move(*why);
  ingest.reader = std::get<TraceReading>(reading).reader;
  ingest.reading_command = std::move(std::get<TraceReading>(reading).reading_command);
  if (a.in_process) ingest.in_process_reason = "--in-process was given";
  if (!a.open_timeout.empty()) {
    if (a.in_process) return "--open-timeout needs each trace read in a process of its own, not --in-process";
    if (std::string problem = read_duration_option("open-timeout", a.open_timeout, ingest.open_timeout);
        !problem.empty()) {
      return problem;
    }
  }
  ingest.match_key = a.match_key;
  if (std::string problem = read_duration_option("match-horizon", a.match_horizon, ingest.match_horizon);
      !problem.empty()) {
    return problem;
  }
  ingest.messages = a.messages;
  ingest.messages_files = a.messages_files;
  ingest.simultaneous = a.simultaneous;
  ingest.simultaneous_files = a.simultaneous_files;
  for (const std::string& text : a.probe_ports) {
    const auto port = probe::parse_port(text);
    if (const auto* why = std::get_if<std::string>(&port)) return "--probe-port: " + *why;
    ingest.probe_ports.push_back(static_cast<uint16_t>(std::get<int>(port)));
  }
  for (const std::string& text : a.domains) {
    const auto pair = ingest::parse_domain_override(text);
    if (!pair) return "--domain '" + text + "' is not TRACE=ID";
    ingest.domain_overrides[pair->first] = pair->second;
  }
  options.estimator.algorithm = a.algorithm;
  if (std::string problem = read_duration_option("window", a.window, options.estimator.window); !problem.empty()) {
    return problem;
  }
  options.estimator.confidence = a.confidence / 100.0;
  if (a.network == "incremental") {
    options.network = network::NetworkKind::kIncremental;
  } else if (a.network == "baseline") {
    options.network = network::NetworkKind::kBaseline;
  } else {
    return "--network must be 'incremental' or 'baseline', not '" + a.network + "'";
  }
  if (a.clock_model == "piecewise") {
    options.estimator.clock_model = hull::ClockModel::kPiecewise;
  } else if (a.clock_model == "linear") {
    options.estimator.clock_model = hull::ClockModel::kLinear;
  } else {
    return "--clock-model must be 'piecewise' or 'linear', not '" + a.clock_model + "'";
  }
  if (!a.clock_stability.empty()) {
    const auto ppm = parse_ppm(a.clock_stability);
    if (!ppm) return "--clock-stability '" + a.clock_stability + "' is not a rate of 0 ppm or more (e.g. 0.5ppm)";
    options.estimator.clock_stability_ppm = *ppm;
  }
  options.forced_references = a.references;
  return session::Synchronization::validate(options, ingest);
}

// Every trace being read holds file descriptors until it is done (its
// stream files, or a reading process's socket), and all are opened at the
// start: an experiment of a few thousand traces passes the usual soft limit
// of 1024. Raise it to the hard limit, as far as the system lets us.
void raise_open_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return;
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);
}

// Feeds a match stream to the session; on a malformed line, records the
// problem and returns false (what was read before it is kept).
// Its signal lines go to `signals`, folded once the whole stream is read.
bool read_matches(const std::string& name, std::istream& in, uint64_t size, session::Session& session,
                  session::StreamSignals& signals) {
  ProgressBar progress("reading " + name);
  uint64_t lines = 0;
  const auto error = ingest::read_match_stream(
      in,
      [&](const ingest::StreamMessage& m) {
        session.add_host_message(std::string(m.sender), m.send, std::string(m.receiver), m.receive);
        // Only a file's position means something (a pipe has none).
        if (progress.enabled() && size > 0 && ++lines % 65536 == 0) progress.update(static_cast<uint64_t>(in.tellg()), size);
      },
      [&](const ingest::StreamSignal& line) {
        signals[std::string(line.name)][std::string(line.host)].push_back(line.time);
      });
  progress.finish();
  if (!error) return true;
  std::cerr << "tracesync: " << snapshot::readable_text(name) << ":" << error->line << ": "
            << snapshot::readable_text(error->message) << "\n";
  v1::Problem problem;
  problem.set_source(name);
  problem.set_line(error->line);
  problem.set_message(error->message);
  session.add_problem(problem);
  return false;
}

// The match stream's signal lines, paired as the --simultaneous specs say
// (after every message: they align the pairing); what is left out is said
// on stderr, specs the lines cannot serve are bad input. Lines of a signal
// no spec names are said unused.
ExitCode fold_stream_signals(const SyncArguments& a, const session::StreamSignals& lines, session::Session& session) {
  auto specs = ingest::parse_signal_specs(a.simultaneous, a.simultaneous_files);  // valid: to_options read them
  const auto* signals = std::get_if<std::vector<ingest::SignalSpec>>(&specs);
  if (signals == nullptr) return kBadInput;
  for (const auto& [name, hosts] : lines) {
    const std::string& line_name = name;  // (clang 14: no structured binding in a lambda)
    const bool named = std::any_of(signals->begin(), signals->end(),
                                   [&](const ingest::SignalSpec& spec) { return spec.event == line_name; });
    if (named) continue;
    std::size_t count = 0;
    for (const auto& [host, times] : hosts) count += times.size();
    std::cerr << "tracesync: " << snapshot::readable_text(a.matches) << ": " << count << " signal lines of '"
              << snapshot::readable_text(name) << "' not used: name them with --simultaneous 'event="
              << snapshot::readable_text(name) << ",jitter=...' (docs/signals.md)\n";
  }
  if (signals->empty()) return kSuccess;
  const session::SignalProblems problems = session::add_stream_signals(session, *signals, lines, a.matches);
  for (const auto* list : {&problems.input, &problems.pairing}) {
    for (const v1::Problem& p : *list) {
      std::cerr << "tracesync: " << (p.source().empty() ? "" : snapshot::readable_text(p.source()) + ": ")
                << snapshot::readable_text(p.message()) << "\n";
      session.add_problem(p);
    }
  }
  return problems.input.empty() ? kSuccess : kBadInput;
}

// Says on stderr what a reader of the report must not miss: a trace without
// network events, an experiment without any link, a lone trace, and every
// trace that is not synchronized with the rest. Returns the exit code this
// deserves.
ExitCode tell_what_is_not_synchronized(const v1::Snapshot& s) {
  const std::vector<int> order = snapshot::traces_for_people(s);
  for (const int i : order) {
    const v1::Trace& t = s.traces(i);
    if (t.has_network_events() && t.network_events() == 0) {
      std::cerr << "tracesync: " << (t.path().empty() ? t.name() : t.path())
                << " holds none of the network events tracesync reads (" << ingest::network_event_names_text()
                << "); see docs/recording.md\n";
    }
  }
  if (s.traces_size() == 1) {
    std::cerr << "tracesync: only one trace (" << s.traces(0).name() << "): there is nothing to synchronize it with\n";
    return kSuccess;
  }
  if (s.traces_size() > 1 && s.links_size() == 0) {
    std::cerr << "tracesync: no link could be built: no message sent by one traced host was received by another ("
              << s.matching().sends() << " sends, " << s.matching().receives() << " receives, "
              << s.matching().matches() << " matched)\n";
  }
  ExitCode code = kSuccess;
  for (const int i : order) {
    const v1::Trace& t = s.traces(i);
    if (t.synchronized()) continue;
    std::cerr << "tracesync: " << t.name() << " is " << red("not synchronized", colour_wanted(STDERR_FILENO))
              << " with the rest: " << t.unsynchronized_reason() << "\n";
    code = kNotSynchronized;
  }
  return code;
}

}  // namespace

int run_sync_command(const std::vector<std::string>& arguments, const SyncExtension* extension) {
  const std::string_view command_name = extension != nullptr ? extension->command : "sync";
  SyncArguments a;
  const po::options_description options = sync_options(a, extension);
  po::variables_map vm;
  if (const std::string problem = parse_arguments(arguments, options, &a.traces, vm); !problem.empty()) {
    return usage_error(command_name, problem);
  }
  if (vm.count("help")) {
    print_help(options, extension);
    return kSuccess;
  }
  if (extension != nullptr) {
    if (a.traces.empty()) return usage_error(command_name, "give the trace directories to synchronize and copy");
    if (const std::string problem = extension->check(a.traces); !problem.empty()) return usage_error(command_name, problem);
  }
  const auto format = parse_report_format(a.format);
  if (!format) return usage_error(command_name, "--format must be text, json, protobuf or html, not '" + a.format + "'");
  if (*format == ReportFormat::kProtobuf && a.output.empty() && isatty(STDOUT_FILENO) == 1) {
    return usage_error(command_name, "refusing to write binary protobuf to a terminal; use --output FILE or a pipe");
  }
  if (a.history && (*format == ReportFormat::kProtobuf || *format == ReportFormat::kHtml)) {
    return usage_error(command_name, "--history prints text or json, not " + a.format);
  }
  session::SessionOptions session_options;
  session::IngestOptions ingest_options;
  if (const std::string problem = to_options(a, session_options, ingest_options); !problem.empty()) {
    return usage_error(command_name, problem);
  }
  // The HTML report's proof compares latencies before and after: it keeps
  // every message (16 bytes each) until the end. Other formats do not.
  session_options.keep_latency_evidence = *format == ReportFormat::kHtml;
  if (a.matches.empty() && a.traces.empty()) return usage_error(command_name, "nothing to synchronize: give trace directories or --matches FILE");
  if (std::error_code error; a.matches != "-" && std::filesystem::is_directory(a.matches, error)) {
    // Said before any trace is read, so that nothing read is lost.
    return usage_error(command_name, "--matches '" + a.matches +
                                     "' is a directory; give a match file (trace directories go without --matches)");
  }

  session::Synchronization sync(session_options, ingest_options);
  session::Session& session = sync.session();
  // The certificate names the stream file of each event it cites.
  EventStreams event_streams;
  if (!a.certificate.empty() && !a.traces.empty()) sync.set_event_observer(&event_streams);
  if (a.history) {
    session.set_history_observer([&](uint64_t message, const v1::Link& link) {
      std::cout << (*format == ReportFormat::kJson ? snapshot::history_json_line(message, link)
                                                   : snapshot::history_text_line(message, link));
    });
    session.set_segment_observer([&](uint64_t message, const v1::Link& link, uint32_t previous,
                                     const std::vector<v1::LinkSegment>& segments) {
      std::cout << (*format == ReportFormat::kJson
                        ? snapshot::segment_history_json_line(message, link, previous, segments)
                        : snapshot::segment_history_text_line(message, link, previous, segments));
    });
  }

  ExitCode exit_code = kSuccess;
  const auto note_exit = [&](ExitCode code) { exit_code = worse(exit_code, code); };
  int interrupted_exit = 0;  // 128 + the signal that cut the reading short
  if (!a.traces.empty()) {
    for (const std::string& path : a.traces) {
      if (const std::string error = sync.add_trace_path(path); !error.empty()) {
        std::cerr << "tracesync: " << snapshot::readable_text(error) << "\n";
        v1::Problem problem;
        problem.set_source(path);
        problem.set_message(error);
        problem.set_skipped(true);
        session.add_problem(problem);
        note_exit(kTraceSkipped);
      }
    }
    raise_open_file_limit();
    ProgressBar progress("reading traces");
    const InterruptGuard interrupt;
    const SlowOpeningWatch slow_openings(
        SlowOpeningWatch::default_patience(),
        a.in_process             ? "press Ctrl-C twice and leave that trace out"
        : a.open_timeout.empty() ? "press Ctrl-C (the other traces are reported) or give --open-timeout, and leave "
                                   "that trace out"
                                 : "it is skipped after --open-timeout " + a.open_timeout);
    session::ProgressCallback show_progress;
    if (progress.enabled()) {
      show_progress = [&](const session::RunProgress& p) {
        progress.update(p.bytes_done, p.bytes_total);
        return true;
      };
    }
    const session::RunOutcome outcome = sync.run(show_progress, interrupt.flag());
    progress.finish();
    // Names from the input may not be UTF-8: their readable text, as in the report.
    const auto said = [](const v1::Problem& p) {
      return snapshot::readable_text(p.source()) + ": " + snapshot::readable_text(p.message());
    };
    for (const auto& p : outcome.skipped) std::cerr << "tracesync: skipped " << said(p) << "\n";
    for (const auto& p : outcome.damaged) std::cerr << "tracesync: " << said(p) << " (what was read before stands)\n";
    for (const auto& p : outcome.left_out) std::cerr << "tracesync: " << said(p) << "\n";
    // Not the trace's fault: the exit code of a resource error, not of a bad trace.
    for (const auto& p : outcome.out_of_memory) {
      std::cerr << "tracesync: " << said(p) << (p.skipped() ? "" : " (what was read before stands)")
                << "; give tracesync more memory\n";
    }
    for (const auto& p : outcome.usage) std::cerr << "tracesync: --domain " << said(p) << "\n";
    // A spec the traces cannot serve: the user's to fix, as a bad option is.
    for (const auto& p : outcome.messages) {
      std::cerr << "tracesync: " << (p.source().empty() ? snapshot::readable_text(p.message()) : said(p)) << "\n";
    }
    for (const auto& p : outcome.signals) std::cerr << "tracesync: " << snapshot::readable_text(p.message()) << "\n";
    if (!outcome.messages.empty()) note_exit(kBadInput);
    if (!outcome.skipped.empty() || !outcome.damaged.empty() || !outcome.left_out.empty()) note_exit(kTraceSkipped);
    if (!outcome.out_of_memory.empty()) note_exit(kInternalError);
    if (!outcome.usage.empty()) note_exit(kBadInput);
    if (outcome.traces_read == 0 && a.matches.empty()) {
      std::cerr << "tracesync: no trace could be read\n";
      note_exit(kBadInput);
    }
    if (outcome.cancelled) interrupted_exit = interrupt.signal() != 0 ? interrupt.exit_code() : kInterrupted;
  }
  if (!a.matches.empty()) {
    session::StreamSignals signal_lines;
    if (a.matches == "-") {
      if (!read_matches("<stdin>", std::cin, 0, session, signal_lines)) note_exit(kBadInput);
    } else {
      // Any kind of stream: `--matches <(cmd)` is a pipe, and a pipe cannot
      // seek, so the size (for progress) comes from stat, for files only.
      struct stat status {};
      const bool found = stat(a.matches.c_str(), &status) == 0;
      if (found && S_ISDIR(status.st_mode)) {
        std::cerr << "tracesync: --matches '" << snapshot::readable_text(a.matches)
                  << "' is a directory; give a match file (trace directories go without --matches)\n";
        return kBadInput;
      }
      std::ifstream in(a.matches, std::ios::binary);
      if (!found || !in) {
        std::cerr << "tracesync: cannot open match file '" << snapshot::readable_text(a.matches) << "': " << std::strerror(errno) << "\n";
        return kBadInput;
      }
      const uint64_t size = S_ISREG(status.st_mode) ? static_cast<uint64_t>(status.st_size) : 0;
      if (!read_matches(a.matches, in, size, session, signal_lines)) note_exit(kBadInput);
    }
    note_exit(fold_stream_signals(a, signal_lines, session));
  }
  session.finish();

  for (const std::string& name : session.unresolved_references()) {
    std::cerr << "tracesync: --reference '" << snapshot::readable_text(name) << "' names no clock domain, hostname or trace\n";
    v1::Problem problem;
    problem.set_source("--reference");
    problem.set_message("'" + name + "' names no clock domain, hostname or trace");
    session.add_problem(problem);
    note_exit(kBadInput);
  }
  const v1::Snapshot snapshot = sync.last_snapshot();
  note_exit(tell_what_is_not_synchronized(snapshot));
  // A run that read nothing has nothing to show in tables: the errors said
  // it. Scripts still get the JSON or protobuf report with its problems.
  if (snapshot.traces_size() > 0 || *format != ReportFormat::kText) {
    if (const std::string error = write_report(snapshot, *format, a.output, a.history); !error.empty()) {
      std::cerr << "tracesync: " << snapshot::readable_text(error) << "\n";
      return kInternalError;
    }
  }
  if (!a.certificate.empty()) {
    snapshot::EventCitation cite;
    if (!a.traces.empty()) {
      cite = [&](const std::vector<std::string>& senders, int64_t send, const std::vector<std::string>& receivers,
                 int64_t receive) { return event_streams.cite(senders, send, receivers, receive); };
    }
    if (const std::string error = write_certificate(snapshot, a.certificate, cite); !error.empty()) {
      std::cerr << "tracesync: " << snapshot::readable_text(error) << "\n";
      return kInternalError;
    }
  }
  if (interrupted_exit != 0) {
    std::cerr << "tracesync: interrupted; the report covers what was read\n";
    return exit_code == kInternalError ? static_cast<int>(exit_code) : interrupted_exit;  // only 1 is worse
  }
  if (extension != nullptr) return extension->after_report(snapshot, exit_code);
  return exit_code;
}

int run_sync(const std::vector<std::string>& arguments) { return run_sync_command(arguments, nullptr); }

}  // namespace tracesync::cli
