#!/usr/bin/env bash
# SPDX-License-Identifier: EPL-2.0
# Figures for `tracesync apply` (never pass/fail): the clock-only method on a
# simulated experiment of about 1.4 GB, and the full rewrite of one trace
# against babeltrace2 reading it into a dummy sink (and copying it to CTF).
#
#   scripts/bench_apply.sh [WORK_DIR]     (default: a fresh directory in /tmp)
#
# Environment: BUILD_DIR (default build). Needs about 3 GB in WORK_DIR.
set -euo pipefail

cd "$(dirname "$0")/.."
tracesync="$(pwd)/${BUILD_DIR:-build}/bin/tracesync"
work=${1:-$(mktemp -d /tmp/tracesync-bench-apply-XXXXXX)}
mkdir -p "$work"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), load $(cut -d' ' -f1-3 /proc/loadavg)"

# --- 1. Clock-only: 12 hosts, 1000 segments/s per link, 60 filler events each ---
if [ ! -d "$work/experiment" ]; then
  "$tracesync" simulate --quiet -o "$work/experiment" --hosts 12 --duration 30s --rate 1000 --filler-ratio 60 --seed 3
fi
echo "experiment: $(du -sh "$work/experiment" | cut -f1)"
rm -rf "$work/clock-only"
"$tracesync" apply "$work/experiment" -o "$work/clock-only" 2>&1 >/dev/null | grep 'wrote'

# --- 2. Full rewrite of one trace, in CPU seconds (the machine may be shared) ---
trace="$work/experiment/host0/kernel"
cpu() { /usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1 + $2}'; }
sync_cpu=$(cpu "$tracesync" sync --in-process "$trace")
rm -rf "$work/rewrite"
apply_cpu=$(cpu "$tracesync" apply --rewrite --in-process "$trace" -o "$work/rewrite")
events=$(python3 -c "import json,sys; print(sum(t['events'] for t in json.load(open(sys.argv[1]))['traces']))" \
         "$work/rewrite/tracesync-manifest.json")
dummy_cpu=$(cpu babeltrace2 "$trace" --component=sink.utils.dummy)
rm -rf "$work/bt2-copy"
copy_cpu=$(cpu babeltrace2 "$trace" -o ctf -w "$work/bt2-copy")
python3 - "$events" "$sync_cpu" "$apply_cpu" "$dummy_cpu" "$copy_cpu" <<'PY'
import sys
events, sync, apply, dummy, copy = int(sys.argv[1]), *map(float, sys.argv[2:])
rewrite = apply - sync
print(f"full rewrite: {events} events in {rewrite:.2f} CPU s = {events / rewrite / 1e6:.2f} M events/s")
print(f"babeltrace2 into sink.utils.dummy: {dummy:.2f} CPU s = {events / dummy / 1e6:.2f} M events/s")
print(f"babeltrace2 CTF to CTF (no retiming): {copy:.2f} CPU s = {events / copy / 1e6:.2f} M events/s")
print(f"rewrite / babeltrace2 reading: {dummy / rewrite:.2f} (goal 0.7)")
PY
