// SPDX-License-Identifier: EPL-2.0
// `tracesync check`: before synchronizing, which traces carry network events
// that tracesync can use.

#include <boost/program_options.hpp>

#include <iostream>
#include <mutex>
#include <span>
#include <vector>

#include "cli/command.h"
#include "cli/command_line.h"
#include "cli/exit_codes.h"
#include "cli/progress_bar.h"
#include "cli/trace_check.h"
#include "cli/trace_reading.h"
#include "ingest/experiment_reader.h"
#include "ingest/message_spec.h"
#include "ingest/network_event_names.h"
#include "ingest/signal_spec.h"
#include "ingest/trace_discovery.h"
#include "probe/peer_address.h"
#include "snapshot/utf8.h"

namespace tracesync::cli {
namespace {

constexpr std::string_view kCommand = "check";

namespace po = boost::program_options;

// The events themselves are not needed: what check shows is in each
// trace's TraceInfo (its network event census), but for `--probe-port`:
// how many of each trace's TCP events are from or to one of the ports.
class ProbeSegmentSink final : public ingest::EventSink {
 public:
  ProbeSegmentSink(std::size_t traces, std::vector<uint16_t> ports) : counts_(traces, 0), ports_(std::move(ports)) {}
  void trace_opened(match::TraceIndex, const ingest::TraceInfo&) override {}
  void trace_events(match::TraceIndex trace, std::span<const match::PacketEvent> events, model::Nanoseconds) override {
    if (ports_.empty()) return;
    uint64_t found = 0;
    for (const match::PacketEvent& e : events) {
      if (e.kind != match::kTcpKind || e.layout != match::Layout::kTcp || !e.endpoints.present()) continue;
      for (const uint16_t port : ports_) {
        if (e.endpoints.source_port == port || e.endpoints.dest_port == port) {
          ++found;
          break;
        }
      }
    }
    const std::lock_guard lock(mutex_);
    counts_.at(trace) += found;
  }
  void trace_closed(match::TraceIndex) override {}
  ProbeSegments counts() const { return ports_.empty() ? ProbeSegments() : counts_; }

 private:
  std::mutex mutex_;
  ProbeSegments counts_;
  const std::vector<uint16_t> ports_;
};

void print_help(const po::options_description& options) {
  std::cout << "usage: tracesync check [options] TRACE_DIR...\n\n"
               "Reads the traces as 'tracesync sync' would and shows, before synchronizing, which of them\n"
               "carry network events tracesync can use: per trace, a one-line verdict, its host, its clock\n"
               "domain, and for each network event name tracesync reads ("
            << ingest::network_event_names_text()
            << ")\nwhether it was recorded, how many of its events are TCP, and which fields its payload lacks.\n"
               "A trace needs both TCP sends and receives for two-way links.\n"
               "It also lists each trace's user-space event classes (PROVIDER:EVENT) with the fields that\n"
               "could serve as a message key, and with --messages what each spec finds in each trace\n"
               "(docs/app-messages.md); application sends and receives count like TCP ones.\n\n"
            << options << "\nSee docs/recording.md for recording traces tracesync can use.\n\n"
            << "exit codes: 0 every trace is usable, 1 out of memory, 2 bad usage or no trace could be read,\n"
               "3 a trace could not be read, or only in part, 4 a trace lacks usable sends or receives (it would\n"
               "not be synchronized); 2 also when a trace's event classes cannot serve a --messages spec\n";
}

}  // namespace

int run_check(const std::vector<std::string>& arguments) {
  std::vector<std::string> paths;
  unsigned jobs = 0;
  bool in_process = false;
  std::string format = "text";
  std::vector<std::string> messages;
  std::vector<std::string> messages_files;
  std::vector<std::string> simultaneous;
  std::vector<std::string> simultaneous_files;
  std::string reader_name = "auto";
  std::vector<std::string> probe_port_texts;
  po::options_description options("options");
  options.add_options()
      ("help,h", "print this help and exit")
      ("format,f", po::value(&format)->value_name("FORMAT"), "text (default) or json")
      ("jobs,j", po::value(&jobs)->value_name("N"), "traces read at once (default: the number of cores)")
      ("reader", po::value(&reader_name)->value_name("READER"),
       "auto (default: tracesync's own scanner when it can read a trace, babeltrace2 otherwise), scanner "
       "(tracesync's own CTF reader) or babeltrace2")
      ("in-process", po::bool_switch(&in_process), "read traces in this process, not each in a process of its own")
      ("messages", po::value(&messages)->value_name("SPEC")->composing(),
       "also check application messages, as 'tracesync sync --messages SPEC' reads them; repeatable")
      ("messages-file", po::value(&messages_files)->value_name("FILE")->composing(),
       "read message SPECs from FILE, one a line; repeatable")
      ("simultaneous", po::value(&simultaneous)->value_name("SPEC")->composing(),
       "also count a simultaneous signal's occurrences, as 'tracesync sync --simultaneous SPEC' reads them; repeatable")
      ("simultaneous-file", po::value(&simultaneous_files)->value_name("FILE")->composing(),
       "read signal SPECs from FILE, one a line; repeatable")
      ("probe-port", po::value(&probe_port_texts)->value_name("PORT")->composing(),
       "count each trace's TCP events from or to this port, the one 'tracesync probe --listen' used: the probe's "
       "rounds in kernel traces (docs/probe.md); repeatable");
  po::variables_map vm;
  if (const std::string problem = parse_arguments(arguments, options, &paths, vm); !problem.empty()) {
    return usage_error(kCommand, problem);
  }
  if (vm.count("help")) {
    print_help(options);
    return kSuccess;
  }
  if (paths.empty()) return usage_error(kCommand, "give the trace directories to check");
  if (format != "text" && format != "json") {
    return usage_error(kCommand, "--format must be text or json, not '" + snapshot::readable_text(format) + "'");
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

  std::vector<uint16_t> probe_ports;
  for (const std::string& text : probe_port_texts) {
    const auto port = probe::parse_port(text);
    if (const auto* why = std::get_if<std::string>(&port)) return usage_error(kCommand, "--probe-port: " + *why);
    probe_ports.push_back(static_cast<uint16_t>(std::get<int>(port)));
  }
  auto reading = choose_trace_reading(reader_name, in_process);
  if (const auto* why = std::get_if<std::string>(&reading)) return usage_error(kCommand, *why);
  ExitCode code = kSuccess;
  const ingest::Discovery discovery = ingest::discover_traces(paths);
  for (const ingest::Problem& p : discovery.problems) {
    std::cerr << "tracesync check: " << snapshot::readable_text(p.source) << ": " << snapshot::readable_text(p.message)
              << "\n";
    code = worse(code, kTraceSkipped);
  }
  if (discovery.traces.empty()) {
    std::cerr << "tracesync check: no trace found (a trace is a directory holding a CTF 'metadata' file)\n";
    return kBadInput;
  }
  ingest::ReadOptions read;
  read.jobs = jobs;
  read.reader.reader = std::get<TraceReading>(reading).reader;
  read.reading_command = std::move(std::get<TraceReading>(reading).reading_command);
  read.reader.endpoints = !probe_ports.empty();  // the ports, for --probe-port
  read.reader.selection = ingest::EventSelection(kinds);
  read.reader.offered_classes = true;
  ProbeSegmentSink sink(discovery.traces.size(), probe_ports);
  ProgressBar progress("reading traces");
  const ingest::ExperimentReport report = ingest::read_experiment(discovery.traces, read, sink, [&](const ingest::ReadProgress& p) {
    progress.update(p.bytes_read, p.bytes_total);
    return true;
  });
  progress.finish();
  std::size_t readable = 0;
  for (const ingest::TraceReport& t : report.traces) {
    for (const ingest::Problem& p : t.left_out) {
      std::cerr << "tracesync check: " << snapshot::readable_text(p.source) << ": " << snapshot::readable_text(p.message)
                << "\n";
      code = worse(code, kTraceSkipped);
    }
    // Not the trace's fault: the exit code of a resource error.
    if (t.out_of_memory) code = worse(code, kInternalError);
    const TraceCheck check = check_trace(t, kinds);
    if (!check.read) {
      code = worse(code, kTraceSkipped);
      continue;
    }
    ++readable;
    if (t.status == ingest::TraceStatus::kPartial || t.info.damaged_packets > 0) code = worse(code, kTraceSkipped);
    if (!check.usable) code = worse(code, kNotSynchronized);
    // A spec the trace's event classes cannot serve: the user's to fix.
    for (const ingest::AppEventTally& tally : t.info.app_census) {
      if (!tally.problem.empty()) code = worse(code, kBadInput);
    }
  }
  if (readable == 0) code = worse(code, kBadInput);

  if (format == "json") {
    std::cout << check_json(report.traces, kinds, sink.counts()).dump(2) << "\n";
  } else {
    print_check_text(std::cout, report.traces, kinds, sink.counts());
    if (readable > 0) {
      std::size_t usable = 0;
      for (const ingest::TraceReport& t : report.traces) usable += check_trace(t, kinds).usable ? 1 : 0;
      std::cout << "\n" << readable << " of " << report.traces.size() << " trace(s) read, " << usable
                << " usable. Network events tracesync reads: " << ingest::network_event_names_text() << ".\n";
    }
  }
  if (readable == 0) std::cerr << "tracesync check: no trace could be read\n";
  return code;
}

}  // namespace tracesync::cli
