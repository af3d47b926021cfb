// SPDX-License-Identifier: EPL-2.0
// `tracesync check-truth REPORT.json TRUTH.json`: does a sync report's bound
// hold the truth of a simulation at every instant checked? A tool for tests
// and benchmarks of the estimators, and for anyone trying tracesync on
// generated clocks.

#include <boost/program_options.hpp>

#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/command_line.h"
#include "cli/exit_codes.h"
#include "simulate/truth_check.h"

namespace tracesync::cli {
namespace {

constexpr std::string_view kCommand = "check-truth";

namespace po = boost::program_options;

void print_json(const simulate::TruthVerdict& verdict) {
  nlohmann::ordered_json root;
  root["format"] = "tracesync-truth-check/1";
  root["checked"] = verdict.checked;
  root["skipped"] = verdict.skipped;
  root["violations"] = verdict.violations;
  root["violations_in_breaches"] = verdict.violations_in_breaches;
  root["worst_error_ns"] = verdict.worst_error_ns;
  root["largest_bound_ns"] = verdict.largest_bound_ns;
  root["largest_bound_in_traffic_ns"] = verdict.largest_bound_in_traffic_ns;
  nlohmann::ordered_json traces = nlohmann::ordered_json::array();
  for (const auto& t : verdict.traces) {
    nlohmann::ordered_json j;
    j["name"] = t.name;
    j["domain"] = t.domain;
    j["skipped"] = t.skipped;
    if (!t.skipped) {
      j["reference"] = t.reference;
      j["segments"] = t.segments;
      j["instants"] = t.instants;
      j["worst_error_ns"] = t.worst_error_ns;
      j["worst_error_at_ns"] = t.worst_error_at;
      j["largest_bound_ns"] = t.largest_bound_ns;
      j["largest_bound_in_traffic_ns"] = t.largest_bound_in_traffic_ns;
      j["violations"] = t.violations;
      j["violations_in_breaches"] = t.violations_in_breaches;
      if (t.violations > 0) {
        j["worst_violation"] = {{"at_ns", t.worst_violation_at},
                                {"error_ns", t.worst_violation_error_ns},
                                {"bound_ns", t.worst_violation_bound_ns}};
      }
    }
    traces.push_back(std::move(j));
  }
  root["traces"] = std::move(traces);
  std::cout << root.dump(2) << "\n";
}

void print_text(const simulate::TruthVerdict& verdict) {
  std::cout << std::fixed << std::setprecision(1);
  for (const auto& t : verdict.traces) {
    std::cout << t.name;
    if (t.skipped) {
      std::cout << ": not synchronized, skipped\n";
      continue;
    }
    std::cout << ": " << t.segments << (t.segments == 1 ? " segment, " : " segments, ") << t.instants
              << " instants, worst error " << t.worst_error_ns << " ns, largest bound " << t.largest_bound_ns
              << " ns (" << t.largest_bound_in_traffic_ns << " ns in traffic), " << t.violations
              << (t.violations == 1 ? " violation" : " violations");
    if (t.violations_in_breaches > 0) std::cout << ", " << t.violations_in_breaches << " of them in flagged breaches";
    if (t.violations > 0) {
      std::cout << " (worst at " << t.worst_violation_at << ": error " << t.worst_violation_error_ns << " ns, bound "
                << t.worst_violation_bound_ns << " ns)";
    }
    std::cout << "\n";
  }
  std::cout << verdict.checked << " traces checked, " << verdict.skipped << " skipped: worst error "
            << verdict.worst_error_ns << " ns, largest bound " << verdict.largest_bound_ns << " ns ("
            << verdict.largest_bound_in_traffic_ns << " ns in traffic), "
            << verdict.violations << " violations";
  if (verdict.violations == 0) {
    std::cout << ": the truth is inside every bound\n";
  } else if (verdict.silent_violations() == 0) {
    std::cout << ", all in spans the report flags as breaches of the clock-stability assumption\n";
  } else {
    std::cout << ", " << verdict.silent_violations() << " of them outside the breaches the report flags: the truth is OUTSIDE a bound\n";
  }
}

}  // namespace

int run_check_truth(const std::vector<std::string>& arguments) {
  std::string format = "text";
  simulate::TruthCheckOptions check;
  po::options_description options("options");
  options.add_options()
      ("help,h", "print this help and exit")
      ("format,f", po::value(&format)->value_name("FORMAT"), "text (default) or json")
      ("samples", po::value(&check.samples)->value_name("N"), "evenly spaced instants per trace, ends included (default 1000)")
      ("tolerance", po::value(&check.tolerance_ns)->value_name("NS"), "slack for clocks read to the ns (default 1)");
  std::vector<std::string> files;
  po::variables_map vm;
  if (const std::string problem = parse_arguments(arguments, options, &files, vm); !problem.empty()) {
    return usage_error(kCommand, problem);
  }
  if (vm.count("help")) {
    std::cout << "usage: tracesync check-truth [options] REPORT.json TRUTH.json\n\n"
                 "Checks a report of 'tracesync sync --format json' against the truth.json of the\n"
                 "'tracesync simulate' run it synchronized: for every synchronized trace, the truth (its host's\n"
                 "clock mapped onto its island reference's) must lie within the reported bound at evenly spaced\n"
                 "instants, at every segment end, rate change and gap, and at every message when the truth\n"
                 "lists them (simulate --truth-messages). Prints per trace the worst true error, the largest\n"
                 "bound, the largest bound in traffic (between the first and the last message of every link on\n"
                 "the trace's path, outside the truth's gaps: the traffic's ends and gaps left out) and the\n"
                 "violations, and how many of them lie within 20 s (twice the stability horizon) of a span where\n"
                 "the report flags a link on the trace's path as breaching the clock-stability assumption (its\n"
                 "\"breaches\"): those are not silent.\n"
                 "exit codes: 0 no violation outside flagged breaches, 5 the truth is outside a bound somewhere the\n"
                 "report does not flag, 2 bad usage or input\n\n"
              << options;
    return kSuccess;
  }
  if (format != "text" && format != "json") return usage_error(kCommand, "--format must be text or json");
  if (files.size() != 2) return usage_error(kCommand, "expected REPORT.json TRUTH.json");
  if (check.samples < 2) return usage_error(kCommand, "--samples must be at least 2");
  if (!(check.tolerance_ns >= 0)) return usage_error(kCommand, "--tolerance must be a number of ns, at least 0");
  try {
    // In order: a problem with the report is named first.
    const std::vector<simulate::ReportTrace> report = simulate::read_report(files[0]);
    const simulate::Truth truth = simulate::read_truth(files[1]);
    const simulate::TruthVerdict verdict = simulate::check_against_truth(report, truth, check);
    if (format == "json") {
      print_json(verdict);
    } else {
      print_text(verdict);
    }
    return verdict.silent_violations() == 0 ? kSuccess : kTruthViolated;
  } catch (const simulate::TruthError& e) {
    std::cerr << "tracesync check-truth: " << e.what() << "\n";
    return kBadInput;
  }
}

}  // namespace tracesync::cli
