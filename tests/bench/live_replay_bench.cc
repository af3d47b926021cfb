// SPDX-License-Identifier: EPL-2.0
// live_replay_bench: tracesync live's memory over a long recording, without
// waiting for one. Finished traces (say `tracesync simulate --duration 40m`)
// are written again packet by packet, index files included, as LTTng's
// consumer writes them (tests/support/packet_replay.h), while a
// LiveFollower follows their folders as `tracesync live DIR...` does and
// takes a result at every 1 % of the packets. Prints, at each eighth of the
// replay: the trace time reached, the messages matched, the entries the
// matcher holds, and this process's resident memory. Figures, never pass/fail.
//
// usage: live_replay_bench WORK_DIR HORIZON_MS TRACE_DIR...
//   WORK_DIR must not exist (the folders are written there, then removed).

#include <cstdio>
#include <cstdlib>
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

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  using namespace tracesync;
  if (argc < 4) {
    std::fprintf(stderr, "usage: live_replay_bench WORK_DIR HORIZON_MS TRACE_DIR...\n");
    return 2;
  }
  const fs::path work = argv[1];
  if (fs::exists(work)) {
    std::fprintf(stderr, "live_replay_bench: %s exists\n", work.c_str());
    return 2;
  }
  session::LiveIngestOptions ingest;
  ingest.match.horizon = std::atoll(argv[2]) * 1'000'000;
  ingest.quiet_end = std::chrono::hours(1);  // it ends by finish()
  session::LiveFollower follower(session::SessionOptions{}, ingest);
  std::vector<fs::path> sources, targets;
  for (int i = 3; i < argc; ++i) {
    sources.push_back(argv[i]);
    targets.push_back(work / std::to_string(i - 3));
    follower.add_folder(targets.back().string());
  }
  try {
    testing::PacketReplay replay(sources, targets);
    std::printf("%zu packets of %zu traces; horizon %s ms\n", replay.packets(), sources.size(), argv[2]);
    std::printf("%9s %12s %10s %14s %10s\n", "replayed", "events read", "messages", "matcher keys", "RSS MiB");
    const std::size_t step = std::max<std::size_t>(1, replay.packets() / 100);
    std::size_t next_report = 0;
    long peak = 0;
    for (bool more = true; more;) {
      more = replay.write(step);
      follower.read(nullptr);
      const v1::Snapshot result = follower.snapshot();
      peak = std::max(peak, rss_kib());
      if (replay.written() >= next_report || !more) {
        std::printf("%8.1f%% %12lu %10lu %14zu %10.1f\n", 100.0 * static_cast<double>(replay.written()) / static_cast<double>(replay.packets()),
                    static_cast<unsigned long>(follower.events()), static_cast<unsigned long>(result.messages()),
                    follower.matcher_entries(), mib(rss_kib()));
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
