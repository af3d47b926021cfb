#!/usr/bin/env bash
# SPDX-License-Identifier: EPL-2.0
# Runs every libFuzzer target of a fuzzing build for a bounded time each.
#
#   tests/fuzz/run_fuzzers.sh BUILD_DIR [SECONDS_EACH [TARGET...]]
#   tests/fuzz/run_fuzzers.sh --replay BUILD_DIR TARGET INPUT...
#
# BUILD_DIR was configured with -DTRACESYNC_BUILD_FUZZERS=ON (scripts/setup.sh
# --test makes build-sanitize). Each target starts from its committed corpus
# (tests/fuzz/corpus/<target>, never written to) and grows a working corpus in
# BUILD_DIR/fuzz/<target>/corpus. Inputs that fail are kept in
# BUILD_DIR/fuzz/<target>/artifacts and the script exits non-zero.
#
# One exception, ctf_metadata: babeltrace2 2.0.4 itself aborts (a failed
# precondition) or divides by zero on some damaged metadata, and allocates
# without bound on others (a sequence whose length field reads millions:
# it creates every element's field before reading one). tracesync survives
# that only by reading traces in reading processes. So such an input is
# checked the way tracesync meets it, with `tracesync sync` on the trace: it
# must name the trace as skipped (or read it) and exit normally. The input is
# then kept in BUILD_DIR/fuzz/ctf_metadata/babeltrace2-faults and fuzzing
# goes on. A crash or an allocation whose cause is not in babeltrace2 is a
# failure like any other.
#
# --replay runs the target once on each INPUT with the same judgement and
# prints it: how CTest keeps the inputs that showed babeltrace2's faults.
set -euo pipefail

usage="usage: run_fuzzers.sh BUILD_DIR [SECONDS_EACH [TARGET...]] | --replay BUILD_DIR TARGET INPUT..."
replay=false
if [[ ${1:-} == --replay ]]; then
  replay=true
  shift
  (($# >= 3)) || { echo "run_fuzzers.sh: $usage" >&2; exit 2; }
  build=$1 targets=("$2")
  shift 2
  inputs=("$@")
else
  build=${1:?$usage}
  seconds=${2:-60}
  shift $(($# < 2 ? $# : 2))
  targets=("$@")
  ((${#targets[@]})) || targets=(match_stream reader_protocol engine_options ctf_metadata extract ctf2_metadata scanner)
fi

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=$(cd "$build" && pwd)

# As in CTest (cmake/TracesyncSanitizers.cmake).
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$repo/tests/sanitizers/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
# Keeps babeltrace2's CTF plugin loaded to the end, so that LeakSanitizer can
# name it (cmake/TracesyncSanitizers.cmake says why).
for plugin in /usr/lib/*/babeltrace2/plugins/babeltrace-plugin-ctf.so /usr/lib/babeltrace2/plugins/babeltrace-plugin-ctf.so; do
  if [[ -f $plugin ]]; then export LD_PRELOAD=$plugin; break; fi
done

# One input that babeltrace2 failed on in the fuzzer: does `tracesync sync`
# skip the trace and say so, or read it, without a crash? The sanitized
# tracesync's reading processes get the fuzzer's memory limit as ASan's hard
# RSS limit, so a memory blow-up ends there as it ends a reading process that
# malloc fails.
survives_in_reading_process() {
  local input=$1 dir
  dir=$(mktemp -d)
  mkdir "$dir/fuzzed" "$dir/healthy"
  cp "$input" "$dir/fuzzed/metadata"
  cp "$repo/tests/fuzz/corpus/ctf_metadata/flat_tcp_events.tsdl" "$dir/healthy/metadata"
  "$build/bin/write_seed_stream" "$dir/fuzzed/channel0_0"
  "$build/bin/write_seed_stream" "$dir/healthy/channel0_0"
  local status=0
  ASAN_OPTIONS="$ASAN_OPTIONS:hard_rss_limit_mb=$memory_limit_mb" \
    timeout 300 "$build/bin/tracesync" sync --open-timeout 20s "$dir" >"$dir/out" 2>"$dir/err" || status=$?
  if ((status >= 124)) || ! { ((status == 0)) || grep -q "fuzzed" "$dir/err"; }; then
    echo "run_fuzzers.sh: tracesync sync did not survive $input (exit $status):" >&2
    cat "$dir/err" >&2
    rm -rf "$dir"
    return 1
  fi
  rm -rf "$dir"
}

babeltrace2_code="libbabeltrace2\.so|babeltrace-plugin-|libglib-2\.0\.so"

# Did babeltrace2 itself end the process? Either it called abort() (the frame
# that called abort() is in libbabeltrace2 or one of its plugins), or it took
# a signal (SEGV, FPE, BUS) in its own code (frame #0 in babeltrace2: our
# code is instrumented, so a fault of ours is an ASan report at our frame).
# A sanitizer report in our code, or our own FUZZ_CHECK, never counts.
crashed_in_babeltrace2() {
  if grep -q "ERROR: libFuzzer: deadly signal" "$1"; then
    awk '/ in abort /{getline; print; exit}' "$1" | grep -qE "$babeltrace2_code"
  elif grep -qE "ERROR: AddressSanitizer: (SEGV|FPE|BUS) " "$1"; then
    grep -m1 -E "^ +#0 " "$1" | grep -qE "$babeltrace2_code"
  else
    return 1
  fi
}

# Did babeltrace2 run the process out of memory? libFuzzer's report (over
# the RSS limit: the largest live allocation sites; over the malloc limit:
# the stack of that malloc) names the allocator's callers: every one must be
# GLib's allocator or babeltrace2 (tracesync itself never calls GLib).
ran_out_of_memory_in_babeltrace2() {
  grep -q "ERROR: libFuzzer: out-of-memory" "$1" || return 1
  local callers
  callers=$(awk '/ERROR: libFuzzer: out-of-memory/ { report = 1 }
                 report && below { print; below = 0 }
                 report && / in (__interceptor_)?(malloc|calloc|realloc|posix_memalign|aligned_alloc|operator new)/ { below = 1 }' "$1")
  [[ -n $callers ]] && ! grep -qvE "$babeltrace2_code" <<<"$callers"
}

# Was babeltrace2 at work when libFuzzer's time limit struck? Of the frames
# below the alarm's handler, the innermost that is babeltrace2's (or GLib's)
# or ours must be babeltrace2's: libc and the sanitizer's allocator in
# between count for neither. (Code of ours that calls babeltrace2 in an
# endless loop would pass here, but not the check with `tracesync sync` that
# follows, which has a time limit of its own.) On a loaded machine the same
# memory blow-up as above can reach the time limit first.
timed_out_in_babeltrace2() {
  grep -q "ERROR: libFuzzer: timeout" "$1" || return 1
  awk -v theirs="$babeltrace2_code" '
       /ERROR: libFuzzer: timeout/ { report = 1; next }
       report && /AlarmCallback/ { handler = 1; next }
       handler && /^ +#[0-9]+ / && ($0 ~ theirs || /tracesync::|LLVMFuzzerTestOneInput/) { print; exit }' "$1" |
    grep -qE "$babeltrace2_code"
}

# Is the failure in this log babeltrace2's own, and does tracesync survive
# the input? Prints which fault it was.
babeltrace2s_fault_survived() {
  local log=$1 input=$2 fault
  if crashed_in_babeltrace2 "$log"; then
    fault="crashed"
  elif ran_out_of_memory_in_babeltrace2 "$log"; then
    fault="ran out of memory"
  elif timed_out_in_babeltrace2 "$log"; then
    fault="timed out"
  else
    return 1
  fi
  survives_in_reading_process "$input" || return 1
  echo "   babeltrace2 $fault on $(basename "$input"); tracesync sync skipped that trace or read it"
}

memory_limit_mb=2048
options=(-rss_limit_mb=$memory_limit_mb -malloc_limit_mb=$memory_limit_mb -timeout=30 -print_final_stats=1)

if $replay; then
  target=${targets[0]}
  fuzzer="$build/bin/${target}_fuzzer"
  [[ -x "$fuzzer" ]] || { echo "run_fuzzers.sh: $fuzzer is not built" >&2; exit 1; }
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  export TMPDIR=$work
  status=0
  for input in "${inputs[@]}"; do
    run=0
    # A longer time limit than fuzzing's: on a loaded machine babeltrace2's
    # memory blow-up can take more than 30 s to reach the memory limit.
    nice "$fuzzer" "${options[@]}" -timeout=300 "$input" >"$work/log" 2>&1 || run=$?
    if ((run == 0)); then
      echo "   $(basename "$input"): no failure"
    elif ! [[ $target == ctf_metadata ]] || ! babeltrace2s_fault_survived "$work/log" "$input"; then
      echo "run_fuzzers.sh: $target failed on $input (exit $run):" >&2
      tail -60 "$work/log" >&2
      status=1
    fi
  done
  exit $status
fi

failed=()
for target in "${targets[@]}"; do
  fuzzer="$build/bin/${target}_fuzzer"
  [[ -x "$fuzzer" ]] || { echo "run_fuzzers.sh: $fuzzer is not built" >&2; failed+=("$target"); continue; }
  work="$build/fuzz/$target"
  mkdir -p "$work/corpus" "$work/artifacts" "$work/tmp"
  # ctf_metadata's trace folder goes here: an abort skips its own clean-up.
  export TMPDIR="$work/tmp"
  seeds=("$here/corpus/$target")
  [[ $target == match_stream ]] && seeds+=("$repo/fixtures/matches")
  [[ $target == reader_protocol ]] && seeds+=("$build/tests/fuzz/seeds/reader_protocol")
  target_options=("${options[@]}" -artifact_prefix="$work/artifacts/")
  [[ -f "$here/$target.dict" ]] && target_options+=(-dict="$here/$target.dict")

  echo "== fuzz $target for ${seconds}s"
  started=$SECONDS
  while :; do
    left=$((seconds - (SECONDS - started)))
    ((left > 0)) || break
    log="$work/last.log"
    status=0
    nice "$fuzzer" "${target_options[@]}" -max_total_time="$left" "$work/corpus" "${seeds[@]}" >"$log" 2>&1 || status=$?
    grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb)" "$log" || true
    ((status == 0)) && break
    failure=$(grep -oE "Test unit written to \S+" "$log" | tail -1 | cut -d' ' -f5 || true)
    if [[ $target == ctf_metadata && -n $failure ]] && babeltrace2s_fault_survived "$log" "$failure"; then
      mkdir -p "$work/babeltrace2-faults"
      mv "$failure" "$work/babeltrace2-faults/"
      echo "   fuzzing on"
      continue
    fi
    echo "run_fuzzers.sh: $target failed (exit $status); its log: $log" >&2
    tail -60 "$log" >&2
    failed+=("$target")
    break
  done
  rm -rf "$work/tmp"
done

if ((${#failed[@]})); then
  echo "run_fuzzers.sh: failures in: ${failed[*]} (inputs in $build/fuzz/<target>/artifacts)" >&2
  exit 1
fi
