// `tracesync sync`: synchronize traces, or a stream of matched messages.

#include <boost/program_options.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/command.h"
#include "cli/command_line.h"
#include "cli/duration.h"
#include "cli/exit_codes.h"
#include "cli/progress_bar.h"
#include "cli/reading_process_command.h"
#include "cli/report_writer.h"
#include "cli/slow_opening_watch.h"
#include "ingest/domain_overrides.h"
#include "ingest/match_stream.h"
#include "session/synchronization.h"
#include "snapshot/json_report.h"
#include "snapshot/text_report.h"

namespace tracesync::cli {
namespace {

constexpr std::string_view kCommand = "sync";

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
  std::vector<std::string> references;
  bool history = false;
  unsigned jobs = 0;
  bool in_process = false;
  std::string open_timeout;
  std::string match_key = "tc";
  std::string match_horizon = "10min";
  std::vector<std::string> domains;
};

po::options_description sync_options(SyncArguments& a) {
  po::options_description options("options");
  options.add_options()
      ("help,h", "print this help and exit")
      ("matches,m", po::value(&a.matches)->value_name("FILE"),
       "read matched messages ('SENDER SEND_NS RECEIVER RECV_NS' per line) from FILE, or '-' for stdin")
      ("format,f", po::value(&a.format)->value_name("FORMAT"), "report format: text (default), json, protobuf or html")
      ("output,o", po::value(&a.output)->value_name("FILE"), "write the report to FILE instead of stdout")
      ("algorithm,a", po::value(&a.algorithm)->value_name("NAME"),
       "link estimator: hull (default, exact), linreg, window-independent, window-replace, window-correlated")
      ("window", po::value(&a.window)->value_name("DURATION"), "window length of the window-* estimators (default 3s)")
      ("confidence", po::value(&a.confidence)->value_name("PERCENT"),
       "linreg's confidence interval for dropping slow round trips: 90 (default), 95 or 99")
      ("network", po::value(&a.network)->value_name("KIND"),
       "incremental (default): dynamic minimum spanning forest; baseline: recompute with Boost.Graph")
      ("reference,r", po::value(&a.references)->value_name("ID")->composing(),
       "make this clock domain (id, hostname or trace name) the reference of its island; repeatable")
      ("history", po::bool_switch(&a.history),
       "print each link's state after every message (JSON Lines with --format json), then the report")
      ("jobs,j", po::value(&a.jobs)->value_name("N"), "traces read at once (default: the number of cores)")
      ("open-timeout", po::value(&a.open_timeout)->value_name("DURATION"),
       "skip a trace babeltrace2 is still opening after DURATION (it loops on some damaged traces; a large trace "
       "may also take long): its reading process is killed, the others go on (default: no limit)")
      ("in-process", po::bool_switch(&a.in_process),
       "read traces in this process, not each in a process of its own (babeltrace2 aborting on a damaged trace "
       "then ends the run, and one it loops on needs a second Ctrl-C)")
      ("match-key", po::value(&a.match_key)->value_name("KEY"),
       "packet key: tc (default: seq, ack_seq, flags as Trace Compass) or strict (adds addresses and ports)")
      ("match-horizon", po::value(&a.match_horizon)->value_name("DURATION"),
       "how long an unmatched packet waits for its other end before it is dropped (default 10min)")
      ("domain", po::value(&a.domains)->value_name("TRACE=ID")->composing(),
       "put TRACE (a path, a trace name, or a directory above traces) in clock domain ID; repeatable");
  return options;
}

void print_help(const po::options_description& options) {
  std::cout << "usage: tracesync sync [options] TRACE_DIR...\n"
               "       tracesync sync [options] --matches FILE\n\n"
               "Synchronizes the clocks of several hosts from the messages they exchanged and prints,\n"
               "for every trace, the transform t_ref = slope * t + offset onto its island's reference,\n"
               "and for every pair of hosts, the link's quality and bounds.\n\n"
            << options
            << "\nTRACE_DIR is searched recursively: every directory holding a CTF 'metadata' file is a trace.\n"
               "A trace's clock domain is its clock's UUID, else its hostname, else its path (see --domain).\n"
            << "\nexit codes: 0 success, 1 internal error, 2 bad usage or input (the report of what was\n"
               "read before the error is still printed), 3 a trace was skipped\n";
}

// Parses the arguments into the pipeline's options; returns an error message.
std::string to_options(const SyncArguments& a, session::SessionOptions& options, session::IngestOptions& ingest) {
  ingest.jobs = a.jobs;
  if (a.in_process) ingest.in_process_reason = "--in-process was given";
  if (!a.in_process) {
    const auto command = reading_process_command();
    if (!command) return "cannot find this program's own file (/proc/self/exe) to read traces with; try --in-process";
    ingest.reading_command = *command;
  }
  if (!a.open_timeout.empty()) {
    if (a.in_process) return "--open-timeout needs each trace read in a process of its own, not --in-process";
    const auto timeout = parse_duration(a.open_timeout);
    if (!timeout || *timeout == 0) return "--open-timeout '" + a.open_timeout + "' is not a positive duration (e.g. 5min, 30s)";
    ingest.open_timeout = *timeout;
  }
  ingest.match_key = a.match_key;
  const auto horizon = parse_duration(a.match_horizon);
  if (!horizon || *horizon == 0) {
    return "--match-horizon '" + a.match_horizon + "' is not a positive duration (e.g. 10min, 30s)";
  }
  ingest.match_horizon = *horizon;
  for (const std::string& text : a.domains) {
    const auto pair = ingest::parse_domain_override(text);
    if (!pair) return "--domain '" + text + "' is not TRACE=ID";
    ingest.domain_overrides[pair->first] = pair->second;
  }
  options.estimator.algorithm = a.algorithm;
  const auto window = parse_duration(a.window);
  if (!window || *window == 0) return "--window '" + a.window + "' is not a positive duration (e.g. 3s, 500ms)";
  options.estimator.window = *window;
  options.estimator.confidence = a.confidence / 100.0;
  if (a.network == "incremental") {
    options.network = network::NetworkKind::kIncremental;
  } else if (a.network == "baseline") {
    options.network = network::NetworkKind::kBaseline;
  } else {
    return "--network must be 'incremental' or 'baseline', not '" + a.network + "'";
  }
  options.forced_references = a.references;
  return session::Synchronization::validate(options, ingest);
}

// While alive, SIGINT (Ctrl-C) sets a flag that cancels trace reading
// instead of killing the process, so the report of what was read is printed.
// Reading stops between steps; a step that never ends (babeltrace2 loops on
// some damaged traces) would make Ctrl-C useless, so a second one quits at
// once, without a report.
class InterruptGuard {
 public:
  InterruptGuard() {
    interrupted().store(false);
    previous_ = std::signal(SIGINT, on_interrupt);
  }
  ~InterruptGuard() { std::signal(SIGINT, previous_); }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  const std::atomic<bool>* flag() const { return &interrupted(); }

 private:
  static std::atomic<bool>& interrupted() {
    static std::atomic<bool> flag{false};
    return flag;
  }
  // Async-signal-safe: a lock-free exchange, write(2), _exit(2).
  static void on_interrupt(int) {
    static_assert(std::atomic<bool>::is_always_lock_free);
    if (!interrupted().exchange(true)) {
      say("\ntracesync: interrupted: stopping the reading to report what was read (Ctrl-C again quits at once)\n");
      return;
    }
    say("\ntracesync: interrupted again: quitting without a report\n");
    ::_exit(kInterrupted);
  }
  template <std::size_t N>
  static void say(const char (&text)[N]) {
    [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, text, N - 1);
  }
  void (*previous_)(int) = SIG_DFL;
};


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
bool read_matches(const std::string& name, std::istream& in, uint64_t size, session::Session& session) {
  ProgressBar progress("reading " + name);
  uint64_t lines = 0;
  const auto error = ingest::read_match_stream(in, [&](const ingest::StreamMessage& m) {
    session.add_host_message(std::string(m.sender), m.send, std::string(m.receiver), m.receive);
    if (progress.enabled() && ++lines % 65536 == 0) progress.update(static_cast<uint64_t>(in.tellg()), size);
  });
  progress.finish();
  if (!error) return true;
  std::cerr << "tracesync: " << name << ":" << error->line << ": " << error->message << "\n";
  v1::Problem problem;
  problem.set_source(name);
  problem.set_line(error->line);
  problem.set_message(error->message);
  session.add_problem(problem);
  return false;
}

}  // namespace

int run_sync(const std::vector<std::string>& arguments) {
  SyncArguments a;
  const po::options_description options = sync_options(a);
  po::variables_map vm;
  if (const std::string problem = parse_arguments(arguments, options, &a.traces, vm); !problem.empty()) {
    return usage_error(kCommand, problem);
  }
  if (vm.count("help")) {
    print_help(options);
    return kSuccess;
  }
  const auto format = parse_report_format(a.format);
  if (!format) return usage_error(kCommand, "--format must be text, json, protobuf or html, not '" + a.format + "'");
  if (a.history && (*format == ReportFormat::kProtobuf || *format == ReportFormat::kHtml)) {
    return usage_error(kCommand, "--history prints text or json, not " + a.format);
  }
  session::SessionOptions session_options;
  session::IngestOptions ingest_options;
  if (const std::string problem = to_options(a, session_options, ingest_options); !problem.empty()) {
    return usage_error(kCommand, problem);
  }
  if (a.matches.empty() && a.traces.empty()) return usage_error(kCommand, "nothing to synchronize: give trace directories or --matches FILE");

  session::Synchronization sync(session_options, ingest_options);
  session::Session& session = sync.session();
  if (a.history) {
    session.set_history_observer([&](uint64_t message, const v1::Link& link) {
      std::cout << (*format == ReportFormat::kJson ? snapshot::history_json_line(message, link)
                                                   : snapshot::history_text_line(message, link));
    });
  }

  int exit_code = kSuccess;
  bool interrupted = false;
  if (!a.traces.empty()) {
    for (const std::string& path : a.traces) {
      if (const std::string error = sync.add_trace_path(path); !error.empty()) {
        std::cerr << "tracesync: " << error << "\n";
        v1::Problem problem;
        problem.set_source(path);
        problem.set_message(error);
        problem.set_skipped(true);
        session.add_problem(problem);
        exit_code = kTraceSkipped;
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
    for (const auto& p : outcome.skipped) std::cerr << "tracesync: skipped " << p.source() << ": " << p.message() << "\n";
    for (const auto& p : outcome.damaged) std::cerr << "tracesync: " << p.source() << ": " << p.message() << " (read up to the damage)\n";
    for (const auto& p : outcome.usage) std::cerr << "tracesync: --domain " << p.source() << ": " << p.message() << "\n";
    if (!outcome.skipped.empty() || !outcome.damaged.empty()) exit_code = kTraceSkipped;
    if (!outcome.usage.empty()) exit_code = kBadInput;
    if (outcome.traces_read == 0 && a.matches.empty()) {
      std::cerr << "tracesync: no trace could be read\n";
      exit_code = kBadInput;
    }
    interrupted = outcome.cancelled;
  }
  if (!a.matches.empty()) {
    if (a.matches == "-") {
      if (!read_matches("<stdin>", std::cin, 0, session)) exit_code = kBadInput;
    } else {
      std::ifstream in(a.matches, std::ios::binary | std::ios::ate);
      if (!in) {
        std::cerr << "tracesync: cannot open match file '" << a.matches << "'\n";
        return kBadInput;
      }
      const auto size = static_cast<uint64_t>(in.tellg());
      in.seekg(0);
      if (!read_matches(a.matches, in, size, session)) exit_code = kBadInput;
    }
  }
  session.finish();

  for (const std::string& name : session.unresolved_references()) {
    std::cerr << "tracesync: --reference '" << name << "' names no clock domain, hostname or trace\n";
    v1::Problem problem;
    problem.set_source("--reference");
    problem.set_message("'" + name + "' names no clock domain, hostname or trace");
    session.add_problem(problem);
    exit_code = kBadInput;
  }
  const v1::Snapshot snapshot = sync.snapshot();
  if (const std::string error = write_report(snapshot, *format, a.output, a.history); !error.empty()) {
    std::cerr << "tracesync: " << error << "\n";
    return kInternalError;
  }
  if (interrupted) {
    std::cerr << "tracesync: interrupted; the report covers what was read\n";
    return kInterrupted;
  }
  return exit_code;
}

}  // namespace tracesync::cli
