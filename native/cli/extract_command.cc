// SPDX-License-Identifier: EPL-2.0
// `tracesync extract`: read traces and write down what synchronizing them
// needs (an extract), for `sync` and `apply` to read in their place.

#include <boost/program_options.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>

#include "base/whole_file.h"
#include "cli/command.h"
#include "cli/command_line.h"
#include "cli/duration.h"
#include "cli/exit_codes.h"
#include "cli/interrupt_guard.h"
#include "cli/progress_bar.h"
#include "cli/trace_reading.h"
#include "ingest/experiment_reader.h"
#include "ingest/extract_frames.h"
#include "ingest/extract_writer.h"
#include "ingest/message_spec.h"
#include "ingest/signal_spec.h"
#include "ingest/trace_discovery.h"
#include "snapshot/utf8.h"

namespace tracesync::cli {
namespace {

constexpr std::string_view kCommand = "extract";
constexpr std::string_view kWriter = "tracesync " TRACESYNC_VERSION;

namespace po = boost::program_options;

void print_help(const po::options_description& options) {
  std::cout << "usage: tracesync extract [options] TRACE_DIR... -o FILE\n\n"
               "Reads the traces as 'tracesync sync' would and writes down, in FILE, what synchronizing\n"
               "them needs: each trace's identity, clock, host, extent and problems, and its network\n"
               "events' times and keys (typically a few percent of the trace). 'tracesync sync' and\n"
               "'tracesync apply' take FILE wherever they take trace directories, with the same report:\n"
               "extract where the traces lie, synchronize where the extracts are gathered.\n\n"
            << options
            << "\nTRACE_DIR is searched recursively, as by 'sync'; a trace's name in the reports is the one it\n"
               "gets here, so give the same directories as to a 'sync' of the traces themselves.\n"
               "--domain and the match options belong to the 'sync' that reads the extract.\n\n"
            << "exit codes: 0 every trace was extracted, 1 internal error (FILE could not be written),\n"
               "2 bad usage or no trace found, 3 a trace could not be read, or only in part (the extract says\n"
               "so, and 'sync' will too), 130 interrupted (FILE is not written)\n";
}

}  // namespace

int run_extract(const std::vector<std::string>& arguments) {
  std::vector<std::string> paths;
  std::string output;
  unsigned jobs = 0;
  bool in_process = false;
  std::string open_timeout;
  std::vector<std::string> messages;
  std::vector<std::string> messages_files;
  std::vector<std::string> simultaneous;
  std::vector<std::string> simultaneous_files;
  po::options_description options("options");
  options.add_options()
      ("help,h", "print this help and exit")
      ("output,o", po::value(&output)->value_name("FILE"), "write the extract to FILE, or '-' for stdout (required)")
      ("jobs,j", po::value(&jobs)->value_name("N"), "traces read at once (default: the number of cores)")
      ("open-timeout", po::value(&open_timeout)->value_name("DURATION"),
       "skip a trace babeltrace2 is still opening after DURATION, as 'sync' does")
      ("in-process", po::bool_switch(&in_process), "read traces in this process, not each in a process of its own")
      ("messages", po::value(&messages)->value_name("SPEC")->composing(),
       "also extract application messages, as 'tracesync sync --messages SPEC' reads them; repeatable (sync the "
       "extract with the same specs, in the same order)")
      ("messages-file", po::value(&messages_files)->value_name("FILE")->composing(),
       "read more message specs from FILE, one per line, as 'sync --messages-file'")
      ("simultaneous", po::value(&simultaneous)->value_name("SPEC")->composing(),
       "also extract a simultaneous signal's occurrences, as 'tracesync sync --simultaneous SPEC' reads them; "
       "repeatable (sync the extract with the same --messages and --simultaneous specs, in the same order)")
      ("simultaneous-file", po::value(&simultaneous_files)->value_name("FILE")->composing(),
       "read more signal specs from FILE, one per line, as 'sync --simultaneous-file'");
  po::variables_map vm;
  if (const std::string problem = parse_arguments(arguments, options, &paths, vm); !problem.empty()) {
    return usage_error(kCommand, problem);
  }
  if (vm.count("help")) {
    print_help(options);
    return kSuccess;
  }
  if (paths.empty()) return usage_error(kCommand, "give the trace directories to extract");
  if (output.empty()) return usage_error(kCommand, "give the extract's file: -o FILE (or -o - for stdout)");
  if (output == "-" && isatty(STDOUT_FILENO) == 1) {
    return usage_error(kCommand, "refusing to write a binary extract to a terminal; use -o FILE or a pipe");
  }
  std::vector<ingest::MessageSpec> kinds;
  if (!messages.empty() || !messages_files.empty()) {
    auto specs = ingest::parse_message_specs(messages, messages_files);
    if (auto* why = std::get_if<std::string>(&specs)) return usage_error(kCommand, *why);
    kinds = std::get<std::vector<ingest::MessageSpec>>(std::move(specs));
  }
  if (!simultaneous.empty() || !simultaneous_files.empty()) {
    auto signals = ingest::parse_signal_specs(simultaneous, simultaneous_files);
    if (auto* why = std::get_if<std::string>(&signals)) return usage_error(kCommand, *why);
    auto all = ingest::reading_kinds(kinds, std::get<std::vector<ingest::SignalSpec>>(signals));
    if (auto* why = std::get_if<std::string>(&all)) return usage_error(kCommand, *why);
    kinds = std::get<std::vector<ingest::MessageSpec>>(std::move(all));
  }
  ingest::ReadOptions read;
  read.jobs = jobs;
  read.reader.endpoints = true;  // whichever key the sync will use
  read.reader.selection = ingest::EventSelection(kinds);
  // No --reader: auto.
  auto reading = choose_trace_reading(ingest::to_string(ingest::ReaderChoice::kAuto), in_process);
  if (const auto* why = std::get_if<std::string>(&reading)) return usage_error(kCommand, *why);
  read.reading_command = std::move(std::get<TraceReading>(reading).reading_command);
  if (!open_timeout.empty()) {
    if (in_process) return usage_error(kCommand, "--open-timeout needs each trace read in a process of its own");
    model::Nanoseconds timeout = 0;
    if (const std::string problem = read_duration_option("open-timeout", open_timeout, timeout); !problem.empty()) {
      return usage_error(kCommand, problem);
    }
    read.open_timeout = std::chrono::milliseconds((timeout + 999'999) / 1'000'000);
  }

  ExitCode code = kSuccess;
  const ingest::Discovery discovery = ingest::discover_traces(paths);
  for (const ingest::Problem& p : discovery.problems) {
    std::cerr << "tracesync extract: " << snapshot::readable_text(p.source) << ": "
              << snapshot::readable_text(p.message) << "\n";
    code = worse(code, kTraceSkipped);
  }
  for (const ingest::TraceSource& t : discovery.traces) {
    if (t.extract) {
      return usage_error(kCommand, t.extract->file + " is an extract already; give trace directories");
    }
  }
  if (discovery.traces.empty()) {
    std::cerr << "tracesync extract: no trace found (a trace is a directory holding a CTF 'metadata' file)\n";
    return kBadInput;
  }

  // Written whole or not at all (a run that fails leaves no half extract),
  // or to stdout for "-".
  std::optional<base::WholeFile> file;
  if (output != "-") {
    file.emplace(output);
    if (const std::string why = file->open(); !why.empty()) {
      std::cerr << "tracesync extract: cannot write " << snapshot::readable_text(output) << ": " << why << "\n";
      return kInternalError;
    }
  }
  ingest::ExtractWriter writer(file ? file->stream() : stdout, std::string(kWriter));
  const InterruptGuard interrupt;
  ProgressBar progress("extracting");
  const ingest::ExperimentReport report = ingest::read_experiment(
      discovery.traces, read, writer,
      [&](const ingest::ReadProgress& p) {
        progress.update(p.bytes_read, p.bytes_total);
        return true;
      },
      interrupt.flag());
  progress.finish();
  if (report.cancelled) {
    std::cerr << "tracesync extract: interrupted; " << snapshot::readable_text(output) << " is not written\n";
    return interrupt.signal() != 0 ? interrupt.exit_code() : kInterrupted;
  }
  const bool written = writer.finish(discovery.traces, report);
  for (const ingest::TraceReport& t : report.traces) {
    for (const ingest::Problem& p : t.left_out) {
      std::cerr << "tracesync extract: " << snapshot::readable_text(p.source) << ": "
                << snapshot::readable_text(p.message) << "\n";
      code = worse(code, kTraceSkipped);
    }
    if (t.status == ingest::TraceStatus::kComplete) continue;
    std::cerr << "tracesync extract: " << (t.status == ingest::TraceStatus::kSkipped ? "skipped " : "")
              << snapshot::readable_text(t.info.path) << ": " << snapshot::readable_text(t.problem)
              << (t.status == ingest::TraceStatus::kPartial ? " (what was read before is in the extract)" : "")
              << "\n";
    code = worse(code, t.out_of_memory ? kInternalError : kTraceSkipped);
  }
  std::string why = written ? "" : std::strerror(writer.error() != 0 ? writer.error() : EIO);
  if (why.empty()) {
    if (file) {
      why = file->commit();
    } else if (std::fflush(stdout) != 0) {
      why = std::strerror(errno);
    }
  }
  if (!why.empty()) {
    std::cerr << "tracesync extract: cannot write " << (file ? snapshot::readable_text(output) : "to stdout") << ": "
              << why << "\n";
    return kInternalError;
  }
  return code;
}

}  // namespace tracesync::cli
