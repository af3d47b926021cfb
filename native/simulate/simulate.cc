// SPDX-License-Identifier: EPL-2.0
#include "simulate/simulate.h"

#include <filesystem>

#include "simulate/ctf2_metadata_file.h"
#include "simulate/ctf_trace_writer.h"
#include "simulate/experiment.h"
#include "simulate/output_directory.h"
#include "simulate/traffic.h"
#include "simulate/truth_writer.h"

namespace tracesync::simulate {

SimulationSummary run(const SimulationOptions& options, const ProgressCallback& progress) {
  if (const std::string problem = validate(options); !problem.empty()) throw SimulationError(problem);
  prepare_output_directory(options.output_dir, options.overwrite);
  const std::filesystem::path root(options.output_dir);

  const Experiment experiment = build_experiment(options);
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
    if (!options.write_traces) {
      events_per_host.push_back(0);
      summary.hosts.push_back({host.name, to_string(host.boot_id), "", 0});
      continue;
    }
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
    summary.matches_path = (root / "matches.txt").string();
    summary.matches = write_matches(summary.matches_path, options, experiment, transmissions);
  }
  return summary;
}

}  // namespace tracesync::simulate
