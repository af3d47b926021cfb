#!/usr/bin/env bash
# SPDX-License-Identifier: EPL-2.0
# The ASan + UBSan build of scripts/setup.sh --test (docs/testing.md): clang,
# without Java, the command, the in-process test programs and the fuzzers.
#
#   scripts/sanitized_build.sh DIR WERROR JOBS
#
# It uses CMake's default generator (Unix Makefiles), so the standard CMake
# flow is built and tested too.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -eq 3 ]] || { sed -n '2,9p' "$0" >&2; exit 2; }
dir=$1 werror=$2 jobs=$3
# -O1 and line tables only: what ASan's own docs advise, and the build that
# keeps CI within its 30 minutes (stack traces still name lines).
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTRACESYNC_WERROR="$werror" \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DTRACESYNC_SANITIZE=address,undefined -DTRACESYNC_BUILD_FUZZERS=ON \
  -DTRACESYNC_BUILD_JAVA=OFF -DTRACESYNC_BUILD_BENCHMARKS=OFF -DTRACESYNC_TEST_PROGRAMS=in-process
cmake --build "$dir" -j "$jobs"
