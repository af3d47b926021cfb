// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>

namespace tracesync::simulate {

// A small deterministic random source (the SplitMix64 sequence: a Weyl
// counter scrambled by a 64-bit finalizer). The standard library's
// distributions are implementation-defined, so the draws are made here: a
// seed gives the same bytes with every compiler and library.
//
// Every purpose (host clocks, a link's traffic, a host's filler events, ...)
// draws from its own stream, so changing one option does not reshuffle
// unrelated parts of the experiment.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}

  // The stream for `purpose` and `index` under the experiment's seed.
  static Random stream(uint64_t seed, std::string_view purpose, uint64_t index = 0) {
    uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a over the purpose's bytes
    for (const char c : purpose) {
      h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    }
    return Random(mix(seed ^ mix(h + mix(index + 0x632be59bd9b4e019ULL))));
  }

  uint64_t next() {
    state_ += 0x9e3779b97f4a7c15ULL;
    return mix(state_);
  }

  // Uniform in [0, 1), 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  double uniform(double low, double high) { return low + (high - low) * uniform(); }

  // Uniform in [0, n); n > 0. The multiply-shift bias is below 2^-32 for the n we use.
  uint64_t below(uint64_t n) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }

  bool chance(double probability) { return uniform() < probability; }

  // Exponentially distributed with the given mean (0 when the mean is 0).
  double exponential(double mean) { return -mean * std::log1p(-uniform()); }

 private:
  static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  uint64_t state_;
};

}  // namespace tracesync::simulate
