// SPDX-License-Identifier: EPL-2.0
#include "simulate/simulate.h"

#include <filesystem>
#include <optional>

#include "simulate/ctf2_metadata_file.h"
#include "simulate/ctf_trace_writer.h"
#include "simulate/experiment.h"
#include "simulate/output_directory.h"
#include "simulate/traffic.h"
#include "simulate/truth_writer.h"

namespace tracesync::simulate {
namespace {

std::string matches_path(const SimulationOptions& options) {
  if (!options.matches_output.empty()) return options.matches_output;
  return (std::filesystem::path(options.output_dir) / "matches.txt").string();
}

// Without traces, nothing needs every transmission at once: they stream
// from the traffic to the truth and match files, in memory flat in the
// experiment's duration (long runs of `--no-traces --write-matches`).
SimulationSummary run_without_traces(const SimulationOptions& options, const Experiment& experiment,
                                     const ProgressCallback& progress) {
  const std::filesystem::path root(options.output_dir);
  SimulationSummary summary;
  summary.links = experiment.links.size();
  const std::vector<uint64_t> events_per_host(experiment.hosts.size(), 0);
  for (const auto& host : experiment.hosts) summary.hosts.push_back({host.name, to_string(host.boot_id), "", 0});
  summary.truth_path = (root / "truth.json").string();
  TruthWriter truth(summary.truth_path, options, experiment, events_per_host);
  std::optional<MatchesWriter> matches;
  if (options.write_matches) {
    summary.matches_path = matches_path(options);
    matches.emplace(summary.matches_path, options, experiment);
  }
  // Progress counts segments here, against what the rate gives over the
  // experiment (gaps and loss make it an estimate).
  SimulationProgress state;
  state.hosts = static_cast<uint32_t>(experiment.hosts.size());
  state.events_expected = static_cast<uint64_t>(options.message_rate * static_cast<double>(experiment.links.size()) *
                                                static_cast<double>(experiment.end_ns - experiment.start_ns) / 1e9);
  TrafficStream traffic(experiment, options);
  while (const auto m = traffic.next()) {
    if (++summary.transmissions % 65536 == 0 && progress) {
      state.events_written = summary.transmissions;
      if (!progress(state)) {
        summary.cancelled = true;  // the files, unfinished, are removed
        return summary;
      }
    }
    summary.lost += m->lost ? 1 : 0;
    summary.retransmissions += m->retransmission ? 1 : 0;
    truth.add(*m);
    if (matches) matches->add(*m);
  }
  truth.finish();
  if (matches) summary.matches = matches->finish();
  state.events_written = summary.transmissions;
  if (progress) progress(state);
  return summary;
}

}  // namespace

SimulationSummary run(const SimulationOptions& options, const ProgressCallback& progress) {
  if (const std::string problem = validate(options); !problem.empty()) throw SimulationError(problem);
  prepare_output_directory(options.output_dir, options.overwrite);
  const std::filesystem::path root(options.output_dir);

  const Experiment experiment = build_experiment(options);
  if (!options.write_traces) return run_without_traces(options, experiment, progress);
  const std::vector<Transmission> transmissions = generate_traffic(experiment, options);

  SimulationSummary summary;
  summary.links = experiment.links.size();
  summary.transmissions = transmissions.size();
  for (const auto& m : transmissions) {
    summary.lost += m.lost ? 1 : 0;
    summary.retransmissions += m.retransmission ? 1 : 0;
  }

  SimulationProgress state;
  state.hosts = static_cast<uint32_t>(experiment.hosts.size());
  const uint64_t network_events = 2 * summary.transmissions - summary.lost;
  state.events_expected = network_events + static_cast<uint64_t>(options.filler_ratio * static_cast<double>(network_events));

  CtfTraceWriter writer;
  std::vector<uint64_t> events_per_host;
  for (const auto& host : experiment.hosts) {
    state.host = host.index;
    if (progress && !progress(state)) {
      summary.cancelled = true;
      return summary;
    }
    const std::string directory =
        (options.user_space ? root / host.name / kUserSpaceTracePath : root / host.name / "kernel").string();
    const uint64_t before = state.events_written;
    const HostTraceResult result = writer.write_host(
        experiment, transmissions, options, host.index, directory, [&](uint64_t events) {
          state.events_written = before + events;
          return !progress || progress(state);
        });
    state.events_written = before + result.events;
    if (options.ctf2 && !result.cancelled) rewrite_metadata_as_ctf2(directory);
    events_per_host.push_back(result.events);
    summary.events += result.events;
    summary.hosts.push_back({host.name, to_string(host.boot_id), directory, result.events});
    if (result.cancelled) {
      summary.cancelled = true;
      return summary;
    }
  }
  if (progress) progress(state);

  summary.truth_path = (root / "truth.json").string();
  write_truth(summary.truth_path, options, experiment, transmissions, events_per_host);
  if (options.write_matches) {
    summary.matches_path = matches_path(options);
    summary.matches = write_matches(summary.matches_path, options, experiment, transmissions);
  }
  return summary;
}

}  // namespace tracesync::simulate
