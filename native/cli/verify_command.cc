// SPDX-License-Identifier: EPL-2.0
// `tracesync verify REPORT.json CERTIFICATE.json [TRACES...]`: re-derives a
// sync report's link lines and bounds from the messages its certificate
// cites, and its trace transforms from those lines, in exact rational
// arithmetic with code of its own (native/verify, docs/verify.md); given the
// traces, re-reads them and finds every cited message in them.

#include <boost/program_options.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/cited_event_reading.h"
#include "cli/command.h"
#include "cli/command_line.h"
#include "cli/exit_codes.h"
#include "cli/trace_reading.h"
#include "ingest/match_stream.h"
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
  try {
    // Parsed from the file, not from a copy of its text: a day's report is
    // 12 MB of text (docs/performance.md).
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw verify::VerifyInputError(std::string("the ") + what + " '" + path + "' is not JSON: " + e.what());
  } catch (const std::ios_base::failure&) {
    // A read that fails while parsing (a directory, an I/O error).
    throw verify::VerifyInputError(std::string("cannot read the ") + what + " '" + path + "': " + std::strerror(errno));
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
    j["link_bounds_from_every_message"] = v.sides_checked ? nlohmann::ordered_json(v.link_bounds_from_every_message)
                                                          : nlohmann::ordered_json(nullptr);
    j["trace_segments"] = v.trace_segments;
    j["trace_bounds"] = v.trace_bounds;
    j["traces_read"] = v.traces_checked ? nlohmann::ordered_json(v.traces_read) : nlohmann::ordered_json(nullptr);
    j["messages_in_traces"] =
        v.traces_checked ? nlohmann::ordered_json(v.messages_in_traces) : nlohmann::ordered_json(nullptr);
    j["unverified"] = v.unverified;
    j["events_in_cited_stream_files"] =
        v.traces_checked ? nlohmann::ordered_json(v.events_in_cited_stream_files) : nlohmann::ordered_json(nullptr);
    const auto if_checked = [&](std::size_t n) {
      return v.sides_checked ? nlohmann::ordered_json(n) : nlohmann::ordered_json(nullptr);
    };
    j["messages_on_allowed_side"] = if_checked(v.messages_on_allowed_side);
    j["messages_in_unbounded_segments"] = if_checked(v.messages_in_unbounded_segments);
    j["messages_on_no_link"] = if_checked(v.messages_on_no_link);
    j["knot_bounds"] = if_checked(v.knot_bounds);
    j["band_instants"] = if_checked(v.band_instants);
    std::cout << j.dump(2) << "\n";
    return;
  }
  if (!v.disagreement.empty()) {
    std::cout << "DISAGREES: " << v.disagreement << "\n";
    return;
  }
  std::cout << "agrees: " << v.link_segments << " link segments re-derived from " << v.messages
            << " cited messages, " << v.link_bounds << " link bounds covering what their cited messages allow"
            << (v.link_bounds_from_every_message > 0
                    ? " (" + std::to_string(v.link_bounds_from_every_message) + " segments' from every message)"
                    : std::string())
            << ", " << v.trace_segments << " trace segments equal to the exact composition to the last digit, "
            << v.trace_bounds << " trace bounds equal to the exact sum of their links'";
  if (v.traces_checked) {
    std::cout << "; all " << v.messages_in_traces << " cited messages found in the " << v.traces_read
              << " traces re-read (send and receive events at their times, with one key; "
              << v.events_in_cited_stream_files << " of their " << 2 * v.messages_in_traces
              << " events in the stream file the certificate names)";
  }
  if (v.sides_checked) {
    std::cout << "; all " << v.messages_on_allowed_side << " messages of the "
              << (v.traces_checked ? "traces" : "match file") << " in ACCURATE segments on the allowed side of their lines";
    if (v.knot_bounds > 0) {
      std::cout << "; " << v.knot_bounds << " clock-map knot bounds covering the local bands re-derived from every "
                << "message at " << v.band_instants << " instants";
    }
  }
  std::cout << "\n";
  if (v.sides_checked && v.messages_in_unbounded_segments > 0) {
    std::cout << "not verified: " << v.messages_in_unbounded_segments
              << " messages in segments that are not ACCURATE (no line to be on a side of)\n";
  }
  if (v.sides_checked && v.messages_on_no_link > 0) {
    std::cout << "not verified: " << v.messages_on_no_link
              << " messages between domains the report has no link for, or within one domain\n";
  }
  for (const std::string& u : v.unverified) std::cout << "not verified: " << u << "\n";
}

void count_sides(const verify::AllowedSides& sides, verify::Verdict& verdict) {
  verdict.sides_checked = true;
  verdict.messages_on_allowed_side = sides.on_their_side();
  verdict.messages_in_unbounded_segments = sides.in_unbounded_segments();
  verdict.messages_on_no_link = sides.on_no_link();
}

// Re-reads the traces and finds every message the certificate cites in
// them, and every message they hold on its allowed side: a disagreement
// when one is missing or on the wrong side; an error (bad input) when the
// traces cannot serve. Fills the verdict's trace counts.
std::string check_traces(const std::vector<std::string>& paths, const nlohmann::json& report,
                         const nlohmann::json& certificate, const ingest::ReadOptions& options,
                         verify::Verdict& verdict) {
  const std::vector<verify::CitedMessage> messages = verify::cited_messages(certificate);
  verify::AllowedSides sides(certificate);
  sides.keep_messages_for(verdict.envelope_claims);
  sides.keep_messages_for(verdict.knot_claims);
  auto reading = read_cited_events(paths, report, messages, options, sides);
  if (auto* error = std::get_if<std::string>(&reading)) throw verify::VerifyInputError(*error);
  const CitedEventReading& found = std::get<CitedEventReading>(reading);
  for (const std::string& p : found.partial) std::cerr << "tracesync verify: read in part: " << p << "\n";
  verdict.traces_checked = true;
  verdict.traces_read = found.traces_read;
  const std::string missing = verify::first_message_not_in_traces(
      messages, [&](const std::string& trace, bool send, int64_t time) -> const std::vector<verify::RecordedEvent>& {
        return found.events.at(trace, send, time);
      },
      &verdict.events_in_cited_stream_files);
  if (!missing.empty()) return missing;
  verdict.messages_in_traces = messages.size();
  count_sides(sides, verdict);
  if (!sides.disagreement().empty()) return sides.disagreement();
  if (std::string envelopes = sides.check_envelopes(verdict); !envelopes.empty()) return envelopes;
  return sides.check_knots(verdict);
}

// Every message of a match file (`simulate --write-matches`, what `sync
// --matches` read) on its allowed side: a disagreement when one is not; a
// malformed line is bad input naming the file and line.
std::string check_matches(const std::string& path, const nlohmann::json& certificate, verify::Verdict& verdict) {
  verify::AllowedSides sides(certificate);
  sides.keep_messages_for(verdict.envelope_claims);
  sides.keep_messages_for(verdict.knot_claims);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw verify::VerifyInputError("cannot read the match file '" + path + "'");
  std::string sender, receiver;
  verify::AllowedSides::Route route;
  const auto error = ingest::read_match_stream(in, [&](const ingest::StreamMessage& m) {
    // Consecutive lines mostly join the same two hosts: find the route once.
    if (m.sender != sender || m.receiver != receiver) {
      sender = m.sender;
      receiver = m.receiver;
      route = sender == receiver ? verify::AllowedSides::Route{} : sides.route(sender, receiver);
    }
    sides.check(route, m.send, m.receive);
  });
  if (error) throw verify::VerifyInputError(path + ":" + std::to_string(error->line) + ": " + error->message);
  count_sides(sides, verdict);
  if (!sides.disagreement().empty()) return sides.disagreement();
  if (std::string envelopes = sides.check_envelopes(verdict); !envelopes.empty()) return envelopes;
  return sides.check_knots(verdict);
}

}  // namespace

int run_verify(const std::vector<std::string>& arguments) {
  std::string format = "text";
  unsigned jobs = 0;
  bool in_process = false;
  std::vector<std::string> messages, messages_files;
  std::string matches;
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
       "with TRACES: the message spec files the sync was given")
      ("matches,m", po::value(&matches)->value_name("FILE"),
       "the match file the sync read (sync --matches): every message in it must lie on its allowed side");
  std::vector<std::string> files;
  po::variables_map vm;
  if (const std::string problem = parse_arguments(arguments, options, &files, vm); !problem.empty()) {
    return usage_error(kCommand, problem);
  }
  if (vm.count("help")) {
    std::cout << "usage: tracesync verify [options] REPORT.json CERTIFICATE.json [TRACE_DIR... | --matches FILE]\n\n"
                 "Checks a report of 'tracesync sync --format json' against the certificate written beside it\n"
                 "(sync --certificate FILE), in exact rational arithmetic, with code that shares nothing with\n"
                 "the engine's hulls: every ACCURATE link segment's Lmin and Lmax re-derived from the messages\n"
                 "the certificate cites, its alpha, beta and bounds checked against them, and every trace's\n"
                 "transform recomputed as the exact composition of its links along the certified path, to the\n"
                 "last printed digit. Given the traces (or extracts) the sync read, it re-reads them and finds\n"
                 "every cited message in them: a send event at its send time on a trace of its sender, a\n"
                 "receive event at its receive time on a trace of its receiver, with one message key, each in\n"
                 "the trace and stream file the certificate names for it, when it names them; and it\n"
                 "matches their messages as sync does by default and checks that every one lies on the allowed\n"
                 "side of its link segment's Lmin and Lmax (completeness: no uncited message contradicts them).\n"
                 "Given the match file the sync read (--matches FILE), it checks every message of it the same way.\n"
                 "Given either, it also re-derives the knot bounds of every clock map built from local bands (a\n"
                 "link of several segments) from every message of the link, by the engine's rule, exactly.\n"
                 "Stops at the first disagreement and names it. What this proves and assumes: docs/verify.md.\n"
                 "exit codes: 0 everything agrees, 6 a disagreement (not 1: 1 is an internal error of any\n"
                 "command, such as memory running out while re-reading traces), 2 bad usage or input\n\n"
              << options;
    return kSuccess;
  }
  if (format != "text" && format != "json") return usage_error(kCommand, "--format must be text or json");
  if (files.size() < 2) return usage_error(kCommand, "expected REPORT.json CERTIFICATE.json [TRACE_DIR...]");
  const std::vector<std::string> traces(files.begin() + 2, files.end());
  if (!traces.empty() && !matches.empty()) return usage_error(kCommand, "give TRACES or --matches FILE, not both");
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
  if (!traces.empty()) {
    auto reading = choose_trace_reading(ingest::to_string(ingest::ReaderChoice::kAuto), in_process);  // no --reader
    if (const auto* why = std::get_if<std::string>(&reading)) return usage_error(kCommand, *why);
    read.reading_command = std::move(std::get<TraceReading>(reading).reading_command);
  }
  try {
    const nlohmann::json report = read_json(files[0], "report");
    const nlohmann::json certificate = read_json(files[1], "certificate");
    verify::Verdict verdict = verify::check_certificate(report, certificate);
    const bool certificate_agrees = verdict.disagreement.empty();
    if (certificate_agrees && !traces.empty()) {
      verdict.disagreement = check_traces(traces, report, certificate, read, verdict);
    }
    if (certificate_agrees && !matches.empty()) verdict.disagreement = check_matches(matches, certificate, verdict);
    print(verdict, format);
    if (!verdict.disagreement.empty()) {
      std::cerr << "tracesync verify: "
                << (!certificate_agrees                 ? "the report disagrees with its certificate: "
                    : verdict.sides_checked                 ? "the messages contradict the report: "
                                                            : "the certificate cites a message the traces do not hold: ")
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
