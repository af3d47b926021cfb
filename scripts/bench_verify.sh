#!/usr/bin/env bash
# SPDX-License-Identifier: EPL-2.0
# Figures for `tracesync verify` (never pass/fail): the 16-host experiment of
# docs/performance.md ("Trace reading", network-light: 20.7 M events), synced
# with a certificate, then verified from the report and certificate alone and
# with the traces re-read; rounds alternate, medians of wall and CPU seconds
# (CPU counts the reading processes) side by side.
#
#   scripts/bench_verify.sh [WORK_DIR] [ROUNDS]   (default: a fresh directory in /tmp, 3 rounds)
#
# Environment: BUILD_DIR (default build), SIMULATE (simulate options of
# another experiment). Needs about 1 GB in WORK_DIR.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench_experiment.sh
. scripts/bench_experiment.sh
rounds=${2:-3}
bench_setup "${1:-$(mktemp -d /tmp/tracesync-bench-verify-XXXXXX)}"

results="$work/times.txt"
: > "$results"
for round in $(seq "$rounds"); do
  echo "sync $(timed "$tracesync" sync --format json -o "$work/r.json" --certificate "$work/c.json" "$work/experiment")" >> "$results"
  echo "verify $(timed "$tracesync" verify "$work/r.json" "$work/c.json")" >> "$results"
  echo "verify-traces $(timed "$tracesync" verify "$work/r.json" "$work/c.json" "$work/experiment")" >> "$results"
  echo "round $round of $rounds done, load $(cut -d' ' -f1 /proc/loadavg)"
done
"$tracesync" verify "$work/r.json" "$work/c.json" "$work/experiment" | head -1
python3 - "$results" "$work/r.json" <<'PY'
import json, statistics, sys
times = {}
for line in open(sys.argv[1]):
    name, wall, cpu = line.split()
    times.setdefault(name, []).append((float(wall), float(cpu)))
report = json.load(open(sys.argv[2]))
events = sum(t["events"] for t in report["traces"])
print(f"{events:,} events, {len(report['traces'])} traces, {len(report['links'])} links; medians of {len(times['sync'])} rounds:")
sync_wall = statistics.median(w for w, _ in times["sync"])
sync_cpu = statistics.median(c for _, c in times["sync"])
print(f"| command | wall s (median) | CPU s (median) | wall / sync's | CPU / sync's |")
print(f"| --- | --- | --- | --- | --- |")
for name, label in [("sync", "sync --format json --certificate"), ("verify", "verify REPORT CERTIFICATE"),
                    ("verify-traces", "verify REPORT CERTIFICATE TRACES")]:
    wall = statistics.median(w for w, _ in times[name])
    cpu = statistics.median(c for _, c in times[name])
    print(f"| {label} | {wall:.2f} | {cpu:.2f} | {wall / sync_wall:.3f} | {cpu / sync_cpu:.3f} |")
PY
