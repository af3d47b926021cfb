// SPDX-License-Identifier: EPL-2.0
// live_replay_bench: tracesync live's memory over a long recording, without
// waiting for one. Finished traces (say `tracesync simulate --duration 40m`)
// are written again packet by packet, index files included, as LTTng's
// consumer writes them (tests/support/packet_replay.h), while a
// LiveFollower follows their folders as `tracesync live DIR...` does and
// takes a result at every 1 % of the packets (every N packets with
// --packets-a-result N). Prints, at each eighth of the
// replay (at every result with --every-result): the recording's minutes
// written, the messages matched, the entries the matcher holds, this
// process's resident memory, what of it malloc has handed out and not had
// back (the rest is free memory the allocator keeps), and the CPU time the
// last result took.
// Figures, never pass/fail.
//
// usage: live_replay_bench [--link-budget N] [--packets-a-result N] [--every-result] WORK_DIR HORIZON_MS TRACE_DIR...
//   WORK_DIR must not exist (the folders are written there, then removed).
//   The links get live's budget (session::kLiveLinkBudget) unless given one.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <malloc.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "session/live_follower.h"
#include "support/packet_replay.h"

namespace {

long rss_kib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return -1;
}

double mib(long kib) { return static_cast<double>(kib) / 1024.0; }

// Bytes malloc has handed out and not had back (glibc).
long in_use_kib() {
  const struct mallinfo2 m = mallinfo2();
  return static_cast<long>((m.uordblks + m.hblkhd) / 1024);
}

double thread_cpu_ms() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  using namespace tracesync;
  std::size_t link_budget = session::kLiveLinkBudget;
  bool every_result = false;
  std::size_t packets_a_result = 0;  // 0: 1 % of them
  int arg = 1;
  for (; arg < argc && std::strncmp(argv[arg], "--", 2) == 0; ++arg) {
    if (std::strcmp(argv[arg], "--link-budget") == 0 && arg + 1 < argc) {
      link_budget = std::strtoull(argv[++arg], nullptr, 10);
    } else if (std::strcmp(argv[arg], "--packets-a-result") == 0 && arg + 1 < argc) {
      packets_a_result = std::strtoull(argv[++arg], nullptr, 10);
    } else if (std::strcmp(argv[arg], "--every-result") == 0) {
      every_result = true;
    } else {
      break;
    }
  }
  if (argc - arg < 3 || link_budget == 0) {
    std::fprintf(stderr, "usage: live_replay_bench [--link-budget N] [--packets-a-result N] [--every-result] WORK_DIR HORIZON_MS TRACE_DIR...\n");
    return 2;
  }
  const fs::path work = argv[arg];
  if (fs::exists(work)) {
    std::fprintf(stderr, "live_replay_bench: %s exists\n", work.c_str());
    return 2;
  }
  session::LiveIngestOptions ingest;
  ingest.match.horizon = std::atoll(argv[arg + 1]) * 1'000'000;
  ingest.quiet_end = std::chrono::hours(1);  // it ends by finish()
  session::SessionOptions options;
  options.estimator.link_budget = link_budget;
  session::LiveFollower follower(options, ingest);
  std::vector<fs::path> sources, targets;
  for (int i = arg + 2; i < argc; ++i) {
    sources.push_back(argv[i]);
    targets.push_back(work / std::to_string(i - arg - 2));
    follower.add_folder(targets.back().string());
  }
  try {
    testing::PacketReplay replay(sources, targets);
    std::printf("%zu packets of %zu traces; horizon %s ms; link budget %zu\n", replay.packets(), sources.size(),
                argv[arg + 1], link_budget);
    std::printf("%9s %8s %12s %10s %14s %10s %12s %12s\n", "replayed", "minutes", "events read", "messages",
                "matcher keys", "RSS MiB", "in use MiB", "result CPU ms");
    const std::size_t step = packets_a_result > 0 ? packets_a_result : std::max<std::size_t>(1, replay.packets() / 100);
    std::size_t next_report = 0;
    long peak = 0;
    for (bool more = true; more;) {
      more = replay.write(step);
      follower.read(nullptr);
      const double before = thread_cpu_ms();
      const v1::Snapshot result = follower.snapshot();
      const double result_ms = thread_cpu_ms() - before;
      peak = std::max(peak, rss_kib());
      if (every_result || replay.written() >= next_report || !more) {
        std::printf("%8.1f%% %8.2f %12lu %10lu %14zu %10.1f %12.1f %12.1f\n",
                    100.0 * static_cast<double>(replay.written()) / static_cast<double>(replay.packets()),
                    static_cast<double>(replay.reached_ns() / 60e9L), static_cast<unsigned long>(follower.events()),
                    static_cast<unsigned long>(result.messages()), follower.matcher_entries(), mib(rss_kib()),
                    mib(in_use_kib()), result_ms);
        next_report += replay.packets() / 8;
      }
    }
    for (int look = 0; look < 3; ++look) follower.read(nullptr);
    const v1::Snapshot final_result = follower.finish(false);
    std::printf("final: %lu messages; resident memory %.1f MiB, peak %.1f MiB\n",
                static_cast<unsigned long>(final_result.messages()), mib(rss_kib()), mib(peak));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "live_replay_bench: %s\n", e.what());
    fs::remove_all(work);
    return 1;
  }
  fs::remove_all(work);
  return 0;
}
