// SPDX-License-Identifier: EPL-2.0
// `tracesync simulate`: write a synthetic experiment as real CTF traces.

#include <boost/program_options.hpp>

#include <functional>
#include <iostream>

#include "cli/command.h"
#include "cli/command_line.h"
#include "cli/duration.h"
#include "cli/exit_codes.h"
#include "cli/progress_bar.h"
#include "simulate/simulate.h"

namespace tracesync::cli {
namespace {

constexpr std::string_view kCommand = "simulate";

namespace po = boost::program_options;

struct SimulateArguments {
  simulate::SimulationOptions options;
  std::string topology = "chain";
  std::string start;
  std::vector<std::string> clocks;
  std::vector<std::string> link_delays;
  std::vector<std::string> gaps;
  std::string clock_model = "linear";
  bool no_traces = false;
  // Durations, with their units (duration.h).
  std::string duration = "10s";
  std::string offset_max = "500ms";
  std::string drift_change_at;
  std::string min_delay = "40us";
  std::string mean_delay = "20us";
  std::string load_length = "50ms";
  std::string load_delay = "2ms";
  std::string rto = "200ms";
  std::string probe_every;
  // The clock models' durations: empty keeps the simulation's default.
  std::string step_interval;
  std::string slew_interval;
  std::string slew_length;
  std::string wander_period;
  std::string wander_step;
  bool quiet = false;
};

po::options_description simulate_options(SimulateArguments& a) {
  simulate::SimulationOptions& o = a.options;
  po::options_description what("what to simulate");
  what.add_options()
      ("help,h", "print this help and exit")
      ("output,o", po::value(&o.output_dir)->value_name("DIR"), "write OUTPUT/<host>/kernel/ traces and OUTPUT/truth.json (required)")
      ("overwrite", po::bool_switch(&o.overwrite), "replace a previous simulation's files in DIR")
      ("write-matches", po::bool_switch(&o.write_matches), "also write DIR/matches.txt, readable by 'tracesync sync --matches'")
      ("matches-output", po::value(&o.matches_output)->value_name("FILE"),
       "write the matches to FILE instead of DIR/matches.txt; '-' or a pipe streams them as they come "
       "(e.g. '--no-traces --matches-output - | tracesync sync --matches -': a day at any rate, no disk)")
      ("truth-messages", po::bool_switch(&o.truth_messages), "list every TCP segment in truth.json (large: about 110 bytes each)")
      ("no-traces", po::bool_switch(&a.no_traces), "write no CTF traces, only truth.json (and matches.txt); fast for long runs")
      ("ctf2", po::bool_switch(&o.ctf2), "write CTF 2 metadata (LTTng 2.15's default), translated from the CTF 1.8 written")
      ("hosts,n", po::value(&o.hosts)->value_name("N"), "number of hosts (default 4)")
      ("topology,t", po::value(&a.topology)->value_name("T"), "pairs, chain (default), star, random or fat-tree")
      ("random-degree", po::value(&o.random_degree)->value_name("D"), "random topology: mean links per host (default 3)")
      ("fat-tree-k", po::value(&o.fat_tree_k)->value_name("K"), "fat-tree: switch ports, even (default: smallest that fits)")
      ("duration,d", po::value(&a.duration)->value_name("DURATION"), "traffic lasting DURATION (default 10s)")
      ("seed,s", po::value(&o.seed)->value_name("S"), "random seed; the same seed writes the same bytes (default 1)")
      ("start", po::value(&a.start)->value_name("NS"), "true start time, ns since the epoch (default 2026-01-01T00:00:00Z)")
      ("hostname-prefix", po::value(&o.hostname_prefix)->value_name("P"), "hosts are named P0, P1, ... (default host)")
      ("cpus", po::value(&o.cpus_per_host)->value_name("N"), "CPUs, hence streams, per host (default 4)")
      ("rate", po::value(&o.message_rate)->value_name("R"), "TCP segments per second per link, both ways (default 200)")
      ("filler-ratio", po::value(&o.filler_ratio)->value_name("F"), "non-network events per network event (default 4)")
      ("signal-rate", po::value(&o.signal_rate_hz)->value_name("HZ"),
       "a simultaneous signal: a pulse every host records as irq_handler_entry irq=199 (default 0: none; docs/signals.md)")
      ("signal-jitter", po::value(&o.signal_jitter_us)->value_name("US"),
       "each host records each pulse within +- this of its true instant (default 1)")
      ("signal-missed", po::value(&o.signal_missed)->value_name("P"), "a host misses a pulse with probability P (default 0)")
      ("signal-extra", po::value(&o.signal_extra_per_s)->value_name("RATE"),
       "extra pulses per second each host records at random (default 0)")
      ("ipv6-fraction", po::value(&o.ipv6_fraction)->value_name("F"), "share of links using IPv6 (default 0.25)")
      ("netif-receive-skb", po::bool_switch(&o.plain_receive_name), "name receive events netif_receive_skb, not net_if_receive_skb")
      ("user-space", po::bool_switch(&o.user_space),
       "write lttng-ust traces (OUTPUT/<host>/ust/uid/1000/64-bit) whose messages are application events "
       "tsapp:msg_send / tsapp:msg_recv with a uint64 msg_id and a string channel (sync them with --messages "
       "'send=tsapp:msg_send,recv=tsapp:msg_recv,key=msg_id')")
      ("quiet,q", po::bool_switch(&a.quiet), "print nothing on success");
  po::options_description clocks("clocks (host 0 is the truth unless --clock says otherwise)");
  clocks.add_options()
      ("offset-max", po::value(&a.offset_max)->value_name("DURATION"), "offsets uniform in [-DURATION, DURATION] (default 500ms)")
      ("drift-max", po::value(&o.drift_max_ppm)->value_name("PPM"), "drifts uniform in [-PPM, PPM] (default 50)")
      ("drift-change-at", po::value(&a.drift_change_at)->value_name("DURATION"), "every host but 0 changes drift this long after the start")
      ("drift-change-max", po::value(&o.drift_change_max_ppm)->value_name("PPM"), "by a change uniform in [-PPM, PPM] (default 5)")
      ("clock", po::value(&a.clocks)->value_name("H:OFFSET_NS:DRIFT_PPM[:AT_S:DRIFT_PPM]")->composing(), "an explicit clock for host H; repeatable")
      ("clock-model", po::value(&a.clock_model)->value_name("M"), "how rates change over time: linear (default), steps, slews, wander or combined; added to every clock but the truth")
      ("step-interval", po::value(&a.step_interval)->value_name("DURATION"), "steps: mean time between rate steps, each 0.5 to 1.5 times it (default 5min)")
      ("step-size", po::value(&o.step_size_ppm)->value_name("PPM"), "steps: a step changes the rate by at most PPM (default 1)")
      ("slew-interval", po::value(&a.slew_interval)->value_name("DURATION"), "slews: mean time between slews, each 0.5 to 1.5 times it (default 15min)")
      ("slew-length", po::value(&a.slew_length)->value_name("DURATION"), "slews: how long a slew lasts (default 5s)")
      ("slew-rate", po::value(&o.slew_rate_ppm)->value_name("PPM"), "slews: the clock runs PPM faster or slower while slewing (default 20)")
      ("wander-amplitude", po::value(&o.wander_ppm)->value_name("PPM"), "wander: the rate swings PPM either way (default 0.3)")
      ("wander-period", po::value(&a.wander_period)->value_name("DURATION"), "wander: over this period, a sinusoid (default 1h)")
      ("wander-step", po::value(&a.wander_step)->value_name("DURATION"), "wander: the rate is held constant this long (default 10s)");
  po::options_description delays("delays: min + Exp(mean) one way, times the asymmetry the other way");
  delays.add_options()
      ("min-delay", po::value(&a.min_delay)->value_name("DURATION"), "minimum one-way delay (default 40us)")
      ("mean-delay", po::value(&a.mean_delay)->value_name("DURATION"), "mean of the exponential part (default 20us)")
      ("asymmetry", po::value(&o.asymmetry)->value_name("X"), "the higher-numbered host's direction is X times slower (default 1)")
      ("link-delay", po::value(&a.link_delays)->value_name("A-B:[MIN_US]:[MEAN_US][:ASYMMETRY]")->composing(), "delays of one link; repeatable")
      ("loaded-hosts", po::value(&o.loaded_host_fraction)->value_name("F"), "share of hosts loaded now and then (default 0.25)")
      ("load-rate", po::value(&o.load_episodes_per_s)->value_name("R"), "load episodes per second on a loaded host (default 0.5)")
      ("load-length", po::value(&a.load_length)->value_name("DURATION"), "mean episode length (default 50ms)")
      ("load-delay", po::value(&a.load_delay)->value_name("DURATION"), "mean extra delay while loaded (default 2ms)")
      ("loss", po::value(&o.loss_rate)->value_name("P"), "probability a transmission never arrives (default 0.01)")
      ("retransmit", po::value(&o.retransmission_rate)->value_name("P"), "probability a delivered segment is resent (default 0.005)")
      ("rto", po::value(&a.rto)->value_name("DURATION"), "when a segment is resent (default 200ms)")
      ("gap", po::value(&a.gaps)->value_name("AT:LENGTH")->composing(), "no exchange starts on any link for LENGTH from AT after the start (durations, e.g. 10min:30s); repeatable")
      ("probe-rounds", po::value(&o.probe_rounds)->value_name("N"), "tracesync probe on every link: a burst of N round trips at the start and at the end, on a connection of its own (default 0: none; docs/probe.md)")
      ("probe-every", po::value(&a.probe_every)->value_name("DURATION"), "also a probe burst this often (at least 1s)");
  po::options_description all;
  all.add(what).add(clocks).add(delays);
  return all;
}

// Every duration option takes a unit; the simulation's options keep theirs.
std::string read_durations(SimulateArguments& a) {
  simulate::SimulationOptions& o = a.options;
  struct Duration {
    std::string_view option;
    const std::string& text;
    bool zero_allowed;
    std::function<void(double ns)> set;
  };
  std::vector<Duration> durations = {
      {"duration", a.duration, false, [&](double ns) { o.duration_s = ns / 1e9; }},
      {"offset-max", a.offset_max, true, [&](double ns) { o.clock_offset_max_ns = static_cast<int64_t>(ns); }},
      {"min-delay", a.min_delay, true, [&](double ns) { o.min_delay_us = ns / 1e3; }},
      {"mean-delay", a.mean_delay, true, [&](double ns) { o.mean_delay_us = ns / 1e3; }},
      {"load-length", a.load_length, true, [&](double ns) { o.load_episode_mean_ms = ns / 1e6; }},
      {"load-delay", a.load_delay, true, [&](double ns) { o.load_extra_delay_mean_us = ns / 1e3; }},
      {"rto", a.rto, true, [&](double ns) { o.retransmission_timeout_ms = ns / 1e6; }},
  };
  if (!a.probe_every.empty()) {
    durations.push_back({"probe-every", a.probe_every, false, [&](double ns) { o.probe_every_s = ns / 1e9; }});
  }
  if (!a.drift_change_at.empty()) {
    durations.push_back({"drift-change-at", a.drift_change_at, true, [&](double ns) { o.drift_change_at_s = ns / 1e9; }});
  }
  const std::vector<std::pair<std::string_view, std::pair<const std::string*, double*>>> clock_durations = {
      {"step-interval", {&a.step_interval, &o.step_interval_s}},
      {"slew-interval", {&a.slew_interval, &o.slew_interval_s}},
      {"slew-length", {&a.slew_length, &o.slew_length_s}},
      {"wander-period", {&a.wander_period, &o.wander_period_s}},
      {"wander-step", {&a.wander_step, &o.wander_step_s}},
  };
  for (const auto& [option, target] : clock_durations) {
    double* seconds = target.second;
    if (!target.first->empty()) durations.push_back({option, *target.first, false, [seconds](double ns) { *seconds = ns / 1e9; }});
  }
  for (const Duration& d : durations) {
    model::Nanoseconds ns = 0;
    if (std::string problem = read_duration_option(d.option, d.text, ns, d.zero_allowed); !problem.empty()) {
      return problem;
    }
    d.set(static_cast<double>(ns));
  }
  return {};
}

}  // namespace

int run_simulate(const std::vector<std::string>& arguments) {
  SimulateArguments a;
  const po::options_description options = simulate_options(a);
  po::variables_map vm;
  if (const std::string problem = parse_arguments(arguments, options, nullptr, vm); !problem.empty()) {
    return usage_error(kCommand, problem);
  }
  if (vm.count("help")) {
    std::cout << "usage: tracesync simulate --output DIR [options]\n\n"
                 "Writes a synthetic experiment as lttng-modules 2.12-style CTF kernel traces (one per host,\n"
                 "one stream per CPU) through babeltrace2, with TCP traffic on a topology, filler kernel\n"
                 "events, clocks with offsets and drifts that may change rate over time (--clock-model),\n"
                 "realistic delays, loss, retransmissions and gaps, and the ground truth in DIR/truth.json:\n"
                 "every host's true clock, exactly, piece by piece (docs/simulate.md). 'tracesync check-truth'\n"
                 "checks a sync report against it.\n\n"
              << options;
    return kSuccess;
  }
  simulate::SimulationOptions& o = a.options;
  if (o.output_dir.empty()) return usage_error(kCommand, "--output DIR is required");
  const auto topology = simulate::parse_topology(a.topology);
  if (!topology) return usage_error(kCommand, "--topology must be pairs, chain, star, random or fat-tree, not '" + a.topology + "'");
  o.topology = *topology;
  if (!a.start.empty()) {
    try {
      std::size_t used = 0;
      o.start_ns = std::stoll(a.start, &used);
      if (used != a.start.size()) throw std::invalid_argument("trailing characters");
    } catch (const std::exception&) {
      return usage_error(kCommand, "--start '" + a.start + "' is not a whole number of nanoseconds");
    }
  }
  if (std::string problem = read_durations(a); !problem.empty()) return usage_error(kCommand, problem);
  const auto clock_model = simulate::parse_clock_model(a.clock_model);
  if (!clock_model) {
    return usage_error(kCommand, "--clock-model must be linear, steps, slews, wander or combined, not '" + a.clock_model + "'");
  }
  o.clock_model = *clock_model;
  o.write_traces = !a.no_traces;
  if (vm.count("matches-output")) {
    if (o.matches_output.empty()) return usage_error(kCommand, "--matches-output needs a file, or - for standard output");
    o.write_matches = true;
  }
  for (const std::string& text : a.gaps) {
    // AT:LENGTH, two durations with their units.
    const std::size_t colon = text.find(':');
    if (colon == std::string::npos) return usage_error(kCommand, "--gap " + text + ": expected AT:LENGTH, e.g. 10min:30s");
    model::Nanoseconds at = 0;
    model::Nanoseconds length = 0;
    if (std::string problem = read_duration_option("gap", text.substr(0, colon), at, true); !problem.empty()) {
      return usage_error(kCommand, problem);
    }
    if (std::string problem = read_duration_option("gap", text.substr(colon + 1), length, false); !problem.empty()) {
      return usage_error(kCommand, problem);
    }
    o.gaps.push_back({static_cast<double>(at) / 1e9, static_cast<double>(length) / 1e9});
  }
  for (const std::string& text : a.clocks) {
    simulate::HostClockSpec spec;
    if (std::string problem = simulate::parse_host_clock(text, spec); !problem.empty()) return usage_error(kCommand, problem);
    o.host_clocks.push_back(spec);
  }
  for (const std::string& text : a.link_delays) {
    simulate::LinkDelaySpec spec;
    if (std::string problem = simulate::parse_link_delay(text, spec); !problem.empty()) return usage_error(kCommand, problem);
    o.link_delays.push_back(spec);
  }
  if (std::string problem = simulate::validate(o); !problem.empty()) return usage_error(kCommand, problem);

  ProgressBar progress("simulating", ProgressBar::Unit::kEvents);
  try {
    const simulate::SimulationSummary summary = simulate::run(o, [&](const simulate::SimulationProgress& p) {
      progress.update(p.events_written, p.events_expected);
      return true;
    });
    progress.finish();
    if (!a.quiet) {
      // Standard output is the matches' when they stream there.
      std::ostream& out = o.matches_output == "-" ? std::cerr : std::cout;
      if (o.write_traces) {
        out << "wrote " << summary.hosts.size() << " traces, " << summary.events << " events, ";
      } else {
        out << "wrote no traces (--no-traces), " << summary.hosts.size() << " hosts, ";
      }
      out << summary.links << " links, " << summary.transmissions << " TCP segments (" << summary.lost << " lost, "
          << summary.retransmissions << " retransmitted) to " << o.output_dir << "\n";
      for (const auto& h : summary.hosts) {
        if (!h.trace_path.empty()) out << "  " << h.trace_path << "  (" << h.events << " events)\n";
      }
      out << "truth: " << summary.truth_path << "\n";
      if (!summary.matches_path.empty()) {
        out << "matches: " << (summary.matches_path == "-" ? "standard output" : summary.matches_path) << "\n";
      }
    }
  } catch (const simulate::SimulationError& e) {
    progress.finish();
    std::cerr << "tracesync simulate: " << e.what() << "\n";
    return kBadInput;
  }
  return kSuccess;
}

}  // namespace tracesync::cli
