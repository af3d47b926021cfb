// SPDX-License-Identifier: EPL-2.0
// `tracesync probe`: round trips of our own between hosts that are being
// traced, for experiments whose hosts exchange too little to be synchronized
// (docs/probe.md). One side listens, the others name it; at start, at stop
// and, if asked, periodically, each connection carries a burst of round
// trips, which kernel traces record as TCP messages and, where lttng-ust is
// installed, user-space traces as messages of the built-in kind `probe`.

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <csignal>
#include <iostream>

#include "cli/command.h"
#include "cli/command_line.h"
#include "cli/duration.h"
#include "cli/exit_codes.h"
#include "probe/peer_address.h"
#include "probe/prober.h"
#include "probe/ust_events.h"

namespace tracesync::cli {
namespace {

constexpr std::string_view kCommand = "probe";
constexpr int kMaxRounds = 1000;
constexpr model::Nanoseconds kShortestPeriod = 1'000'000'000;
// Periodic mode's budget: on average at most this many round trips a second
// (measured: about 6 us of CPU a round trip on each end, docs/probe.md).
constexpr int kMostRoundsPerSecond = 20;

namespace po = boost::program_options;

volatile std::sig_atomic_t stop_requested = 0;

extern "C" void on_stop(int signal) {
  if (stop_requested != 0) _exit(128 + signal);  // a second signal: at once
  stop_requested = signal;
}

// While alive: SIGINT, SIGTERM and SIGHUP stop the probe (after its last
// bursts); they are blocked except inside ppoll(), so none is lost.
class StopSignals {
 public:
  StopSignals() {
    sigemptyset(&blocked_);
    for (const int s : kSignals) sigaddset(&blocked_, s);
    sigprocmask(SIG_BLOCK, &blocked_, &wait_mask_);
    for (const int s : kSignals) sigdelset(&wait_mask_, s);
    struct sigaction action = {};
    action.sa_handler = on_stop;
    sigemptyset(&action.sa_mask);
    for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &action, &previous_[i]);
  }
  ~StopSignals() {
    for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &previous_[i], nullptr);
    sigprocmask(SIG_UNBLOCK, &blocked_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  const sigset_t* wait_mask() const { return &wait_mask_; }

 private:
  static constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};
  sigset_t blocked_{};
  sigset_t wait_mask_{};
  struct sigaction previous_[3] = {};
};

int64_t cpu_us() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1'000'000LL + usage.ru_utime.tv_usec +
         usage.ru_stime.tv_usec;
}

// One line a burst on stdout: key=value, stable for scripts.
void print_burst(const probe::BurstResult& burst) {
  std::cout << "burst cause=" << probe::cause_name(burst.cause) << " peer=" << burst.peer
            << " rounds=" << burst.rtt_ns.size() << " asked=" << burst.asked;
  if (!burst.rtt_ns.empty()) {
    std::vector<int64_t> sorted = burst.rtt_ns;
    std::sort(sorted.begin(), sorted.end());
    std::cout << " rtt_min_ns=" << sorted.front() << " rtt_median_ns=" << sorted[sorted.size() / 2]
              << " rtt_max_ns=" << sorted.back();
  }
  std::cout << (burst.problem.empty() ? " whole=yes" : " whole=no") << std::endl;
}

void print_help(const po::options_description& options) {
  std::cout << "usage: tracesync probe [options] [HOST:PORT...]\n\n"
               "Exchanges round trips of its own with other hosts while they are traced, so that hosts that\n"
               "exchange too little can still be synchronized. Run it on every host: one (or each) listens\n"
               "(--listen PORT), the others name their peers (HOST:PORT..., or --peers FILE for a mesh). At\n"
               "start, at stop (SIGINT, SIGTERM, SIGHUP or --duration) and every --every, each connection\n"
               "carries a burst of --rounds round trips, one TCP segment a message: kernel traces pair them as\n"
               "TCP messages. Where tracesync's lttng-ust provider can be loaded, it also records\n"
               "tracesync_probe:round_send and round_recv events; 'tracesync sync --messages probe' pairs them\n"
               "in user-space traces, with no kernel tracing.\n"
               "A peer that does not connect or answer within --timeout is named on stderr and skipped.\n"
               "stdout: 'listening port=N', then one line a burst (cause, peer, rounds, round-trip times),\n"
               "then 'summary ...' with the CPU time used.\n"
               "exit codes: 0 every named peer answered a whole burst; 4 one never did (its link has no probe\n"
               "rounds); 2 bad usage, a peer that cannot be resolved, a port that cannot be listened on; 1 an\n"
               "internal error. A stop by signal is the normal end (0); a second signal quits at once (128+N).\n\n"
            << options;
}

}  // namespace

int run_probe(const std::vector<std::string>& arguments) {
  std::string listen;
  std::vector<std::string> peer_files;
  std::string rounds_text = "50";
  std::string timeout_text = "1s";
  std::string every_text;
  std::string duration_text;
  std::string ust = "auto";
  po::options_description options("options");
  options.add_options()
      ("help,h", "print this help and exit")
      ("listen,l", po::value(&listen)->value_name("[HOST:]PORT"),
       "answer (and start bursts with) peers that connect to PORT (0: any free port, printed)")
      ("peers", po::value(&peer_files)->value_name("FILE"),
       "the peers to connect to, one HOST:PORT a line (# comments); repeatable, with or instead of HOST:PORT...")
      ("rounds,n", po::value(&rounds_text)->value_name("N"),
       "round trips a burst, 1 to 1000 (default 50)")
      ("every", po::value(&every_text)->value_name("DURATION"),
       "also a burst on every connection this often (at least 1s, and at most 20 round trips a second on average; "
       "e.g. 30s, 5min); default: start and stop only")
      ("duration", po::value(&duration_text)->value_name("DURATION"),
       "stop by itself after this long (default: at SIGINT, SIGTERM or SIGHUP)")
      ("timeout", po::value(&timeout_text)->value_name("DURATION"),
       "a peer that does not connect, or answer a round, within this is named and skipped (default 1s)")
      ("ust", po::value(&ust)->value_name("WHEN"),
       "lttng-ust events: auto (when the provider loads, default), on (an error when it does not), off");
  std::vector<std::string> peer_texts;
  po::variables_map vm;
  if (const std::string problem = parse_arguments(arguments, options, &peer_texts, vm); !problem.empty()) {
    return usage_error(kCommand, problem);
  }
  if (vm.count("help")) {
    print_help(options);
    return kSuccess;
  }

  probe::ProbeOptions probe_options;
  if (!listen.empty()) {
    const bool port_only = listen.find(':') == std::string::npos;
    if (port_only && listen == "0") {
      probe_options.listen = probe::PeerAddress{"", "0", listen};
    } else if (port_only) {
      auto port = probe::parse_port(listen);
      if (auto* why = std::get_if<std::string>(&port)) return usage_error(kCommand, "--listen: " + *why);
      probe_options.listen = probe::PeerAddress{"", listen, listen};
    } else {
      auto where = probe::parse_peer_address(listen);
      if (auto* why = std::get_if<std::string>(&where)) return usage_error(kCommand, "--listen: " + *why);
      probe_options.listen = std::get<probe::PeerAddress>(std::move(where));
    }
  }
  for (const std::string& text : peer_texts) {
    auto peer = probe::parse_peer_address(text);
    if (auto* why = std::get_if<std::string>(&peer)) return usage_error(kCommand, *why);
    probe_options.peers.push_back(std::get<probe::PeerAddress>(std::move(peer)));
  }
  for (const std::string& file : peer_files) {
    auto peers = probe::read_peers_file(file);
    if (auto* why = std::get_if<std::string>(&peers)) return usage_error(kCommand, *why);
    for (auto& p : std::get<std::vector<probe::PeerAddress>>(peers)) probe_options.peers.push_back(std::move(p));
  }
  if (!probe_options.listen && probe_options.peers.empty()) {
    return usage_error(kCommand, "nothing to do: give --listen PORT, or peers (HOST:PORT... or --peers FILE)");
  }
  {
    const bool digits = !rounds_text.empty() && rounds_text.size() <= 4 &&
                        std::all_of(rounds_text.begin(), rounds_text.end(), [](char c) { return c >= '0' && c <= '9'; });
    const int rounds = digits ? std::stoi(rounds_text) : 0;
    if (rounds < 1 || rounds > kMaxRounds) {
      return usage_error(kCommand, "--rounds must be a whole number from 1 to " + std::to_string(kMaxRounds) +
                                       ", not '" + rounds_text + "'");
    }
    probe_options.rounds = rounds;
  }
  if (std::string why = read_duration_option("timeout", timeout_text, probe_options.timeout); !why.empty()) {
    return usage_error(kCommand, why);
  }
  if (!every_text.empty()) {
    model::Nanoseconds every = 0;
    if (std::string why = read_duration_option("every", every_text, every); !why.empty()) {
      return usage_error(kCommand, why);
    }
    if (every < kShortestPeriod) {
      return usage_error(kCommand, "--every must be at least 1s (a probe must stay cheap), not '" + every_text + "'");
    }
    probe_options.every = every;
  }
  if (probe_options.every &&
      static_cast<double>(probe_options.rounds) * 1e9 / static_cast<double>(*probe_options.every) >
          kMostRoundsPerSecond) {
    return usage_error(kCommand, "--rounds " + std::to_string(probe_options.rounds) + " --every " + every_text +
                                     " is more than " + std::to_string(kMostRoundsPerSecond) +
                                     " round trips a second: fewer rounds, or a longer period (a probe must stay cheap)");
  }
  if (!duration_text.empty()) {
    model::Nanoseconds duration = 0;
    if (std::string why = read_duration_option("duration", duration_text, duration, true); !why.empty()) {
      return usage_error(kCommand, why);
    }
    probe_options.duration = duration;
  }
  if (ust != "auto" && ust != "on" && ust != "off") {
    return usage_error(kCommand, "--ust must be auto, on or off, not '" + ust + "'");
  }

  // Signals are blocked before lttng-ust starts its threads, so that they
  // inherit the mask and only ppoll() receives them.
  StopSignals signals;
  probe::UstEvents events;
  if (ust != "off") {
    events = probe::UstEvents::load();
    if (!events.loaded() && ust == "on") {
      std::cerr << "tracesync probe: --ust on, but no lttng-ust events: " << events.why() << "\n";
      return kBadInput;
    }
  }
  std::cerr << "tracesync probe: "
            << (events.loaded() ? "lttng-ust events from " + events.library()
                                : "no lttng-ust events (" + (ust == "off" ? std::string("--ust off") : events.why()) + ")")
            << "\n";

  const int64_t cpu_before = cpu_us();
  probe::Prober prober(probe_options, events, print_burst,
                       [](const std::string& problem) { std::cerr << "tracesync probe: " << problem << "\n"; });
  if (std::string why = prober.open(); !why.empty()) {
    std::cerr << "tracesync probe: " << why << "\n";
    return kBadInput;
  }
  if (probe_options.listen) std::cout << "listening port=" << prober.listening_port() << std::endl;
  const int64_t cpu_open = cpu_us();
  const probe::ProbeSummary summary = prober.run(&stop_requested, signals.wait_mask());
  std::cout << "summary bursts=" << summary.bursts << " whole=" << summary.whole_bursts
            << " rounds=" << summary.rounds << " answered=" << summary.answered
            << " waits=" << summary.waits << " cpu_us=" << (cpu_us() - cpu_open) << " cpu_us_open=" << (cpu_open - cpu_before) << std::endl;
  for (const std::string& peer : summary.silent_peers) {
    std::cerr << "tracesync probe: peer " << peer << " never answered a whole burst: its link has no probe rounds\n";
  }
  return summary.silent_peers.empty() ? kSuccess : kNotSynchronized;
}

}  // namespace tracesync::cli
