# SPDX-License-Identifier: EPL-2.0
"""`tracesync live DIR...` on trace folders LTTng is writing, against the truth.

Three namespace hosts record to local folders (`lttng create --output`, a
100 ms switch timer on their channel and metadata so that packets reach
the disk, and tsapp ticking on every CPU every 50 ms so that no per-CPU
stream stays without packets: one would hold every result back): alpha serves, beta and gamma (each on a plugin clock with a
known offset and drift) send it messages over TCP. `tracesync live`
follows the three folders from before any of them holds a trace (LTTng
writes a trace when the first traced program registers: --wait), and
gamma starts two seconds after the others (a trace that appears late).
The test checks:
  - results were printed while the hosts recorded, not only at the end;
  - every line follows the report's schema and carries the matching statistics
    so far, and the truth lies inside every
    bound of every result (`tracesync check-truth`);
  - the final result, printed once nothing was written for --quiet, equals
    `tracesync sync` on the finished folders (transforms, bounds, links,
    matching statistics);
  - stderr tells each folder followed, then ended.
With --rotate, the sessions rotate their trace chunks every second
(`lttng enable-rotation --timer 1s`) and tsapp neither ticks nor leaves
CPU 0 (taskset), so every other CPU's stream stays quiet; without
rotations such a stream holds every result back until the end. The test
then checks the same, results while the hosts record included, and that
each folder ended with its last archived chunk (not by --quiet); sync
reads every archived chunk, one trace each, so the final result is
compared with it by links, matching and domains (a trace's span is a
chunk's there).
Exit 77 (skipped) says why when LTTng cannot run here.

usage: live_folder_test.py TRACESYNC TSAPP CLOCK_PLUGIN WORK_DIR [--rotate]
"""

import json
import pathlib
import shutil
import subprocess
import sys
import time

import lttng_hosts as lh
from live_test import LineReader, check_results, essence

MESSAGES = "send=tsapp:msg_send,recv=tsapp:msg_recv,key=msg_id"
RATE = 100          # messages a second from each client
DURATION_MS = 6000  # how long the clients send
QUIET = "3s"        # nothing written for this long: a folder has ended


def main():
    tracesync, tsapp, plugin, work = sys.argv[1:5]
    rotate = sys.argv[5:] == ["--rotate"]
    work = pathlib.Path(work)
    missing = lh.what_is_missing()
    if missing:
        print("skipped: " + missing)
        return 77
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    failures = []
    live = None
    try:
        port = lh.free_ports(1)[0]
        recording = {"rotation_us": 1000000, "pin_cpu": 0} if rotate else {"tick_ms": 50}
        with lh.Hosts(work, tsapp, plugin, switch_timer_us=100000, **recording) as hosts:
            hosts.add("alpha", ["serve", port, 2, 1, 120])
            hosts.add("beta", ["connect", port, 2, RATE, DURATION_MS],
                      clock=lh.Clock(2_500_000_000, 40_000, "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"))
            hosts.add("gamma", ["connect", port, 3, RATE, DURATION_MS],
                      clock=lh.Clock(-7_000_000_000, -25_000, "1a2b3c4d-5e6f-4a8b-9c0d-e1f2a3b4c5d6"))
            start = lh.monotonic_ns()
            hosts.start()
            folders = [str(h.directory / "trace") for h in hosts.hosts]
            live = subprocess.Popen([tracesync, "live", "--interval", "250ms", "--wait", "60s", "--quiet", QUIET,
                                     "--messages", MESSAGES, "-o", str(work / "live.html")] + folders,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
            out, err = LineReader(live.stdout), LineReader(live.stderr)
            out.start()
            err.start()
            hosts.go(["alpha", "beta"])
            time.sleep(2)
            hosts.go(["gamma"])
            hosts.wait(120)
            sessions_ended = time.monotonic()
            code = live.wait(60)
            out.join(10)
            err.join(10)
            truth = lh.truth_json(hosts, start, lh.monotonic_ns())
            lh.write_json(work / "truth.json", truth)
            traces = [str(d) for h in hosts.hosts for d in hosts.trace_dirs(h)]
    finally:
        if live is not None:
            lh.stop_process(live)

    stderr = "".join(line for _, line in err.lines)
    print("tracesync live exited %d; stderr:\n%s" % (code, stderr))
    if code != 0:
        failures.append("tracesync live exited %d" % code)
    for folder in folders:
        if "following " + folder not in stderr or "ended " + folder not in stderr:
            failures.append("stderr does not say %s was followed, then ended" % folder)
        elif rotate and "ended %s: its trace chunk" % folder not in stderr:
            failures.append("%s did not end with its last archived trace chunk" % folder)

    results = check_results(tracesync, out.lines, sessions_ended, work, failures, "the hosts recorded")

    sync = subprocess.run([tracesync, "sync", "--format", "json", "--messages", MESSAGES] + traces,
                          capture_output=True, timeout=300)
    if sync.returncode != 0:
        failures.append("tracesync sync on the finished folders exited %d: %s" % (
            sync.returncode, sync.stderr.decode(errors="replace")))
    else:
        (work / "sync.json").write_bytes(sync.stdout)
        after = essence(json.loads(sync.stdout))
        final = essence(results[-1][1]) if results else None
        if rotate and final is not None:
            # One trace a chunk in sync's report: compare what is the domains'.
            for report in (after, final):
                report["traces"] = {d: {k: t[k] for k in ("synchronized", "reference")}
                                    for d, t in report["traces"].items()}
        if final != after:
            failures.append("the final live result differs from sync on the finished folders:\nlive %s\nsync %s" % (
                json.dumps(final, sort_keys=True), json.dumps(after, sort_keys=True)))
        else:
            print("the final live result equals sync on the finished folders (%d messages)" % after["messages"])
    for failure in failures:
        print("FAIL: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
