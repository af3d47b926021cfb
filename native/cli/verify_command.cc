// SPDX-License-Identifier: EPL-2.0
// `tracesync verify REPORT.json CERTIFICATE.json [TRACES...]`: re-derives a
// sync report's link lines and bounds from the messages its certificate
// cites, and its trace transforms from those lines, in exact rational
// arithmetic with code of its own (native/verify, docs/verify.md); given the
// traces, re-reads them and finds every cited message in them.

#include <boost/program_options.hpp>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cited_event_reading.h"
#include "cli/command.h"
#include "cli/command_line.h"
#include "cli/exit_codes.h"
#include "cli/reading_process_command.h"
#include "ingest/message_spec.h"
#include "verify/certificate_check.h"
#include "verify/cited_messages.h"

namespace tracesync::cli {
namespace {

constexpr std::string_view kCommand = "verify";

namespace po = boost::program_options;

// The JSON document in `path`; throws VerifyInputError naming the file.
nlohmann::json read_json(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw verify::VerifyInputError(std::string("cannot read the ") + what + " '" + path + "'");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  try {
    return nlohmann::json::parse(bytes.str());
  } catch (const nlohmann::json::parse_error& e) {
    throw verify::VerifyInputError(std::string("the ") + what + " '" + path + "' is not JSON: " + e.what());
  }
}

void print(const verify::Verdict& v, const std::string& format) {
  if (format == "json") {
    nlohmann::ordered_json j;
    j["format"] = "tracesync-verify/1";
    j["agrees"] = v.disagreement.empty();
    j["disagreement"] = v.disagreement.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v.disagreement);
    j["link_segments"] = v.link_segments;
    j["messages"] = v.messages;
    j["link_bounds"] = v.link_bounds;
    j["link_bounds_resting_on_uncited_messages"] = v.bounds_resting_on_stability;
    j["trace_segments"] = v.trace_segments;
    j["trace_bounds"] = v.trace_bounds;
    j["traces_read"] = v.traces_checked ? nlohmann::ordered_json(v.traces_read) : nlohmann::ordered_json(nullptr);
    j["messages_in_traces"] =
        v.traces_checked ? nlohmann::ordered_json(v.messages_in_traces) : nlohmann::ordered_json(nullptr);
    j["unverified"] = v.unverified;
    std::cout << j.dump(2) << "\n";
    return;
  }
  if (!v.disagreement.empty()) {
    std::cout << "DISAGREES: " << v.disagreement << "\n";
    return;
  }
  std::cout << "agrees: " << v.link_segments << " link segments re-derived from " << v.messages
            << " cited messages, " << v.link_bounds << " link bounds covering what their cited messages allow, "
            << v.trace_segments << " trace segments equal to the exact composition to the last digit, "
            << v.trace_bounds << " trace bounds equal to the exact sum of their links'";
  if (v.traces_checked) {
    std::cout << "; all " << v.messages_in_traces << " cited messages found in the " << v.traces_read
              << " traces re-read (send and receive events at their times, with one key)";
  }
  std::cout << "\n";
  for (const std::string& u : v.unverified) std::cout << "not verified: " << u << "\n";
}

// Re-reads the traces and finds every message the certificate cites in
// them: a disagreement when one is missing; an error (bad input) when the
// traces cannot serve. Fills the verdict's trace counts.
std::string check_traces(const std::vector<std::string>& paths, const nlohmann::json& report,
                         const nlohmann::json& certificate, const ingest::ReadOptions& options,
                         verify::Verdict& verdict) {
  const std::vector<verify::CitedMessage> messages = verify::cited_messages(certificate);
  auto reading = read_cited_events(paths, report, messages, options);
  if (auto* error = std::get_if<std::string>(&reading)) throw verify::VerifyInputError(*error);
  const CitedEventReading& found = std::get<CitedEventReading>(reading);
  for (const std::string& p : found.partial) std::cerr << "tracesync verify: read in part: " << p << "\n";
  verdict.traces_checked = true;
  verdict.traces_read = found.traces_read;
  const std::string missing = verify::first_message_not_in_traces(
      messages, [&](const std::string& trace, bool send, int64_t time) -> const std::vector<verify::RecordedEvent>& {
        return found.events.at(trace, send, time);
      });
  if (missing.empty()) verdict.messages_in_traces = messages.size();
  return missing;
}

}  // namespace

int run_verify(const std::vector<std::string>& arguments) {
  std::string format = "text";
  unsigned jobs = 0;
  bool in_process = false;
  std::vector<std::string> messages, messages_files;
  po::options_description options("options");
  options.add_options()
      ("help,h", "print this help and exit")
      ("format,f", po::value(&format)->value_name("FORMAT"), "text (default) or json")
      ("jobs,j", po::value(&jobs)->value_name("N"), "with TRACES: traces read at once (default: the number of cores)")
      ("in-process", po::bool_switch(&in_process),
       "with TRACES: read them in this process, not each in a process of its own")
      ("messages", po::value(&messages)->value_name("SPEC")->composing(),
       "with TRACES: the application message specs the sync was given (the same, in the same order)")
      ("messages-file", po::value(&messages_files)->value_name("FILE")->composing(),
       "with TRACES: the message spec files the sync was given");
  std::vector<std::string> files;
  po::variables_map vm;
  if (const std::string problem = parse_arguments(arguments, options, &files, vm); !problem.empty()) {
    return usage_error(kCommand, problem);
  }
  if (vm.count("help")) {
    std::cout << "usage: tracesync verify [options] REPORT.json CERTIFICATE.json [TRACE_DIR...]\n\n"
                 "Checks a report of 'tracesync sync --format json' against the certificate written beside it\n"
                 "(sync --certificate FILE), in exact rational arithmetic, with code that shares nothing with\n"
                 "the engine's hulls: every ACCURATE link segment's Lmin and Lmax re-derived from the messages\n"
                 "the certificate cites, its alpha, beta and bounds checked against them, and every trace's\n"
                 "transform recomputed as the exact composition of its links along the certified path, to the\n"
                 "last printed digit. Given the traces (or extracts) the sync read, it re-reads them and finds\n"
                 "every cited message in them: a send event at its send time on a trace of its sender, a\n"
                 "receive event at its receive time on a trace of its receiver, with one message key.\n"
                 "Stops at the first disagreement and names it. What this proves and assumes: docs/verify.md.\n"
                 "exit codes: 0 everything agrees, 6 a disagreement (not 1: 1 is an internal error of any\n"
                 "command, such as memory running out while re-reading traces), 2 bad usage or input\n\n"
              << options;
    return kSuccess;
  }
  if (format != "text" && format != "json") return usage_error(kCommand, "--format must be text or json");
  if (files.size() < 2) return usage_error(kCommand, "expected REPORT.json CERTIFICATE.json [TRACE_DIR...]");
  const std::vector<std::string> traces(files.begin() + 2, files.end());
  if (traces.empty() && (jobs != 0 || in_process || !messages.empty() || !messages_files.empty())) {
    return usage_error(kCommand, "--jobs, --in-process, --messages and --messages-file are for re-reading TRACES");
  }
  ingest::ReadOptions read;
  read.jobs = jobs;
  read.reader.stream_ranges = false;
  read.reader.endpoints = false;  // the key compared is the default one (docs/verify.md)
  if (!messages.empty() || !messages_files.empty()) {
    auto specs = ingest::parse_message_specs(messages, messages_files);
    if (auto* why = std::get_if<std::string>(&specs)) return usage_error(kCommand, *why);
    read.reader.selection = ingest::EventSelection(std::get<std::vector<ingest::MessageSpec>>(std::move(specs)));
  }
  if (!in_process && !traces.empty()) {
    const auto command = reading_process_command();
    if (!command) return usage_error(kCommand, "cannot find this program's own file to read traces with; try --in-process");
    read.reading_command = *command;
  }
  try {
    const nlohmann::json report = read_json(files[0], "report");
    const nlohmann::json certificate = read_json(files[1], "certificate");
    verify::Verdict verdict = verify::check_certificate(report, certificate);
    const bool certificate_agrees = verdict.disagreement.empty();
    if (certificate_agrees && !traces.empty()) {
      verdict.disagreement = check_traces(traces, report, certificate, read, verdict);
    }
    print(verdict, format);
    if (!verdict.disagreement.empty()) {
      std::cerr << "tracesync verify: "
                << (certificate_agrees ? "the certificate cites a message the traces do not hold: "
                                       : "the report disagrees with its certificate: ")
                << verdict.disagreement << "\n";
      return kVerifyDisagrees;
    }
    return kSuccess;
  } catch (const verify::VerifyInputError& e) {
    std::cerr << "tracesync verify: " << e.what() << "\n";
    return kBadInput;
  }
}

}  // namespace tracesync::cli
