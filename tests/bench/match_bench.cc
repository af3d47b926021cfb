// SPDX-License-Identifier: EPL-2.0
// Speed and memory of the packet matcher alone: N messages between two
// traces, fed as two parallel readers would (each trace in time order,
// interleaved in batches, progress announced after each batch).
//
//   match_bench [MESSAGES] [HORIZON_SECONDS]
//
// Prints events per second and the most keys held at once, with the
// default (10 min) horizon and with the given one. Figures only.

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "match/packet_matcher.h"

namespace {

using tracesync::match::Direction;
using tracesync::match::MatchOptions;
using tracesync::match::PacketEvent;
using tracesync::match::PacketMatcher;

// Per trace, its events in time order: trace 0 sends even messages and
// receives odd ones; clocks differ by 3 ms; one message every 20 us; one
// send in 100 is retransmitted.
std::vector<std::vector<PacketEvent>> traffic(uint64_t messages) {
  std::vector<std::vector<PacketEvent>> traces(2);
  std::mt19937_64 rng(1);
  for (uint64_t k = 0; k < messages; ++k) {
    const int64_t t = 1'000'000'000 + static_cast<int64_t>(k) * 20'000;
    const uint32_t from = static_cast<uint32_t>(k % 2);
    PacketEvent e;
    e.tcp = {static_cast<uint32_t>(k * 1448), static_cast<uint32_t>(k), 0x18};
    e.trace = from;
    e.direction = Direction::kSend;
    e.time = t + (from == 1 ? 3'000'000 : 0);
    traces[from].push_back(e);
    if (rng() % 100 == 0) {
      e.time += 200'000;
      traces[from].push_back(e);
    }
    e.trace = 1 - from;
    e.direction = Direction::kReceive;
    e.time = t + 40'000 + static_cast<int64_t>(rng() % 10'000) + (from == 0 ? 3'000'000 : 0);
    traces[1 - from].push_back(e);
  }
  for (auto& events : traces) {
    std::stable_sort(events.begin(), events.end(), [](const PacketEvent& a, const PacketEvent& b) { return a.time < b.time; });
  }
  return traces;
}

long max_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

void run(const std::vector<std::vector<PacketEvent>>& traces, MatchOptions options, const char* label) {
  uint64_t emitted = 0;
  PacketMatcher matcher(options, traces.size(), [&](const auto&) { ++emitted; });
  matcher.set_domain(0, "a");
  matcher.set_domain(1, "b");
  constexpr std::size_t kBatch = 4096;
  std::vector<std::size_t> at(traces.size(), 0);
  std::size_t most_keys = 0;
  const auto start = std::chrono::steady_clock::now();
  for (bool more = true; more;) {
    more = false;
    for (std::size_t t = 0; t < traces.size(); ++t) {
      const std::size_t end = std::min(at[t] + kBatch, traces[t].size());
      matcher.add(std::span<const PacketEvent>(traces[t]).subspan(at[t], end - at[t]));
      at[t] = end;
      if (at[t] < traces[t].size()) {
        matcher.advance(static_cast<uint32_t>(t), traces[t][at[t]].time - 1'000'000'000);
        more = true;
      } else {
        matcher.close(static_cast<uint32_t>(t));
      }
      most_keys = std::max(most_keys, matcher.pending_keys());
    }
  }
  matcher.finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::size_t events = traces[0].size() + traces[1].size();
  std::printf("%-28s %10.3f s %14.0f events/s %10zu keys at most %10llu matches  max RSS %ld MiB\n", label, seconds,
              static_cast<double>(events) / seconds, most_keys, static_cast<unsigned long long>(emitted),
              max_rss_kib() / 1024);
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t messages = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2'000'000;
  const double horizon_s = argc > 2 ? std::atof(argv[2]) : 1.0;
  const auto traces = traffic(messages);
  std::printf("%llu messages, %zu events\n", static_cast<unsigned long long>(messages), traces[0].size() + traces[1].size());
  run(traces, {}, "horizon 10 min (default)");
  MatchOptions bounded;
  bounded.horizon = static_cast<int64_t>(horizon_s * 1e9);
  run(traces, bounded, "horizon (argument)");
  return 0;
}
