// Reading speed of the CTF ingest: tracesync's reading and matching against
// babeltrace2 alone pulling the same traces through the same graph into a
// sink that drops every message (src.ctf.fs, no muxer, every stream port).
//
//   ingest_bench [--jobs N,...] [--repeat K] TRACE_DIR...
//   ingest_bench --generate DIR [--hosts H] [--messages N] [--other K]
//
// The second form writes a synthetic experiment (synthetic_experiment.h)
// to read with the first.
//
// With no directory, reads the shared LTTng 2.1 fixtures. For each job count
// it prints, per mode, the best of K runs (by wall time): events/s, MB/s of
// stream files, the ratio to babeltrace2's own rate, and the CPU time of all
// threads (events per CPU second stays meaningful on a loaded machine).
// Figures only: no pass or fail.

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ingest/experiment_matching.h"
#include "ingest/experiment_reader.h"
#include "ingest/trace_discovery.h"
#include "synthetic_experiment.h"

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

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

struct Figures {
  double seconds = 0;
  double cpu_seconds = 0;  // user + system, all threads
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
  const double cpu_before = cpu_seconds();
  if (mode == Mode::kReadAndMatch) {
    const auto result = tracesync::ingest::match_experiment(traces, options, {});
    report = result.read;
    figures.matches = result.total.matches;
  } else {
    NullSink sink;
    report = tracesync::ingest::read_experiment(traces, options.read, sink);
  }
  figures.seconds = report.seconds;
  figures.cpu_seconds = cpu_seconds() - cpu_before;
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
  std::string generate;
  tracesync::bench::SyntheticShape shape;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--generate" && i + 1 < argc) {
        generate = argv[++i];
      } else if (arg == "--hosts" && i + 1 < argc) {
        shape.hosts = std::max<std::size_t>(2, std::stoul(argv[++i]));
      } else if (arg == "--messages" && i + 1 < argc) {
        shape.messages = std::stoull(argv[++i]);
      } else if (arg == "--other" && i + 1 < argc) {
        shape.other_events = static_cast<unsigned>(std::stoul(argv[++i]));
      } else if (arg == "--jobs" && i + 1 < argc) {
        job_counts = parse_jobs(argv[++i]);
      } else if (arg == "--repeat" && i + 1 < argc) {
        repeat = std::max(1, std::atoi(argv[++i]));
      } else {
        paths.push_back(arg);
      }
    }
  } catch (const std::exception&) {
    std::fprintf(stderr, "usage: ingest_bench [--jobs N,...] [--repeat K] TRACE_DIR...\n"
                         "       ingest_bench --generate DIR [--hosts H] [--messages N] [--other K]\n");
    return 2;
  }
  if (!generate.empty()) {
    const uint64_t events = tracesync::bench::write_synthetic_experiment(generate, shape);
    std::printf("%llu events written under %s\n", static_cast<unsigned long long>(events), generate.c_str());
    return 0;
  }
  if (paths.empty()) paths.push_back(TRACESYNC_SHARED_DIR "/fixtures/lttng-modules-2.1-addons");
  const auto discovery = tracesync::ingest::discover_traces(paths);
  for (const auto& problem : discovery.problems) {
    std::fprintf(stderr, "%s: %s\n", problem.source.c_str(), problem.message.c_str());
  }
  if (discovery.traces.empty()) return 1;

  std::printf("%zu traces\n", discovery.traces.size());
  std::printf("%-5s %-21s %8s %12s %8s %8s %8s %14s %8s\n", "jobs", "mode", "seconds", "events/s", "MB/s", "vs bt2",
              "cpu s", "events/cpu-s", "matches");
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
      std::printf("%-5s %-21s %8.3f %12.0f %8.1f %7.1f%% %8.3f %14.0f %8llu\n",
                  jobs == 0 ? "all" : std::to_string(jobs).c_str(), name, best.seconds, rate,
                  static_cast<double>(best.bytes) / best.seconds / 1e6, 100.0 * rate / babeltrace_rate, best.cpu_seconds,
                  static_cast<double>(best.events) / best.cpu_seconds, static_cast<unsigned long long>(best.matches));
    }
  }
  return 0;
}
