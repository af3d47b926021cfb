// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <string>
#include <vector>

namespace tracesync::cli {

struct IngestBenchOptions {
  std::vector<std::string> paths;
  std::vector<unsigned> jobs{1, 0};  // 0: one per core
  int repeat = 3;
  bool json = false;
  bool pin_single_job = true;  // runs with one job stay on one CPU (CpuPin)
  bool in_process = false;     // measure `sync --in-process` rather than sync's reading processes
  // Instead: what the time checks cost (issue 34), the babeltrace2 reader
  // with and without them, in this process (the hidden --time-check-cost).
  bool time_check_cost = false;
};

// `tracesync bench ingest`: events per second of the whole `tracesync sync`
// pipeline against babeltrace2 reading the same traces into a sink that
// drops every message, for each job count. Prints figures; returns an exit code.
int run_bench_ingest(const IngestBenchOptions& options);

// `tracesync bench ingest --time-check-cost`: the babeltrace2 reader, network
// events decoded as sync reads them, with its time checks and without, in
// alternating pairs (the order swapped every other pair), for each job count.
int run_bench_time_check_cost(const IngestBenchOptions& options);

}  // namespace tracesync::cli
