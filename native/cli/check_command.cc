// SPDX-License-Identifier: EPL-2.0
// `tracesync check`: before synchronizing, which traces carry network events
// that tracesync can use.

#include <boost/program_options.hpp>

#include <algorithm>
#include <iostream>
#include <span>
#include <vector>

#include "cli/command.h"
#include "cli/command_line.h"
#include "cli/exit_codes.h"
#include "cli/progress_bar.h"
#include "cli/reading_process_command.h"
#include "ingest/experiment_reader.h"
#include "ingest/network_event_names.h"
#include "ingest/trace_discovery.h"
#include "snapshot/utf8.h"

namespace tracesync::cli {
namespace {

constexpr std::string_view kCommand = "check";

namespace po = boost::program_options;

// What one trace holds, counted as the reader delivers it.
struct NetworkEventCount {
  uint64_t tcp_sends = 0;
  uint64_t tcp_receives = 0;
  uint64_t not_tcp = 0;    // other transports, or no IP header
  uint64_t undecodable = 0;  // a payload layout the reader does not know
};

class CountingSink final : public ingest::EventSink {
 public:
  explicit CountingSink(std::size_t traces) : counts_(traces) {}
  void trace_opened(match::TraceIndex, const ingest::TraceInfo&) override {}
  void trace_events(match::TraceIndex trace, std::span<const match::PacketEvent> events, model::Nanoseconds) override {
    NetworkEventCount& c = counts_[trace];  // one thread per trace at a time: no lock needed
    for (const match::PacketEvent& e : events) {
      switch (e.layout) {
        case match::Layout::kTcp: ++(e.direction == match::Direction::kSend ? c.tcp_sends : c.tcp_receives); break;
        case match::Layout::kNonTcp: ++c.not_tcp; break;
        case match::Layout::kUnknown: ++c.undecodable; break;
      }
    }
  }
  void trace_closed(match::TraceIndex) override {}
  const NetworkEventCount& count(std::size_t trace) const { return counts_[trace]; }

 private:
  std::vector<NetworkEventCount> counts_;
};

std::string verdict(const ingest::TraceReport& t, const NetworkEventCount& c) {
  if (t.out_of_memory && t.status == ingest::TraceStatus::kSkipped) return "not read: " + t.problem;
  if (t.status == ingest::TraceStatus::kSkipped) return "unreadable: " + t.problem;
  std::string text;
  if (c.tcp_sends > 0 && c.tcp_receives > 0) {
    text = "usable";
  } else if (t.info.network_events == 0) {
    text = "NO network events";
  } else if (c.tcp_sends + c.tcp_receives == 0) {
    text = "NO usable network events (none decodes as TCP)";
  } else {
    text = c.tcp_sends == 0 ? "receives only: links will be one-way" : "sends only: links will be one-way";
  }
  if (t.status == ingest::TraceStatus::kPartial) {
    text += (t.out_of_memory ? " (read in part: " : " (read up to damage: ") + t.problem + ")";
  }
  if (!t.left_out.empty()) {
    text += " (read without " + std::to_string(t.left_out.size()) +
            (t.left_out.size() == 1 ? " entry of its directory: see above)" : " entries of its directory: see above)");
  }
  return text;
}

// Columns as wide as their widest cell, two spaces apart.
void print_columns(std::ostream& out, const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      out << row[i];
      if (i + 1 < row.size()) out << std::string(width[i] - row[i].size() + 2, ' ');
    }
    out << "\n";
  }
}

void print_help(const po::options_description& options) {
  std::cout << "usage: tracesync check [options] TRACE_DIR...\n\n"
               "Reads the traces as 'tracesync sync' would and shows, before synchronizing, which of them\n"
               "carry network events tracesync can use: per trace, its host, its clock domain, its events,\n"
               "and its TCP sends and receives among the network events read ("
            << ingest::network_event_names_text()
            << ").\nA trace needs both sends and receives for two-way links.\n\n"
            << options << "\nSee docs/recording.md for recording traces tracesync can use.\n\n"
            << "exit codes: 0 every trace is usable, 1 out of memory, 2 bad usage or no trace could be read,\n"
               "3 a trace could not be read, or only in part, 4 a trace lacks usable sends or receives (it would\n"
               "not be synchronized)\n";
}

}  // namespace

int run_check(const std::vector<std::string>& arguments) {
  std::vector<std::string> paths;
  unsigned jobs = 0;
  bool in_process = false;
  po::options_description options("options");
  options.add_options()
      ("help,h", "print this help and exit")
      ("jobs,j", po::value(&jobs)->value_name("N"), "traces read at once (default: the number of cores)")
      ("in-process", po::bool_switch(&in_process), "read traces in this process, not each in a process of its own");
  po::variables_map vm;
  if (const std::string problem = parse_arguments(arguments, options, &paths, vm); !problem.empty()) {
    return usage_error(kCommand, problem);
  }
  if (vm.count("help")) {
    print_help(options);
    return kSuccess;
  }
  if (paths.empty()) return usage_error(kCommand, "give the trace directories to check");

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
  read.reader.endpoints = false;
  if (!in_process) {
    const auto command = reading_process_command();
    if (!command) return usage_error(kCommand, "cannot find this program's own file to read traces with; try --in-process");
    read.reading_command = *command;
  }
  CountingSink sink(discovery.traces.size());
  ProgressBar progress("reading traces");
  const ingest::ExperimentReport report = ingest::read_experiment(discovery.traces, read, sink, [&](const ingest::ReadProgress& p) {
    progress.update(p.bytes_read, p.bytes_total);
    return true;
  });
  progress.finish();
  for (const ingest::TraceReport& t : report.traces) {
    for (const ingest::Problem& p : t.left_out) {
      std::cerr << "tracesync check: " << p.source << ": " << p.message << "\n";
      code = worse(code, kTraceSkipped);
    }
    // Not the trace's fault: the exit code of a resource error.
    if (t.out_of_memory) code = worse(code, kInternalError);
  }

  std::vector<std::vector<std::string>> rows = {
      {"TRACE", "HOST", "DOMAIN", "EVENTS", "NETWORK", "TCP SENDS", "TCP RECEIVES", "NOT TCP", "UNDECODED", "VERDICT"}};
  std::size_t readable = 0;
  for (std::size_t i = 0; i < report.traces.size(); ++i) {
    const ingest::TraceReport& t = report.traces[i];
    const NetworkEventCount& c = sink.count(i);
    // Names from the input may not be UTF-8: their readable text, as in the report.
    using snapshot::readable_text;
    rows.push_back({readable_text(t.info.path), t.info.hostname.empty() ? "-" : readable_text(t.info.hostname),
                    t.info.domain_id.empty()
                        ? "-"
                        : readable_text(t.info.domain_id) + " (" + std::string(ingest::to_string(t.info.domain_source)) + ")",
                    std::to_string(t.info.events), std::to_string(t.info.network_events), std::to_string(c.tcp_sends),
                    std::to_string(c.tcp_receives), std::to_string(c.not_tcp), std::to_string(c.undecodable),
                    readable_text(verdict(t, c))});
    if (t.status == ingest::TraceStatus::kSkipped) {
      code = worse(code, kTraceSkipped);
      continue;
    }
    ++readable;
    if (t.status == ingest::TraceStatus::kPartial) code = worse(code, kTraceSkipped);
    if (c.tcp_sends == 0 || c.tcp_receives == 0) code = worse(code, kNotSynchronized);
  }
  print_columns(std::cout, rows);
  if (readable == 0) {
    std::cerr << "tracesync check: no trace could be read\n";
    return worse(code, kBadInput);
  }
  std::cout << "\n" << readable << " of " << report.traces.size() << " trace(s) read. Network events tracesync reads: "
            << ingest::network_event_names_text() << ".\n";
  return code;
}

}  // namespace tracesync::cli
