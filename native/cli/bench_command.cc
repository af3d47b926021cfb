// SPDX-License-Identifier: EPL-2.0
// `tracesync bench`: measurements that print figures (never pass/fail).

#include <boost/program_options.hpp>

#include <algorithm>
#include <charconv>
#include <iostream>
#include <memory>

#include "cli/bench_accuracy.h"
#include "cli/bench_hull.h"
#include "cli/bench_ingest.h"
#include "cli/bench_network.h"
#include "cli/command.h"
#include "cli/command_line.h"
#include "cli/cpu_pin.h"
#include "cli/duration.h"
#include "cli/exit_codes.h"

namespace tracesync::cli {
namespace {

constexpr std::string_view kCommand = "bench";

namespace po = boost::program_options;

void print_help(const po::options_description& options) {
  std::cout << "usage: tracesync bench hull|network|ingest|accuracy [options] [TRACE_DIR...]\n\n"
               "  hull     the exact incremental hull on synthetic two-clock traffic, in arrival order and\n"
               "           shuffled, against the batch hull on the same messages\n"
               "  network  the thesis' workload (10,000 to 60,000 vertices, a million operations each) on\n"
               "           the incremental network, and the Boost.Graph baseline within a time budget\n"
               "  ingest   'tracesync sync' on TRACE_DIR... against babeltrace2 reading the same traces into\n"
               "           a sink that drops everything, per --jobs value\n"
               "  accuracy worst true error and largest bound of 'tracesync sync' (--clock-model piecewise,\n"
               "           --clock-model linear, --algorithm linreg) on simulated clocks, per clock model and\n"
               "           duration, checked against the truth as 'tracesync check-truth' does\n\n"
            << options;
}

// Pins a single-threaded measurement to the CPU it starts on, and says so on stderr.
std::unique_ptr<CpuPin> pin_unless(bool no_pin) {
  if (no_pin) return nullptr;
  auto pin = std::make_unique<CpuPin>();
  if (pin->cpu()) {
    std::cerr << "tracesync bench: measuring on CPU " << *pin->cpu() << " only (--no-pin to let it move)\n";
  } else {
    std::cerr << "tracesync bench: could not pin to one CPU; measuring unpinned\n";
  }
  return pin;
}

// "1,0" -> {1, 0}; "10000,20000" -> sizes.
template <typename T>
bool parse_list(const std::string& text, std::vector<T>& out) {
  // from_chars, unlike stoull, refuses a sign and values T cannot hold
  // (stoull reads "-5" as 2^64 - 5).
  out.clear();
  for (std::size_t begin = 0;;) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    T value{};
    const auto [stop, error] = std::from_chars(text.data() + begin, text.data() + end, value);
    if (error != std::errc() || stop != text.data() + end) return false;
    out.push_back(value);
    if (end == text.size()) return true;
    begin = end + 1;
  }
}

}  // namespace

int run_bench(const std::vector<std::string>& arguments) {
  HullBenchOptions hull;
  network::NetworkBenchmarkOptions net;
  IngestBenchOptions ingest;
  std::string format = "text";
  std::string sizes;
  std::string jobs = "1,0";
  AccuracyBenchOptions accuracy;
  std::string models;
  std::string durations;
  int repeat = 0;
  std::string baseline_budget = "10s";
  std::vector<std::string> positional_args;
  po::options_description options("options");
  options.add_options()
      ("help,h", "print this help and exit")
      ("format,f", po::value(&format)->value_name("FORMAT"), "text (default) or json")
      ("repeat", po::value(&repeat)->value_name("K"), "runs per figure, the median is reported (hull 5, network 3, ingest 3)")
      ("seed", po::value(&hull.seed)->value_name("S"), "random seed of the generated workload (default 1)")
      ("messages", po::value(&hull.messages)->value_name("N"), "hull: messages to generate (default 10000000)")
      ("sizes", po::value(&sizes)->value_name("N,..."), "network: vertex counts (default 10000,...,60000)")
      ("operations", po::value(&net.operations)->value_name("N"), "network: operations per size (default 1000000)")
      ("snapshots", po::value(&net.snapshots)->value_name("K"), "network: full transform reads timed (default 10)")
      ("baseline-budget", po::value(&baseline_budget)->value_name("DURATION"), "network: CPU time the baseline may use per size (default 10s)")
      ("no-baseline", "network: do not run the baseline")
      ("jobs", po::value(&jobs)->value_name("N,..."), "ingest: job counts to measure, 0 = one per core (default 1,0)")
      ("in-process", po::bool_switch(&ingest.in_process),
       "ingest: measure 'tracesync sync --in-process' rather than sync reading each trace in a process of its own")
      ("models", po::value(&models)->value_name("M,..."), "accuracy: clock models (default linear,steps,slews,wander,combined)")
      ("durations", po::value(&durations)->value_name("DURATION,..."), "accuracy: simulated durations, each with its unit (default 1min,10min,1h,6h,24h)")
      ("link-messages", po::value(&accuracy.messages_per_link)->value_name("N"), "accuracy: about N segments per link; the rate is lowered to fit (default 200000)")
      ("max-rate", po::value(&accuracy.max_rate)->value_name("R"), "accuracy: at most R segments per second per link (default 200)")
      ("no-pin", "run single-threaded measurements (hull, network, ingest with 1 job) wherever the scheduler puts them, instead of on one CPU");
  // Not in --help: a measurement for the docs (docs/performance.md), not for users.
  po::options_description hidden("hidden");
  hidden.add_options()("time-check-cost", po::bool_switch(&ingest.time_check_cost),
                       "ingest: what the time checks cost, the babeltrace2 reader with and without them");
  po::options_description all("all");
  all.add(options).add(hidden);
  po::variables_map vm;
  if (const std::string problem = parse_arguments(arguments, all, &positional_args, vm); !problem.empty()) {
    return usage_error(kCommand, problem);
  }
  if (vm.count("help")) {
    print_help(options);
    return kSuccess;
  }
  if (format != "text" && format != "json") return usage_error(kCommand, "--format must be text or json");
  model::Nanoseconds budget = 0;
  if (std::string problem = read_duration_option("baseline-budget", baseline_budget, budget); !problem.empty()) {
    return usage_error(kCommand, problem);
  }
  net.baseline_budget_seconds = static_cast<double>(budget) / 1e9;
  const bool json = format == "json";
  if (vm.count("repeat") && repeat < 1) return usage_error(kCommand, "--repeat must be at least 1");
  if (positional_args.empty()) return usage_error(kCommand, "say what to measure: hull, network, ingest or accuracy");
  const std::string what = positional_args.front();
  const std::vector<std::string> rest(positional_args.begin() + 1, positional_args.end());
  if (what != "ingest" && !rest.empty()) return usage_error(kCommand, "unexpected argument '" + rest.front() + "'");
  const bool no_pin = vm.count("no-pin") != 0;

  if (what == "hull") {
    if (hull.messages < 1) return usage_error(kCommand, "--messages must be at least 1");
    if (repeat) hull.repeat = repeat;
    hull.json = json;
    const auto pin = pin_unless(no_pin);
    return run_bench_hull(hull) == 0 ? kSuccess : kInternalError;
  }
  if (what == "network") {
    if (net.operations < 1) return usage_error(kCommand, "--operations must be at least 1");
    if (!sizes.empty() && !parse_list(sizes, net.vertex_counts)) return usage_error(kCommand, "--sizes takes N,N,...");
    for (const std::size_t n : net.vertex_counts) {
      if (n < 2) return usage_error(kCommand, "--sizes: a network needs at least 2 vertices");
    }
    net.seed = hull.seed;
    if (repeat) net.repetitions = repeat;
    net.run_baseline = vm.count("no-baseline") == 0;
    const auto pin = pin_unless(no_pin);
    return run_bench_network(net, json);
  }
  if (what == "ingest") {
    if (rest.empty()) return usage_error(kCommand, "ingest needs trace directories (e.g. one written by 'tracesync simulate')");
    if (!parse_list(jobs, ingest.jobs)) return usage_error(kCommand, "--jobs takes N,N,...");
    ingest.paths = rest;
    if (repeat) ingest.repeat = repeat;
    ingest.json = json;
    ingest.pin_single_job = !no_pin;
    if (ingest.time_check_cost) return run_bench_time_check_cost(ingest);
    return run_bench_ingest(ingest);
  }
  if (what == "accuracy") {
    if (!models.empty()) {
      accuracy.models.clear();
      for (std::size_t begin = 0; begin <= models.size();) {
        const std::size_t end = std::min(models.find(',', begin), models.size());
        const auto model = simulate::parse_clock_model(models.substr(begin, end - begin));
        if (!model) return usage_error(kCommand, "--models takes linear, steps, slews, wander, combined, comma-separated");
        accuracy.models.push_back(*model);
        begin = end + 1;
      }
    }
    if (!durations.empty()) {
      std::vector<model::Nanoseconds> list;
      if (std::string problem = read_duration_list_option("durations", durations, list); !problem.empty()) {
        return usage_error(kCommand, problem);
      }
      accuracy.durations_s.clear();
      for (const model::Nanoseconds d : list) {
        if (d < 1'000'000'000 || d > 30 * 86'400'000'000'000) {
          return usage_error(kCommand, "--durations: each between 1s and 30 days (720h)");
        }
        accuracy.durations_s.push_back(static_cast<double>(d) / 1e9);
      }
    }
    if (accuracy.messages_per_link < 10) return usage_error(kCommand, "--link-messages must be at least 10");
    if (!(accuracy.max_rate > 0 && accuracy.max_rate <= 1e6)) return usage_error(kCommand, "--max-rate must be in (0, 1e6]");
    accuracy.seed = hull.seed;
    accuracy.json = json;
    return run_bench_accuracy(accuracy);
  }
  return usage_error(kCommand, "unknown benchmark '" + what + "' (hull, network, ingest or accuracy)");
}

}  // namespace tracesync::cli
