// SPDX-License-Identifier: EPL-2.0
#include "cli/bench_ingest.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <cstdio>
#include <iostream>
#include <optional>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/cpu_pin.h"
#include "cli/exit_codes.h"
#include "cli/reading_process_command.h"
#include "ingest/experiment_reader.h"
#include "ingest/trace_discovery.h"
#include "session/synchronization.h"

namespace tracesync::cli {
namespace {

// Takes what the readers deliver and drops it.
class DroppingSink final : public ingest::EventSink {
 public:
  void trace_opened(match::TraceIndex, const ingest::TraceInfo&) override {}
  void trace_events(match::TraceIndex, std::span<const match::PacketEvent>, model::Nanoseconds) override {}
  void trace_closed(match::TraceIndex) override {}
};

// This process's CPU time and its reaped children's: the reading processes
// of a sync run are reaped before it returns.
double cpu_seconds() {
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  double sum = 0;
  for (const int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage usage{};
    getrusage(who, &usage);
    sum += s(usage.ru_utime) + s(usage.ru_stime);
  }
  return sum;
}

struct Run {
  double seconds = 0;
  double cpu = 0;
  uint64_t events = 0;
};

// babeltrace2 alone: src.ctf.fs, every stream port, into a sink that drops
// every message without looking at payloads.
Run babeltrace_alone(const std::vector<ingest::TraceSource>& traces, unsigned jobs) {
  ingest::ReadOptions options;
  options.jobs = jobs;
  options.reader.reader = ingest::ReaderChoice::kBabeltrace2;
  options.reader.decode = false;
  options.reader.stream_ranges = false;  // as in the sync runs, which nobody watches
  DroppingSink sink;
  const double cpu = cpu_seconds();
  const auto start = std::chrono::steady_clock::now();
  const ingest::ExperimentReport report = ingest::read_experiment(traces, options, sink);
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), cpu_seconds() - cpu,
          report.events()};
}

// Our own scanner alone (ScannerTraceReader, in this process): every
// stream walked, network events decoded, into a sink that drops them.
Run scanner_alone(const std::vector<ingest::TraceSource>& traces, unsigned jobs) {
  ingest::ReadOptions options;
  options.jobs = jobs;
  options.reader.reader = ingest::ReaderChoice::kScanner;
  DroppingSink sink;
  const double cpu = cpu_seconds();
  const auto start = std::chrono::steady_clock::now();
  const ingest::ExperimentReport report = ingest::read_experiment(traces, options, sink);
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), cpu_seconds() - cpu,
          report.events()};
}

// The stream files read from the page cache, one thread, 1 MiB at a time:
// the rate no reader of these files can pass. `events` holds the bytes.
Run page_cache(const std::vector<ingest::TraceSource>& traces) {
  std::vector<char> buffer(1 << 20);
  uint64_t bytes = 0;
  const double cpu = cpu_seconds();
  const auto start = std::chrono::steady_clock::now();
  for (const auto& trace : traces) {
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(trace.path, error)) {
      const std::string name = entry.path().filename().string();
      if (name == "metadata" || name.front() == '.' || !entry.is_regular_file(error)) continue;
      const int fd = ::open(entry.path().c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) continue;
      for (ssize_t n; (n = ::read(fd, buffer.data(), buffer.size())) > 0;) bytes += static_cast<uint64_t>(n);
      ::close(fd);
    }
  }
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), cpu_seconds() - cpu, bytes};
}

// The whole pipeline, as `tracesync sync` runs it, report included: each
// trace read by a reading process (`reading_command`), or, if that is
// empty, in this process (`sync --in-process`).
Run tracesync_sync(const std::vector<std::string>& paths, unsigned jobs, const std::vector<std::string>& reading_command) {
  session::IngestOptions ingest;
  ingest.jobs = jobs;
  ingest.reading_command = reading_command;
  const double cpu = cpu_seconds();
  const auto start = std::chrono::steady_clock::now();
  session::Synchronization sync({}, ingest);
  for (const auto& p : paths) sync.add_trace_path(p);
  sync.run({});
  const v1::Snapshot snapshot = sync.snapshot();
  uint64_t events = 0;
  for (const auto& t : snapshot.traces()) events += t.events();
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), cpu_seconds() - cpu, events};
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Both readers, measured side by side: the machines are shared and noisy,
// so each babeltrace2 run is paired with the sync run right after it, and
// the ratios are the medians of the pairs' ratios. One untimed read first
// brings the traces into the page cache.
struct Comparison {
  double bt2_seconds, bt2_cpu, sync_seconds, sync_cpu;
  double ratio_wall, ratio_cpu;
  uint64_t bt2_events, sync_events;
  double scanner_seconds, scanner_cpu;
  double scanner_over_bt2_cpu;    // median of the pairs' ratios of events per CPU second
  double cache_seconds;           // the page-cache read of the same bytes
  double scanner_over_cache;      // median of the pairs' ratios of bytes per second (wall)
  uint64_t scanner_events, cache_bytes;
};

Comparison compare(int repeat, const std::vector<ingest::TraceSource>& traces, const std::vector<std::string>& paths,
                   unsigned jobs, const std::vector<std::string>& reading_command) {
  babeltrace_alone(traces, jobs);
  std::vector<double> bt2_s, bt2_cpu, sync_s, sync_cpu, ratio_wall, ratio_cpu;
  std::vector<double> scanner_s, scanner_cpu, scanner_ratio, cache_s, cache_ratio;
  uint64_t bt2_events = 0, sync_events = 0, scanner_events = 0, cache_bytes = 0;
  for (int i = 0; i < repeat; ++i) {
    const Run bt2 = babeltrace_alone(traces, jobs);
    const Run scanner = scanner_alone(traces, jobs);
    const Run cache = page_cache(traces);
    scanner_s.push_back(scanner.seconds);
    scanner_cpu.push_back(scanner.cpu);
    scanner_ratio.push_back((static_cast<double>(scanner.events) / scanner.cpu) / (static_cast<double>(bt2.events) / bt2.cpu));
    cache_s.push_back(cache.seconds);
    cache_ratio.push_back(cache.seconds / scanner.seconds);  // the same bytes: a ratio of rates
    scanner_events = scanner.events;
    cache_bytes = cache.events;
    const Run sync = tracesync_sync(paths, jobs, reading_command);
    bt2_s.push_back(bt2.seconds);
    bt2_cpu.push_back(bt2.cpu);
    sync_s.push_back(sync.seconds);
    sync_cpu.push_back(sync.cpu);
    ratio_wall.push_back(sync.seconds / bt2.seconds);
    ratio_cpu.push_back(sync.cpu / bt2.cpu);
    bt2_events = bt2.events;
    sync_events = sync.events;
  }
  return {median(bt2_s), median(bt2_cpu), median(sync_s), median(sync_cpu), median(ratio_wall), median(ratio_cpu),
          bt2_events, sync_events, median(scanner_s), median(scanner_cpu), median(scanner_ratio), median(cache_s),
          median(cache_ratio), scanner_events, cache_bytes};
}

}  // namespace

int run_bench_ingest(const IngestBenchOptions& options) {
  const ingest::Discovery discovery = ingest::discover_traces(options.paths);
  for (const auto& p : discovery.problems) std::cerr << "tracesync bench: " << p.source << ": " << p.message << "\n";
  if (discovery.traces.empty()) {
    std::cerr << "tracesync bench ingest: no trace to read\n";
    return kBadInput;
  }
  uint64_t bytes = 0;
  for (const auto& t : discovery.traces) bytes += ingest::stream_file_bytes(t.path);
  std::vector<std::string> reading_command;
  if (!options.in_process) {
    const auto command = reading_process_command();
    if (!command) {
      std::cerr << "tracesync bench ingest: cannot find this program's own file (/proc/self/exe); try --in-process\n";
      return kInternalError;
    }
    reading_command = *command;
  }
  const char* sync_reads = options.in_process ? "sync --in-process" : "sync, a reading process per trace";
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  if (!options.json) {
    std::printf("ingest benchmark: %zu traces, %.1f MB of streams, %d side-by-side pairs of runs, medians, %u cores; %s\n",
                discovery.traces.size(), static_cast<double>(bytes) / 1e6, options.repeat,
                std::thread::hardware_concurrency(), sync_reads);
    std::printf("%6s | %14s %14s | %14s %14s | %s\n", "jobs", "bt2 Mev/s", "bt2 Mev/cpu-s", "sync Mev/s",
                "sync Mev/cpu-s", "sync / bt2 (wall, cpu: median of pair ratios)");
  }
  for (const unsigned jobs : options.jobs) {
    // One job on one CPU: both readers then run where the other could not
    // disturb them by migrating. More jobs keep every core.
    std::optional<CpuPin> pin;
    if (jobs == 1 && options.pin_single_job) {
      pin.emplace();
      if (pin->cpu()) std::cerr << "tracesync bench: 1 job measured on CPU " << *pin->cpu() << " only\n";
    }
    const std::optional<int> pinned_cpu = pin ? pin->cpu() : std::nullopt;
    const Comparison c = compare(options.repeat, discovery.traces, options.paths, jobs, reading_command);
    pin.reset();
    const auto rate = [](uint64_t events, double t) { return static_cast<double>(events) / t / 1e6; };
    const unsigned shown = jobs == 0 ? std::thread::hardware_concurrency() : jobs;
    if (options.json) {
      rows.push_back({{"jobs", shown},
                      {"events", c.sync_events},
                      {"babeltrace2_s", c.bt2_seconds},
                      {"babeltrace2_cpu_s", c.bt2_cpu},
                      {"sync_s", c.sync_seconds},
                      {"sync_cpu_s", c.sync_cpu},
                      {"sync_over_babeltrace2_wall", c.ratio_wall},
                      {"sync_over_babeltrace2_cpu", c.ratio_cpu},
                      {"scanner_s", c.scanner_seconds},
                      {"scanner_cpu_s", c.scanner_cpu},
                      {"scanner_over_babeltrace2_per_cpu", c.scanner_over_bt2_cpu},
                      {"page_cache_s", c.cache_seconds},
                      {"scanner_over_page_cache", c.scanner_over_cache},
                      {"pinned_cpu", pinned_cpu ? nlohmann::ordered_json(*pinned_cpu) : nlohmann::ordered_json()}});
    } else {
      std::printf("%6u | %14.2f %14.2f | %14.2f %14.2f | %.3f, %.3f\n", shown, rate(c.bt2_events, c.bt2_seconds),
                  rate(c.bt2_events, c.bt2_cpu), rate(c.sync_events, c.sync_seconds),
                  rate(c.sync_events, c.sync_cpu), c.ratio_wall, c.ratio_cpu);
      std::printf("%6s | scanner %.2f Mev/s, %.2f Mev/cpu-s, %.0f MB/s | page cache %.0f MB/s | "
                  "scanner / bt2 per cpu-s %.2f | scanner / page cache %.3f\n",
                  "", rate(c.scanner_events, c.scanner_seconds), rate(c.scanner_events, c.scanner_cpu),
                  static_cast<double>(c.cache_bytes) / c.scanner_seconds / 1e6,
                  static_cast<double>(c.cache_bytes) / c.cache_seconds / 1e6, c.scanner_over_bt2_cpu,
                  c.scanner_over_cache);
    }
  }
  if (options.json) {
    std::cout << nlohmann::ordered_json{{"format", "tracesync-bench-ingest/1"},
                                        {"traces", discovery.traces.size()},
                                        {"bytes", bytes},
                                        {"repeat", options.repeat},
                                        {"sync_in_process", options.in_process},
                                        {"rows", rows}}
                     .dump(2)
              << "\n";
  }
  return kSuccess;
}

namespace {

// One reader as sync uses it (network events decoded, time checked or not),
// in this process, into a sink that drops what it gets.
Run reader_alone(const std::vector<ingest::TraceSource>& traces, unsigned jobs, bool check_time,
                 ingest::ReaderChoice reader) {
  ingest::ReadOptions options;
  options.jobs = jobs;
  options.reader.reader = reader;  // its time checks are what is measured
  options.reader.stream_ranges = false;
  options.reader.endpoints = false;  // as sync with its default key
  options.reader.check_time = check_time;
  DroppingSink sink;
  const double cpu = cpu_seconds();
  const auto start = std::chrono::steady_clock::now();
  const ingest::ExperimentReport report = ingest::read_experiment(traces, options, sink);
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), cpu_seconds() - cpu,
          report.events()};
}

}  // namespace

int run_bench_time_check_cost(const IngestBenchOptions& options) {
  const ingest::Discovery discovery = ingest::discover_traces(options.paths);
  for (const auto& p : discovery.problems) std::cerr << "tracesync bench: " << p.source << ": " << p.message << "\n";
  if (discovery.traces.empty()) {
    std::cerr << "tracesync bench ingest: no trace to read\n";
    return kBadInput;
  }
  std::printf("time-check cost: %zu traces, %d pairs of runs (checked, unchecked; the order swapped every other "
              "pair), medians, %u cores, in this process\n",
              discovery.traces.size(), options.repeat, std::thread::hardware_concurrency());
  std::printf("%-11s %6s | %10s %10s | %10s %10s | %s\n", "reader", "jobs", "checked s", "cpu s", "unchecked", "cpu s",
              "checked / unchecked CPU (median of pair ratios; range)");
  for (const ingest::ReaderChoice reader : {ingest::ReaderChoice::kBabeltrace2, ingest::ReaderChoice::kScanner}) {
    for (const unsigned jobs : options.jobs) {
      std::optional<CpuPin> pin;
      if (jobs == 1 && options.pin_single_job) pin.emplace();
      reader_alone(discovery.traces, jobs, true, reader);  // into the page cache
      std::vector<double> on_s, on_cpu, off_s, off_cpu, ratio;
      uint64_t events = 0;
      for (int i = 0; i < options.repeat; ++i) {
        Run on, off;
        if (i % 2 == 0) {
          on = reader_alone(discovery.traces, jobs, true, reader);
          off = reader_alone(discovery.traces, jobs, false, reader);
        } else {
          off = reader_alone(discovery.traces, jobs, false, reader);
          on = reader_alone(discovery.traces, jobs, true, reader);
        }
        on_s.push_back(on.seconds);
        on_cpu.push_back(on.cpu);
        off_s.push_back(off.seconds);
        off_cpu.push_back(off.cpu);
        ratio.push_back(on.cpu / off.cpu);
        events = on.events;
      }
      const unsigned shown = jobs == 0 ? std::thread::hardware_concurrency() : jobs;
      std::printf("%-11s %6u | %10.3f %10.3f | %10.3f %10.3f | %.4f (%.4f .. %.4f), %llu events\n",
                  std::string(ingest::to_string(reader)).c_str(), shown, median(on_s), median(on_cpu), median(off_s),
                  median(off_cpu), median(ratio), *std::min_element(ratio.begin(), ratio.end()),
                  *std::max_element(ratio.begin(), ratio.end()), static_cast<unsigned long long>(events));
    }
  }
  return kSuccess;
}

}  // namespace tracesync::cli
