// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "simulate/simulation_error.h"
#include "simulate/simulation_options.h"

namespace tracesync::simulate {

// `tracesync simulate`: a synthetic experiment written as real CTF kernel
// traces through babeltrace2, plus its ground truth.
//
//   OUTPUT_DIR/<hostname>/kernel/   metadata + channel0_<cpu> streams, per host (unless !write_traces)
//   OUTPUT_DIR/truth.json           true clocks, gaps, links, optionally messages (truth_writer.h)
//   OUTPUT_DIR/matches.txt          with write_matches: the matched messages
//
// The same options (seed included) give byte-identical files.

struct SimulationProgress {
  uint32_t host = 0;             // the host being written
  uint32_t hosts = 0;
  uint64_t events_written = 0;   // over all hosts so far
  uint64_t events_expected = 0;  // an estimate of the total (filler counts are random)
};

// Called now and then from the thread that runs run(); returning false
// cancels the simulation (the current trace is closed cleanly, no truth file
// is written, and the summary says cancelled).
using ProgressCallback = std::function<bool(const SimulationProgress&)>;

struct HostSummary {
  std::string name;
  std::string domain;       // the clock class UUID
  std::string trace_path;   // OUTPUT_DIR/<hostname>/kernel (or ust/uid/1000/64-bit); empty without traces
  uint64_t events = 0;      // events in its trace
};

struct SimulationSummary {
  std::vector<HostSummary> hosts;
  uint64_t events = 0;           // all hosts
  uint64_t links = 0;
  uint64_t transmissions = 0;    // segments sent, retransmissions included
  uint64_t lost = 0;             // of which never received
  uint64_t retransmissions = 0;  // of which resent with an earlier key
  uint64_t matches = 0;          // lines of matches.txt, when written
  std::string truth_path;
  std::string matches_path;      // empty unless write_matches
  bool cancelled = false;
};

// Runs a simulation. Throws SimulationError, with a message for the user,
// when the options are invalid (see validate()), the output directory
// cannot be used (not creatable, not writable, or not empty without
// `overwrite`, which first removes a previous simulation's files there and
// leaves other files alone), or babeltrace2 fails.
SimulationSummary run(const SimulationOptions& options, const ProgressCallback& progress = {});

}  // namespace tracesync::simulate
