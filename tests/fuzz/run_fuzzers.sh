#!/usr/bin/env bash
# SPDX-License-Identifier: EPL-2.0
# Runs every libFuzzer target of a fuzzing build for a bounded time each.
#
#   tests/fuzz/run_fuzzers.sh BUILD_DIR [SECONDS_EACH [TARGET...]]
#
# BUILD_DIR was configured with -DTRACESYNC_BUILD_FUZZERS=ON (scripts/setup.sh
# --test makes build-sanitize). Each target starts from its committed corpus
# (tests/fuzz/corpus/<target>, never written to) and grows a working corpus in
# BUILD_DIR/fuzz/<target>/corpus. Inputs that fail are kept in
# BUILD_DIR/fuzz/<target>/artifacts and the script exits non-zero.
#
# One exception, ctf_metadata: babeltrace2 2.0.4 itself aborts (a failed
# precondition) or divides by zero on some damaged metadata. tracesync
# survives that only by reading traces in reading processes. So such an input
# is checked the way tracesync meets it, with `tracesync sync` on the trace:
# it must name the trace as skipped and exit normally. The input is then kept
# in BUILD_DIR/fuzz/ctf_metadata/babeltrace2-aborts and fuzzing goes on. A
# crash whose cause is not in babeltrace2 is a failure like any other.
set -euo pipefail

build=${1:?usage: run_fuzzers.sh BUILD_DIR [SECONDS_EACH [TARGET...]]}
seconds=${2:-60}
shift $(($# < 2 ? $# : 2))
targets=("$@")
((${#targets[@]})) || targets=(match_stream reader_protocol engine_options ctf_metadata)

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

# One input that made babeltrace2 abort: does `tracesync sync` skip the trace
# and say so, without a crash?
survives_in_reading_process() {
  local input=$1 dir
  dir=$(mktemp -d)
  mkdir "$dir/fuzzed" "$dir/healthy"
  cp "$input" "$dir/fuzzed/metadata"
  cp "$repo/tests/fuzz/corpus/ctf_metadata/flat_tcp_events.tsdl" "$dir/healthy/metadata"
  "$build/bin/write_seed_stream" "$dir/fuzzed/channel0_0"
  "$build/bin/write_seed_stream" "$dir/healthy/channel0_0"
  local status=0
  timeout 120 "$build/bin/tracesync" sync --open-timeout 20s "$dir" >"$dir/out" 2>"$dir/err" || status=$?
  if ((status >= 124)) || ! grep -q "fuzzed" "$dir/err"; then
    echo "run_fuzzers.sh: tracesync sync did not survive $input (exit $status):" >&2
    cat "$dir/err" >&2
    rm -rf "$dir"
    return 1
  fi
  rm -rf "$dir"
}

# Did babeltrace2 itself end the process? Either it called abort() (the frame
# that called abort() is in libbabeltrace2 or one of its plugins), or it took
# a signal (SEGV, FPE, BUS) in its own code (frame #0 in babeltrace2: our
# code is instrumented, so a fault of ours is an ASan report at our frame).
# A sanitizer report in our code, or our own FUZZ_CHECK, never counts.
crashed_in_babeltrace2() {
  local babeltrace2="libbabeltrace2\.so|babeltrace-plugin-"
  if grep -q "ERROR: libFuzzer: deadly signal" "$1"; then
    awk '/ in abort /{getline; print; exit}' "$1" | grep -qE "$babeltrace2"
  elif grep -qE "ERROR: AddressSanitizer: (SEGV|FPE|BUS) " "$1"; then
    grep -m1 -E "^ +#0 " "$1" | grep -qE "$babeltrace2"
  else
    return 1
  fi
}

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
  options=(-rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=30 -print_final_stats=1
           -artifact_prefix="$work/artifacts/")
  [[ -f "$here/$target.dict" ]] && options+=(-dict="$here/$target.dict")

  echo "== fuzz $target for ${seconds}s"
  started=$SECONDS
  while :; do
    left=$((seconds - (SECONDS - started)))
    ((left > 0)) || break
    log="$work/last.log"
    status=0
    nice "$fuzzer" "${options[@]}" -max_total_time="$left" "$work/corpus" "${seeds[@]}" >"$log" 2>&1 || status=$?
    grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb)" "$log" || true
    ((status == 0)) && break
    crash=$(grep -oE "Test unit written to \S+" "$log" | tail -1 | cut -d' ' -f5 || true)
    if [[ $target == ctf_metadata && -n $crash ]] && crashed_in_babeltrace2 "$log"; then
      mkdir -p "$work/babeltrace2-aborts"
      if survives_in_reading_process "$crash"; then
        mv "$crash" "$work/babeltrace2-aborts/"
        echo "   babeltrace2 crashed on $(basename "$crash"); tracesync sync skipped that trace: fuzzing on"
        continue
      fi
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
