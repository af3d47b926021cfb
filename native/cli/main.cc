// tracesync: synchronize the clocks of traces recorded on several hosts.

#include <array>
#include <exception>
#include <iostream>
#include <new>

#include "cli/abort_report.h"
#include "cli/command.h"
#include "cli/exit_codes.h"
#include "cli/reading_process_command.h"

namespace tracesync::cli {
namespace {

constexpr std::array<Command, 3> kCommands = {{
    {"sync", "synchronize traces or a match stream and report transforms and link qualities", run_sync},
    {"simulate", "write a synthetic experiment as CTF traces, with its ground truth", run_simulate},
    {"bench", "measure the estimator, the network or the trace reader", run_bench},
}};

void print_usage(std::ostream& out) {
  out << "usage: tracesync <command> [options]\n\ncommands:\n";
  for (const Command& c : kCommands) out << "  " << c.name << std::string(10 - c.name.size(), ' ') << c.summary << "\n";
  out << "\n'tracesync <command> --help' describes a command's options.\n"
         "exit codes: 0 success, 1 internal error, 2 bad usage or input, 3 a trace was skipped, 128+N stopped by signal N (130: Ctrl-C)\n";
}

int dispatch(int argc, char** argv) {
  if (argc < 2) {
    print_usage(std::cerr);
    return kBadInput;
  }
  const std::string_view name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage(std::cout);
    return kSuccess;
  }
  if (name == "--version") {
    std::cout << "tracesync 0.1.0\n";
    return kSuccess;
  }
  for (const Command& c : kCommands) {
    if (c.name == name) return c.run(std::vector<std::string>(argv + 2, argv + argc));
  }
  std::cerr << "tracesync: unknown command '" << name << "'\n\n";
  print_usage(std::cerr);
  return kBadInput;
}

}  // namespace
}  // namespace tracesync::cli

int main(int argc, char** argv) {
  // A reading process (`tracesync sync` starts one per trace) that aborts
  // should just die: its parent names the trace and goes on.
  if (argc == 2 && argv[1] == tracesync::cli::kReadTraceCommand) {
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
    std::cerr << "tracesync: internal error: " << e.what() << "\n";
  }
  return tracesync::cli::kInternalError;
}
