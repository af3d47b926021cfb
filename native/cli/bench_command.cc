// `tracesync bench`: measurements that print figures (never pass/fail).

#include <boost/program_options.hpp>

#include <iostream>

#include "cli/bench_hull.h"
#include "cli/command.h"
#include "cli/exit_codes.h"

namespace tracesync::cli {
namespace {

namespace po = boost::program_options;

void print_help(const po::options_description& options) {
  std::cout << "usage: tracesync bench hull [options]\n\n"
               "  hull     the exact incremental hull on synthetic two-clock traffic, in arrival order and\n"
               "           shuffled, against the batch hull on the same messages\n\n"
            << options;
}

}  // namespace

int run_bench(const std::vector<std::string>& arguments) {
  HullBenchOptions hull;
  std::string format = "text";
  std::string what;
  po::options_description options("options");
  options.add_options()("help,h", "print this help and exit")(
      "messages", po::value(&hull.messages)->value_name("N"), "messages to generate (default 10000000)")(
      "repeat", po::value(&hull.repeat)->value_name("K"), "runs per measurement; the median is reported (default 5)")(
      "seed", po::value(&hull.seed)->value_name("S"), "random seed (default 1)")(
      "format,f", po::value(&format)->value_name("FORMAT"), "text (default) or json");
  po::options_description all;
  all.add(options).add_options()("what", po::value(&what));
  po::positional_options_description positional;
  positional.add("what", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(arguments).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "tracesync bench: " << e.what() << "\nTry 'tracesync bench --help'.\n";
    return kBadInput;
  }
  if (vm.count("help")) {
    print_help(options);
    return kSuccess;
  }
  if (format != "text" && format != "json") {
    std::cerr << "tracesync bench: --format must be text or json\n";
    return kBadInput;
  }
  hull.json = format == "json";
  if (hull.repeat < 1 || hull.messages < 1) {
    std::cerr << "tracesync bench: --messages and --repeat must be at least 1\n";
    return kBadInput;
  }
  if (what == "hull") return run_bench_hull(hull) == 0 ? kSuccess : kInternalError;
  std::cerr << "tracesync bench: say what to measure: hull\nTry 'tracesync bench --help'.\n";
  return kBadInput;
}

}  // namespace tracesync::cli
