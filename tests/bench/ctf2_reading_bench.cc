// SPDX-License-Identifier: EPL-2.0
// ctf2_reading_bench TRACE_DIR... [--repeat K]: reading a trace's CTF 2
// metadata against its CTF 1.8 metadata, side by side (issue 38). For each
// trace: its TSDL parsed (as recorded: packetized or not), the same metadata
// translated to CTF 2 (ctf/ctf2_writer, in memory) parsed, and every stream
// file scanned with the plans of each (every event walked, none decoded:
// what the scanner does for events no one asked for). Medians of K runs,
// alternating the two formats; figures only, never pass/fail.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "ctf/ctf2_metadata.h"
#include "ctf/ctf2_writer.h"
#include "ctf/metadata_text.h"
#include "ctf/scan_plan.h"
#include "ctf/stream_scanner.h"
#include "ctf/tsdl_parser.h"

namespace {

namespace fs = std::filesystem;
using namespace tracesync::ctf;
using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

class Counter final : public EventVisitor {
 public:
  void selected_event(const ScanPlan::EventPlan&, const ScanPlan::StreamPlan&, uint64_t, const CapturedField*) override {}
};

// Seconds to scan every stream file of `trace` with `trace_class`'s plans; `events` counted.
double scan(const fs::path& trace, TraceClass trace_class, uint64_t* events) {
  const auto start = Clock::now();
  std::string error;
  auto plan = ScanPlan::compile(std::move(trace_class), [](const EventClass&) { return std::nullopt; }, &error);
  if (!plan) {
    std::fprintf(stderr, "ctf2_reading_bench: %s: %s\n", trace.c_str(), error.c_str());
    std::exit(2);
  }
  Counter counter;
  *events = 0;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(trace)) {
    if (entry.is_regular_file() && entry.path().filename() != "metadata") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    StreamScanner scanner(*plan, file.string());
    std::string problem;
    if (!scanner.open(problem)) continue;
    while (!scanner.at_end()) {
      PacketSummary summary;
      if (!scanner.next_packet(counter, summary, problem)) break;
      *events += summary.events;
    }
  }
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> traces;
  int repeat = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "-h" || arg == "--help") {
      std::printf("usage: ctf2_reading_bench TRACE_DIR... [--repeat K]\n");
      return 0;
    } else {
      traces.push_back(arg);
    }
  }
  if (traces.empty()) {
    std::fprintf(stderr, "usage: ctf2_reading_bench TRACE_DIR... [--repeat K]\n");
    return 2;
  }
  std::printf("%-24s %8s | %12s %12s %6s | %10s %10s %6s\n", "trace", "events", "tsdl ms", "ctf2 ms", "ratio",
              "scan18 ms", "scan2 ms", "ratio");
  for (const fs::path& trace : traces) {
    std::string error;
    const auto text = read_metadata_text(trace / "metadata", &error);
    const auto tsdl = text ? parse_tsdl(*text, &error) : std::nullopt;
    const auto json = tsdl ? write_ctf2(*tsdl, &error) : std::nullopt;
    if (!json) {
      std::fprintf(stderr, "ctf2_reading_bench: %s: %s\n", trace.c_str(), error.c_str());
      return 2;
    }
    std::vector<double> parse18, parse2, scan18, scan2;
    uint64_t events18 = 0, events2 = 0;
    for (int r = 0; r < repeat; ++r) {
      auto start = Clock::now();
      auto a = parse_tsdl(*read_metadata_text(trace / "metadata", &error), &error);
      parse18.push_back(std::chrono::duration<double>(Clock::now() - start).count());
      start = Clock::now();
      auto b = parse_ctf2(*json, &error);
      parse2.push_back(std::chrono::duration<double>(Clock::now() - start).count());
      if (!a || !b) {
        std::fprintf(stderr, "ctf2_reading_bench: %s: %s\n", trace.c_str(), error.c_str());
        return 2;
      }
      scan18.push_back(scan(trace, std::move(*a), &events18));
      scan2.push_back(scan(trace, std::move(*b), &events2));
    }
    if (events18 != events2) {
      std::fprintf(stderr, "ctf2_reading_bench: %s: %llu events with CTF 1.8, %llu with CTF 2\n", trace.c_str(),
                   static_cast<unsigned long long>(events18), static_cast<unsigned long long>(events2));
      return 1;
    }
    const std::string name = trace.parent_path().filename().string() + "/" + trace.filename().string();
    std::printf("%-24.24s %8llu | %12.2f %12.2f %6.2f | %10.2f %10.2f %6.2f\n", name.c_str(),
                static_cast<unsigned long long>(events18), median(parse18) * 1e3, median(parse2) * 1e3,
                median(parse2) / median(parse18), median(scan18) * 1e3, median(scan2) * 1e3,
                median(scan2) / median(scan18));
  }
  return 0;
}
