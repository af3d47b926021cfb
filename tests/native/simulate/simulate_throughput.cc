// Prints how fast `simulate::run` writes events, end to end (generation,
// babeltrace2 and sink.ctf.fs, truth file). Not a test: figures only.
//
//   simulate_throughput OUTPUT_DIR [HOSTS [DURATION_S [RATE [FILLER_RATIO]]]]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "simulate/simulate.h"

int main(int argc, char** argv) {
  using tracesync::simulate::SimulationOptions;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_DIR [HOSTS [DURATION_S [RATE [FILLER_RATIO]]]]\n", argv[0]);
    return 2;
  }
  SimulationOptions options;
  options.output_dir = argv[1];
  options.overwrite = true;
  if (argc > 2) options.hosts = static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 10));
  if (argc > 3) options.duration_s = std::strtod(argv[3], nullptr);
  if (argc > 4) options.message_rate = std::strtod(argv[4], nullptr);
  if (argc > 5) options.filler_ratio = std::strtod(argv[5], nullptr);
  try {
    const auto begin = std::chrono::steady_clock::now();
    const auto summary = tracesync::simulate::run(options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    std::printf("hosts %u, links %llu, segments %llu (lost %llu, retransmitted %llu)\n", options.hosts,
                static_cast<unsigned long long>(summary.links), static_cast<unsigned long long>(summary.transmissions),
                static_cast<unsigned long long>(summary.lost),
                static_cast<unsigned long long>(summary.retransmissions));
    std::printf("events %llu in %.3f s: %.0f events/s\n", static_cast<unsigned long long>(summary.events), seconds,
                static_cast<double>(summary.events) / seconds);
  } catch (const tracesync::simulate::SimulationError& e) {
    std::fprintf(stderr, "simulate: %s\n", e.what());
    return 1;
  }
  return 0;
}
