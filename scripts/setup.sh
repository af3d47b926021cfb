#!/usr/bin/env bash
# SPDX-License-Identifier: EPL-2.0
# tracesync set-up for a fresh Debian 12 machine.
#
#   scripts/setup.sh          install what is missing, build, and synchronize the bundled fixtures
#   scripts/setup.sh --test   the same, then run every test (what CI runs): the
#                             end-to-end suites, Java and the plugin; the
#                             in-process suites built with ASan and UBSan; the
#                             end-to-end suites again against the sanitized
#                             command; each fuzzer for FUZZ_SECONDS
#   scripts/setup.sh --cli    only the command line tool and its library: no Java, no
#                             plugin, no X (with --test: only their tests)
#
# Environment: BUILD_DIR (default build), SANITIZE_BUILD_DIR (default
# build-sanitize), JOBS (default: number of cores), FUZZ_SECONDS (default 10,
# per fuzzer), CI=true turns compiler warnings into errors.
set -euo pipefail

cd "$(dirname "$0")/.."
run_tests=false
cli_only=false
for arg in "$@"; do
  case "$arg" in
    --test) run_tests=true ;;
    --cli) cli_only=true ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

# Each step says how long the run has taken so far (CI's budget is 30 minutes).
step() { printf '== [%dm%02ds] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }
# (And a sanitized build still running in the background is stopped.)
san_build=""
trap 'status=$?; [[ -n $san_build ]] && kill -- -"$san_build" 2>/dev/null; step "setup.sh ends (exit $status)"' EXIT

build_dir=${BUILD_DIR:-build}
jobs=${JOBS:-$(nproc)}

# --- 1. Debian packages --------------------------------------------------
packages=(
  g++ cmake ninja-build pkg-config
  libbabeltrace2-dev babeltrace2
  libboost-graph-dev libboost-program-options-dev
  protobuf-compiler libprotobuf-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  bsdutils
  # cpack's .deb (the packaging test): dpkg-shlibdeps, and file(1) that finds
  # the shared objects to give it (a fresh Debian 12 has neither).
  dpkg-dev file
)
# Java, the bridge and the plugin's widgets (JDK, SWT, X for the widget tests):
# most of the download, and not needed for the command line tool.
java_packages=(
  openjdk-17-jdk-headless libprotobuf-java junit5
  libswt-gtk-4-java libswt-cairo-gtk-4-jni libeclipse-jface-java
  libeclipse-core-commands-java libequinox-common-java
  xvfb xauth
)
$cli_only || packages+=("${java_packages[@]}")
# The sanitized build and the fuzzers (--test): clang, its sanitizer and
# libFuzzer runtimes, llvm-symbolizer for readable reports.
# In test mode: clang and its sanitizer runtimes (the sanitized build, the fuzzers),
# python3-jsonschema (the JSON Schema test), headless Chromium (the HTML report's test),
# strace (kills apply at each file-system step by fault injection) and babeltrace,
# the CTF reader 1.5 (reads apply's rewritten copies apart from babeltrace2);
# lttng-tools and liblttng-ust-dev (real user-space traces recorded by namespace
# hosts, live through lttng-relayd: tests/lttng/), util-linux's unshare and
# nsenter, iproute2's ip (the live test's hosts in network namespaces joined by veth);
# python3-distributed (dask-scheduler and dask-worker: the tracesync-dask test).
if $run_tests; then
  packages+=(clang libclang-rt-14-dev llvm python3-jsonschema chromium strace babeltrace)
  packages+=(lttng-tools liblttng-ust-dev util-linux iproute2 python3-distributed)
fi
# And node with npm, for playwright-core (the HTML report's page tests),
# unless a node with npm is already installed (say from NodeSource).
if $run_tests && ! command -v npm > /dev/null; then packages+=(nodejs npm); fi
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  echo "setup.sh: installing ${missing[*]}" >&2
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "setup.sh: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo=sudo
  fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# --- 2. Build ---------------------------------------------------------------
werror=OFF
[[ "${CI:-}" == "true" ]] && werror=ON
java=ON
$cli_only && java=OFF
# With --test each GoogleTest program is compiled once: the end-to-end ones
# here, the in-process ones in the sanitized build below, which runs them
# (docs/testing.md). Test programs were over half of CI's compile time.
test_programs=all
$run_tests && test_programs=end-to-end
# The sanitized build (section 5) starts now, in the background at the
# lowest priority: it takes the CPU that the build below, the main job and
# the tests leave idle (configuring, javac, linking, waiting on JVMs,
# browsers, daemons and reading processes).
san_dir=${SANITIZE_BUILD_DIR:-build-sanitize}
if $run_tests; then
  mkdir -p "$san_dir"
  step "ASan + UBSan build starts in the background ($san_dir, its output in $san_dir/build.log)"
  # setsid gives it a session of its own (stopped as one group), and with
  # it a scheduling autogroup, which would share the CPU with ours as an
  # equal whatever its nice value: it makes its own autogroup nice too.
  setsid bash -c '{ echo 19 > /proc/self/autogroup; } 2>/dev/null; exec nice -n 19 scripts/sanitized_build.sh "$@"' \
    sanitized_build "$san_dir" "$werror" "$jobs" > "$san_dir/build.log" 2>&1 &
  san_build=$!
fi
step "build ($build_dir)"
# Line tables only (-g1): stack traces still name lines, and full debug
# information cost a seventh to two fifths of each file's compile time.
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTRACESYNC_WERROR="$werror" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  -DTRACESYNC_BUILD_JAVA="$java" -DTRACESYNC_TEST_PROGRAMS="$test_programs"
cmake --build "$build_dir" -j "$jobs"

# --- 3. The main job: synchronize the bundled fixtures -----------------------
tracesync="$build_dir/bin/tracesync"
shared=${TRACESYNC_SHARED_DIR:-../shared}/fixtures/lttng-modules-2.1-addons
if [[ -d "$shared" ]]; then
  step "tracesync sync $shared   (real LTTng 2.1 kernel traces of two hosts)"
  "$tracesync" sync "$shared"
fi
step "tracesync simulate + sync: a generated 6-host experiment (its true clocks are in truth.json beside it)"
"$tracesync" simulate --output "$build_dir/fixtures/simulated" --overwrite --hosts 6 --topology random --duration 5s
"$tracesync" sync "$build_dir/fixtures/simulated"
step "tracesync sync --matches fixtures/matches/chain_three_hosts.txt"
"$tracesync" sync --matches fixtures/matches/chain_three_hosts.txt

# --- 4. Every test ------------------------------------------------------------
if $run_tests; then
  # playwright-core drives Debian's Chromium in the HTML report's page tests
  # (tests/e2e/html_report_page.js); it downloads no browser of its own.
  # 1.56 still runs on Debian 12's node 18.
  step "npm install playwright-core into $build_dir/node"
  npm install --no-audit --no-fund --prefix "$build_dir/node" playwright-core@1.56.1
  step "ctest"
  ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" --label-exclude benchmark

  # --- 5. The native suites under ASan + UBSan, then the fuzzers ------------
  # The build started after section 2 (scripts/sanitized_build.sh); any
  # sanitizer report fails its test (docs/testing.md).
  step "waiting for the ASan + UBSan build ($san_dir)"
  if ! wait "$san_build"; then
    san_build=""
    tail -n 80 "$san_dir/build.log" >&2
    echo "setup.sh: the ASan + UBSan build failed (all its output: $san_dir/build.log)" >&2
    exit 1
  fi
  san_build=""
  tail -n 2 "$san_dir/build.log"
  step "ctest under ASan + UBSan"
  # (Not the packaging tests: a package of the sanitized build is not what ships.)
  ctest --test-dir "$san_dir" --output-on-failure -j "$jobs" --label-exclude 'benchmark|packaging'
  step "the end-to-end suites of $build_dir again, against the sanitized command"
  mapfile -t sanitizer_environment < "$san_dir/sanitizer-environment"
  env "${sanitizer_environment[@]}" TRACESYNC_TEST_COMMAND="$(cd "$san_dir" && pwd)/bin/tracesync" \
    TRACESYNC_TEST_COMMAND_SANITIZED=1 \
    ctest --test-dir "$build_dir" --output-on-failure -j "$jobs" --label-regex end-to-end
  step "fuzzers, ${FUZZ_SECONDS:-10}s each, two at a time"
  tests/fuzz/run_fuzzers.sh "$san_dir" "${FUZZ_SECONDS:-10}" match_stream reader_protocol ctf2_metadata extract &
  first_pair=$!
  fuzz_status=0
  tests/fuzz/run_fuzzers.sh "$san_dir" "${FUZZ_SECONDS:-10}" engine_options ctf_metadata scanner || fuzz_status=$?
  wait "$first_pair" || fuzz_status=$?
  ((fuzz_status == 0)) || { echo "setup.sh: a fuzzer failed (its input is kept under $san_dir/fuzz)" >&2; exit 1; }
fi
