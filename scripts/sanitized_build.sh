#!/usr/bin/env bash
# SPDX-License-Identifier: EPL-2.0
# The ASan + UBSan build of scripts/setup.sh --test (docs/testing.md): clang,
# without Java, the command, the in-process test programs and the fuzzers.
#
#   scripts/sanitized_build.sh DIR WERROR JOBS
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -eq 3 ]] || { sed -n '2,6p' "$0" >&2; exit 2; }
dir=$1 werror=$2 jobs=$3
# A folder an older setup.sh configured for Unix Makefiles: CMake cannot
# switch its generator, so its cache goes (the objects are rebuilt).
if [[ -f $dir/CMakeCache.txt ]] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$dir/CMakeCache.txt"; then
  echo "sanitized_build.sh: $dir was configured for another generator: configuring it again for Ninja" >&2
  rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
fi
# -O1 and line tables only: what ASan's own docs advise, and the build that
# keeps CI within its 30 minutes (stack traces still name lines).
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTRACESYNC_WERROR="$werror" \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DTRACESYNC_SANITIZE=address,undefined -DTRACESYNC_BUILD_FUZZERS=ON \
  -DTRACESYNC_BUILD_JAVA=OFF -DTRACESYNC_BUILD_BENCHMARKS=OFF -DTRACESYNC_TEST_PROGRAMS=in-process
cmake --build "$dir" -j "$jobs"
