// SPDX-License-Identifier: EPL-2.0
// write_seed_stream FILE: writes seed_stream() to FILE, so that
// run_fuzzers.sh can rebuild the trace of an input ctf_metadata_fuzzer found.

#include <cstdio>
#include <fstream>

#include "seed_stream.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: write_seed_stream FILE\n");
    return 2;
  }
  const auto bytes = tracesync::fuzz::seed_stream();
  std::ofstream out(argv[1], std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    std::perror(argv[1]);
    return 1;
  }
  return 0;
}
