#!/bin/bash
# SPDX-License-Identifier: EPL-2.0
# tracesync-dask on a real Dask cluster on this machine (issue 31): a
# dask-scheduler and two dask-workers on 127.0.0.1, each in a mount
# namespace of its own where it sees only its folder of traces (and a folder
# both share). The report must be the one `tracesync sync` gives on one
# machine; a worker killed mid-run costs only the traces no other worker
# holds. Skips (77) without Debian's python3-distributed or mount namespaces.
#
# usage: dask_driver_test.sh TRACESYNC DRIVER
set -u
TRACESYNC=$1
DRIVER=$2
PY=/usr/bin/python3

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
command -v dask-scheduler >/dev/null && command -v dask-worker >/dev/null || skip "no dask-scheduler/dask-worker"
$PY -c "import distributed" 2>/dev/null || skip "$PY cannot import distributed (apt-get install python3-distributed)"
unshare --mount --propagation private true 2>/dev/null || skip "cannot make a mount namespace (needs root)"

WORK=$(mktemp -d /tmp/tracesync-dask-test.XXXXXX)
PIDS=()
cleanup() {
  touch "$WORK/release"
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
  for _ in $(seq 50); do
    alive=0
    for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null; done
  rm -rf "$WORK"
}
trap cleanup EXIT
export HOME=$WORK/home DASK_TEMPORARY_DIRECTORY=$WORK/tmp
mkdir -p "$HOME" "$DASK_TEMPORARY_DIRECTORY"

free_port() { $PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Five hosts: host0 only on worker A, host1 and host2 only on B, host3 and
# host4 on both (a shared folder).
"$TRACESYNC" simulate --quiet --output "$WORK/sim" --hosts 5 --topology random --duration 2s --seed 11 ||
  fail "simulate"
T=$WORK/traces
mkdir -p "$T/a" "$T/b" "$T/c"
mv "$WORK/sim/host0" "$T/a/"
mv "$WORK/sim/host1" "$WORK/sim/host2" "$T/b/"
mv "$WORK/sim/host3" "$WORK/sim/host4" "$T/c/"

# A tracesync that, on worker A only (TS_SLOW), waits before extracting
# until released: the test kills A while it waits.
cat > "$WORK/tracesync" <<EOF
#!/bin/sh
if [ -n "\${TS_SLOW:-}" ] && [ "\$1" = extract ]; then
  touch "$WORK/waiting.\$\$"
  i=0
  while [ ! -e "$WORK/release" ] && [ \$i -lt 600 ]; do sleep 0.1; i=\$((i + 1)); done
  rm -f "$WORK/waiting.\$\$"
fi
exec "$TRACESYNC" "\$@"
EOF
chmod +x "$WORK/tracesync"

PORT=$(free_port)
SCHEDULER=tcp://127.0.0.1:$PORT
dask-scheduler --host 127.0.0.1 --port "$PORT" --dashboard-address "127.0.0.1:$(free_port)" \
  --idle-timeout 600 >"$WORK/scheduler.log" 2>&1 &
PIDS+=($!)

# worker NAME HIDDEN_FOLDER [ENV...]: a worker that cannot see HIDDEN_FOLDER
# (an empty tmpfs over it). unshare and sh exec it: $! is the worker.
worker() {
  local name=$1 hidden=$2
  shift 2
  mkdir -p "$WORK/$name"
  env "$@" unshare --mount --propagation private -- sh -c \
    "mount -t tmpfs none '$hidden' && exec dask-worker '$SCHEDULER' --host 127.0.0.1 --nthreads 1 --no-nanny \
       --no-dashboard --lifetime 600s --local-directory '$WORK/$name' --name $name" >"$WORK/$name.log" 2>&1 &
  PIDS+=($!)
}
worker A "$T/b" TS_SLOW=1
worker B "$T/a" TS_SLOW=
WORKER_A=${PIDS[1]}

wait_for_workers() {
  timeout 120 $PY - "$SCHEDULER" "$1" <<'EOF' || fail "the cluster did not come up (see the logs)"
import sys, time
from distributed import Client
deadline = time.monotonic() + 100
while True:
    try:
        with Client(sys.argv[1], timeout=5) as c:
            while len(c.scheduler_info()["workers"]) != int(sys.argv[2]):
                if time.monotonic() > deadline:
                    sys.exit(1)
                time.sleep(0.2)
        break
    except OSError:
        if time.monotonic() > deadline:
            sys.exit(1)
        time.sleep(0.5)
EOF
}
wait_for_workers 2

PATHS=("$T/a/host0" "$T/b/host1" "$T/b/host2" "$T/c/host3" "$T/c/host4")

# 1. The report equals the one-machine sync's, byte for byte, in both formats.
for format in json text; do
  "$TRACESYNC" sync --format "$format" "${PATHS[@]}" >"$WORK/one.$format" 2>"$WORK/one.err"
  want=$?
  timeout 300 $PY "$DRIVER" --scheduler "$SCHEDULER" --tracesync "$TRACESYNC" "${PATHS[@]}" -- --format "$format" \
    >"$WORK/dask.$format" 2>"$WORK/dask.err"
  got=$?
  [ $got = $want ] || { cat "$WORK/dask.err"; fail "exit $got, the one-machine sync exits $want ($format)"; }
  cmp "$WORK/one.$format" "$WORK/dask.$format" || { cat "$WORK/dask.err"; fail "the reports differ ($format)"; }
  grep -q "extracted $T/a/host0 on tcp://127.0.0.1:[0-9]* (.* bytes) \[[1-5]/5\]" "$WORK/dask.err" ||
    { cat "$WORK/dask.err"; fail "no progress line for host0"; }
done
echo "ok: the report from the cluster equals the one-machine report"

# 2. A path no worker holds is named and skipped (exit 3), the rest synchronized.
timeout 300 $PY "$DRIVER" --scheduler "$SCHEDULER" --tracesync "$TRACESYNC" "${PATHS[@]}" "$WORK/nowhere" \
  -- --format json >"$WORK/dask.json" 2>"$WORK/dask.err"
got=$?
[ $got = 3 ] || { cat "$WORK/dask.err"; fail "exit $got with a path no worker holds, not 3"; }
grep -q "skipped $WORK/nowhere: no worker holds it" "$WORK/dask.err" || { cat "$WORK/dask.err"; fail "nowhere not named"; }
cmp "$WORK/one.json" "$WORK/dask.json" || fail "the report with a path no worker holds differs"
echo "ok: a path no worker holds is skipped"

# wait_for_held_extract CASE: until worker A's tracesync holds an extract
# (its waiting file), a minute at most.
wait_for_held_extract() {
  for _ in $(seq 600); do
    compgen -G "$WORK/waiting.*" >/dev/null && return
    sleep 0.1
  done
  fail "worker A never started an extract ($1)"
}

# 3. Ctrl-C while worker A holds an extract: the driver says the extracts
# were cancelled, writes no report and exits 130. (Started from a script,
# a background job ignores SIGINT: the driver is exec'd with it restored.)
timeout 300 $PY -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
  $PY "$DRIVER" --scheduler "$SCHEDULER" --tracesync "$WORK/tracesync" "${PATHS[@]}" -- --format json \
  >"$WORK/cancelled.json" 2>"$WORK/cancelled.err" &
DRIVER_PID=$!
PIDS+=($DRIVER_PID)
wait_for_held_extract "Ctrl-C case"
kill -INT "$DRIVER_PID"
wait "$DRIVER_PID"
got=$?
cat "$WORK/cancelled.err"
[ $got = 130 ] || fail "exit $got after Ctrl-C, not 130"
grep -q "interrupted; the extracts under way were cancelled, nothing is synchronized" "$WORK/cancelled.err" ||
  fail "Ctrl-C not said"
[ ! -s "$WORK/cancelled.json" ] || fail "a report was written after Ctrl-C"
# The extract A was holding ends (its result dropped) before the next case.
touch "$WORK/release"
for _ in $(seq 100); do
  compgen -G "$WORK/waiting.*" >/dev/null || break
  sleep 0.1
done
compgen -G "$WORK/waiting.*" >/dev/null && fail "worker A's held extract did not end once released"
rm -f "$WORK/release"
echo "ok: Ctrl-C cancels the map, no report, exit 130"

# 4. Worker A dies while it holds host0 (only there) and host3 (also on B):
# host3 is extracted on B, host0 is skipped, the report is the one-machine
# report of the others. The least loaded holder goes first, so A gets host0
# and host3, B gets host1, host2 and host4.
timeout 300 $PY "$DRIVER" --scheduler "$SCHEDULER" --tracesync "$WORK/tracesync" "${PATHS[@]}" -- --format json \
  >"$WORK/dead.json" 2>"$WORK/dead.err" &
DRIVER_PID=$!
PIDS+=($DRIVER_PID)
wait_for_held_extract "worker death case"
{ kill -9 "$WORKER_A"; wait "$WORKER_A"; } 2>/dev/null
wait "$DRIVER_PID"
got=$?
cat "$WORK/dead.err"
[ $got = 3 ] || fail "exit $got after a worker died, not 3"
grep -q "$T/c/host3: its worker tcp://127.0.0.1:[0-9]* died; retrying on" "$WORK/dead.err" || fail "host3 not retried"
grep -q "skipped $T/a/host0: its worker tcp://127.0.0.1:[0-9]* died, and no other live worker holds it" \
  "$WORK/dead.err" || fail "host0 not named as skipped"
"$TRACESYNC" sync --format json "$T/b/host1" "$T/b/host2" "$T/c/host3" "$T/c/host4" >"$WORK/rest.json"
cmp "$WORK/rest.json" "$WORK/dead.json" || fail "the report after the worker died is not the report of the others"
echo "ok: a dead worker's traces are retried elsewhere or named as skipped"
