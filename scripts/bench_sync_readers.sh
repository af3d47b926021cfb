#!/usr/bin/env bash
# SPDX-License-Identifier: EPL-2.0
# Figures for issue 30's whole-sync goal (never pass/fail): the same `sync` of
# the 16-host experiment of docs/performance.md ("Trace reading",
# network-light: 20.7 M events) with `--reader babeltrace2` (every trace read
# by babeltrace2, as before the scanner) and `--reader scanner`; rounds
# alternate, medians of wall and CPU seconds (CPU counts the reading
# processes) side by side, and the two reports compared byte for byte once
# the fields that name the reader are set aside.
#
#   scripts/bench_sync_readers.sh [WORK_DIR] [ROUNDS]   (default: a fresh directory in /tmp, 3 rounds)
#
# Environment: BUILD_DIR (default build), SIMULATE (simulate options of
# another experiment), JOBS (sync --jobs, default 2). Needs about 1 GB in WORK_DIR.
set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=scripts/bench_experiment.sh
. scripts/bench_experiment.sh
rounds=${2:-3}
jobs=${JOBS:-2}
bench_setup "${1:-$(mktemp -d /tmp/tracesync-bench-readers-XXXXXX)}"
echo "sync --jobs $jobs"

results="$work/reader-times.txt"
: > "$results"
for round in $(seq "$rounds"); do
  for reader in babeltrace2 scanner; do
    echo "$reader $(timed "$tracesync" sync --jobs "$jobs" --reader "$reader" --format json \
      -o "$work/report-$reader.json" "$work/experiment")" >> "$results"
  done
  echo "round $round of $rounds done, load $(cut -d' ' -f1 /proc/loadavg)"
done
python3 - "$results" "$work/report-babeltrace2.json" "$work/report-scanner.json" <<'PY'
import json, statistics, sys
times = {}
for line in open(sys.argv[1]):
    name, wall, cpu = line.split()
    times.setdefault(name, []).append((float(wall), float(cpu)))

def without_reader(path):
    """The report with what says which reader read each trace set aside."""
    report = json.load(open(path))
    for trace in report["traces"]:
        for key in [k for k in trace if k.startswith("reader")]:
            del trace[key]
    report["options"].pop("reader", None)
    return json.dumps(report, sort_keys=True)

same = without_reader(sys.argv[2]) == without_reader(sys.argv[3])
report = json.load(open(sys.argv[3]))
events = sum(t["events"] for t in report["traces"])
print(f"{events:,} events, {len(report['traces'])} traces, {len(report['links'])} links; "
      f"medians of {len(times['scanner'])} rounds; reports the same but for the reader: {'yes' if same else 'NO'}")
print("| reader | wall s (median) | CPU s (median) | babeltrace2's / this (wall) | (CPU) |")
print("| --- | --- | --- | --- | --- |")
base_wall = statistics.median(w for w, _ in times["babeltrace2"])
base_cpu = statistics.median(c for _, c in times["babeltrace2"])
for name in ["babeltrace2", "scanner"]:
    wall = statistics.median(w for w, _ in times[name])
    cpu = statistics.median(c for _, c in times[name])
    print(f"| {name} | {wall:.2f} | {cpu:.2f} | {base_wall / wall:.2f} | {base_cpu / cpu:.2f} |")
sys.exit(0 if same else 1)
PY
