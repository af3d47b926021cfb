# shellcheck shell=bash
# SPDX-License-Identifier: EPL-2.0
# Sourced by the benchmark scripts that time commands on the 16-host
# experiment of docs/performance.md ("Trace reading", network-light: 20.7 M
# events): finds the build's tracesync, prints the machine, makes the
# experiment once in WORK_DIR, and times commands.
#
#   bench_setup WORK_DIR    sets $tracesync and $work; SIMULATE (simulate
#                           options of another experiment) and BUILD_DIR
#                           (default build) from the environment

bench_setup() {
  local build
  build=$(realpath "${BUILD_DIR:-build}")
  tracesync="$build/bin/tracesync"
  [ -x "$tracesync" ] || { echo "$(basename "$0"): no $tracesync (BUILD_DIR)" >&2; exit 2; }
  work=$1
  local simulate=${SIMULATE:---hosts 16 --topology random --duration 420s --filler-ratio 40 --rate 25}
  mkdir -p "$work"
  echo "machine: $(nproc) cores,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), load $(cut -d' ' -f1-3 /proc/loadavg)"
  if [ ! -f "$work/experiment/truth.json" ]; then
    # shellcheck disable=SC2086
    "$tracesync" simulate --quiet --overwrite -o "$work/experiment" $simulate
  fi
  echo "experiment: tracesync simulate $simulate ($(du -sh "$work/experiment" | cut -f1))"
}

# "WALL CPU" of a command, its output thrown away; it must exit 0.
timed() {
  /usr/bin/time -f '%e %U %S' -o "$work/time.txt" "$@" >/dev/null 2>&1 ||
    { echo "$(basename "$0"): failed: $*" >&2; return 1; }
  tail -1 "$work/time.txt" | awk '{print $1, $2 + $3}'
}
