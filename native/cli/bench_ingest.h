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
};

// `tracesync bench ingest`: events per second of the whole `tracesync sync`
// pipeline against babeltrace2 reading the same traces into a sink that
// drops every message, for each job count. Prints figures; returns an exit code.
int run_bench_ingest(const IngestBenchOptions& options);

}  // namespace tracesync::cli
