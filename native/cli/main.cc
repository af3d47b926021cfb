// SPDX-License-Identifier: EPL-2.0
// tracesync: synchronize the clocks of traces recorded on several hosts.

#include <algorithm>
#include <array>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "cli/abort_report.h"
#include "cli/command.h"
#include "cli/exit_codes.h"
#include "cli/reading_process_command.h"
#include "cli/suggestion.h"
#include "snapshot/utf8.h"

namespace tracesync::cli {
namespace {

constexpr auto kCommands = std::to_array<Command>({
    {"sync", "synchronize traces or a match stream and report transforms and link qualities", run_sync},
    {"apply", "synchronize traces and write copies of them on the common time base", run_apply},
    {"live", "synchronize LTTng live sessions or trace folders while they are recorded, printing results as they change", run_live},
    {"check", "show which traces carry network events tracesync can use, before syncing", run_check},
    {"extract", "write down what synchronizing traces needs, for sync and apply to read in their place", run_extract},
    {"simulate", "write a synthetic experiment as CTF traces, with its ground truth", run_simulate},
    {"bench", "measure the estimator, the network, the trace reader or the accuracy", run_bench},
    {"check-truth", "check a sync report's bounds against a simulation's truth", run_check_truth},
    {"verify", "check a sync report against its certificate, exactly", run_verify},
    {"to-ctf2", "write a trace's metadata (CTF 1.8 TSDL or CTF 2) as CTF 2 metadata", run_to_ctf2},
    {"probe", "exchange round trips with other traced hosts, so that hosts that talk too little synchronize", run_probe},
});

constexpr std::string_view kVersion = TRACESYNC_VERSION;  // the CMake project version

// The summaries' column: past the longest command name, whatever is added.
constexpr std::size_t kSummaryColumn = [] {
  std::size_t longest = 0;
  for (const Command& c : kCommands) longest = std::max(longest, c.name.size());
  return longest + 2;
}();

void print_usage(std::ostream& out) {
  out << "usage: tracesync <command> [options]\n\ncommands:\n";
  for (const Command& c : kCommands)
    out << "  " << c.name << std::string(kSummaryColumn - c.name.size(), ' ') << c.summary << "\n";
  out << "\n'tracesync help <command>' or 'tracesync <command> --help' describes a command's options.\n"
         "'tracesync --version' prints the version.\n\n"
      << exit_codes_help();
}

const Command* find_command(std::string_view name) {
  for (const Command& c : kCommands) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

// "unknown command 'snyc'; did you mean 'sync'?" and the usage.
int unknown_command(std::string_view name) {
  std::vector<std::string> names;
  for (const Command& c : kCommands) names.emplace_back(c.name);
  std::cerr << "tracesync: unknown command '" << snapshot::readable_text(name) << "'";
  if (const auto suggestion = closest_word(name, names)) std::cerr << "; did you mean '" << *suggestion << "'?";
  std::cerr << "\n\n";
  print_usage(std::cerr);
  return kBadInput;
}

int dispatch(int argc, char** argv) {
  if (argc < 2) {
    print_usage(std::cerr);
    return kBadInput;
  }
  const std::string_view name = argv[1];
  if (name == "--help" || name == "-h" || (name == "help" && argc == 2)) {
    print_usage(std::cout);
    return kSuccess;
  }
  if (name == "help") {  // tracesync help COMMAND
    const Command* command = find_command(argv[2]);
    return command != nullptr ? command->run({"--help"}) : unknown_command(argv[2]);
  }
  if (name == "--version" || name == "-V") {
    std::cout << "tracesync " << kVersion << "\n";
    return kSuccess;
  }
  if (const Command* command = find_command(name)) return command->run(std::vector<std::string>(argv + 2, argv + argc));
  return unknown_command(name);
}

}  // namespace
}  // namespace tracesync::cli

int main(int argc, char** argv) {
  // A reading process (`tracesync sync` starts one per trace) that aborts
  // should just die: its parent names the trace and goes on.
  if (argc == 2 && argv[1] == tracesync::cli::kReadTraceCommand) {
    tracesync::cli::report_out_of_memory_in_reading_process();
    try {
      return tracesync::cli::run_read_trace();
    } catch (...) {
      return tracesync::cli::kInternalError;
    }
  }
  tracesync::cli::report_aborts_while_reading();
  try {
    return tracesync::cli::dispatch(argc, argv);
  } catch (const std::bad_alloc&) {
    std::cerr << "tracesync: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "tracesync: internal error: " << tracesync::snapshot::readable_text(e.what()) << "\n";
  }
  return tracesync::cli::kInternalError;
}
