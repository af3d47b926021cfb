// Reading speed of the CTF ingest: tracesync's reading and matching against
// babeltrace2 alone pulling the same traces through the same graph into a
// sink that drops every message (src.ctf.fs, no muxer, every stream port).
//
//   ingest_bench [--jobs N,...] [--repeat K] TRACE_DIR...
//
// With no directory, reads the shared LTTng 2.1 fixtures. For each job count
// it prints, per mode, the best of K runs: events/s, MB/s of stream files
// and the ratio to babeltrace2's own rate. Figures only: no pass or fail.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ingest/experiment_matching.h"
#include "ingest/experiment_reader.h"
#include "ingest/trace_discovery.h"

namespace {

using tracesync::ingest::EventSink;
using tracesync::ingest::ExperimentReport;
using tracesync::ingest::TraceInfo;

// Takes what the readers deliver and drops it.
class NullSink final : public EventSink {
 public:
  void trace_opened(tracesync::match::TraceIndex, const TraceInfo&) override {}
  void trace_events(tracesync::match::TraceIndex, std::span<const tracesync::match::PacketEvent>,
                    tracesync::model::Nanoseconds) override {}
  void trace_closed(tracesync::match::TraceIndex) override {}
};

struct Figures {
  double seconds = 0;
  uint64_t events = 0;
  uint64_t bytes = 0;
  uint64_t matches = 0;
  bool failed = false;
};

enum class Mode { kBabeltrace, kRead, kReadAndMatch };

Figures run_once(const std::vector<tracesync::ingest::TraceSource>& traces, unsigned jobs, Mode mode) {
  tracesync::ingest::ExperimentOptions options;
  options.read.jobs = jobs;
  options.read.reader.decode = mode != Mode::kBabeltrace;
  Figures figures;
  ExperimentReport report;
  if (mode == Mode::kReadAndMatch) {
    const auto result = tracesync::ingest::match_experiment(traces, options, {});
    report = result.read;
    figures.matches = result.total.matches;
  } else {
    NullSink sink;
    report = tracesync::ingest::read_experiment(traces, options.read, sink);
  }
  figures.seconds = report.seconds;
  figures.events = report.events();
  figures.bytes = report.bytes();
  for (const auto& trace : report.traces) {
    if (trace.status != tracesync::ingest::TraceStatus::kComplete) {
      std::fprintf(stderr, "%s: %s\n", trace.info.path.c_str(), trace.problem.c_str());
      figures.failed = true;
    }
  }
  return figures;
}

std::vector<unsigned> parse_jobs(const std::string& text) {
  std::vector<unsigned> jobs;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = text.find(',', at);
    jobs.push_back(static_cast<unsigned>(std::stoul(text.substr(at, comma - at))));
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return jobs;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<unsigned> job_counts = {1, 0};
  int repeat = 3;
  std::vector<std::string> paths;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--jobs" && i + 1 < argc) {
        job_counts = parse_jobs(argv[++i]);
      } else if (arg == "--repeat" && i + 1 < argc) {
        repeat = std::max(1, std::atoi(argv[++i]));
      } else {
        paths.push_back(arg);
      }
    }
  } catch (const std::exception&) {
    std::fprintf(stderr, "usage: ingest_bench [--jobs N,...] [--repeat K] TRACE_DIR...\n");
    return 2;
  }
  if (paths.empty()) paths.push_back(TRACESYNC_SHARED_DIR "/fixtures/lttng-modules-2.1-addons");
  const auto discovery = tracesync::ingest::discover_traces(paths);
  for (const auto& problem : discovery.problems) {
    std::fprintf(stderr, "%s: %s\n", problem.source.c_str(), problem.message.c_str());
  }
  if (discovery.traces.empty()) return 1;

  std::printf("%zu traces\n", discovery.traces.size());
  std::printf("%-6s %-22s %10s %14s %10s %9s %8s\n", "jobs", "mode", "seconds", "events/s", "MB/s", "vs bt2", "matches");
  const std::pair<Mode, const char*> modes[] = {
      {Mode::kBabeltrace, "babeltrace2 (drain)"}, {Mode::kRead, "tracesync read"}, {Mode::kReadAndMatch, "tracesync read+match"}};
  for (const unsigned jobs : job_counts) {
    double babeltrace_rate = 0;
    for (const auto& [mode, name] : modes) {
      Figures best;
      for (int r = 0; r < repeat; ++r) {
        const Figures f = run_once(discovery.traces, jobs, mode);
        if (f.failed) return 1;
        if (r == 0 || f.seconds < best.seconds) best = f;
      }
      const double rate = static_cast<double>(best.events) / best.seconds;
      if (mode == Mode::kBabeltrace) babeltrace_rate = rate;
      std::printf("%-6s %-22s %10.3f %14.0f %10.1f %8.1f%% %8llu\n", jobs == 0 ? "all" : std::to_string(jobs).c_str(),
                  name, best.seconds, rate, static_cast<double>(best.bytes) / best.seconds / 1e6,
                  100.0 * rate / babeltrace_rate, static_cast<unsigned long long>(best.matches));
    }
  }
  return 0;
}
