# SPDX-License-Identifier: EPL-2.0
"""The LTTng harness itself: two namespace hosts record tsapp's messages to
folders, one of them on the plugin clock; read back with babeltrace2, every
message has its send and its receive, and under the truth (truth_json) every
one-way delay is positive and short. Exit 77 (skipped) says why when LTTng
cannot run here.

usage: harness_test.py TSAPP CLOCK_PLUGIN WORK_DIR
"""

import fractions
import pathlib
import re
import shutil
import subprocess
import sys

import lttng_hosts as lh

EVENT = re.compile(r"^\[(\d+)\] .*tsapp:(msg_send|msg_recv): .*msg_id = (\d+)")


def events(trace_dir):
    """(cycles, name, msg_id) of every tsapp event, babeltrace2 reading."""
    out = subprocess.run(["babeltrace2", "--clock-cycles", str(trace_dir)], capture_output=True, check=True,
                         timeout=120).stdout.decode()
    return [(int(m.group(1)), m.group(2), int(m.group(3))) for m in map(EVENT.match, out.splitlines()) if m]


def main():
    tsapp, plugin, work = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
    missing = lh.what_is_missing()
    if missing:
        print("skipped: " + missing)
        return 77
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    port = lh.free_ports(1)[0]
    rate, duration_ms = 200, 2000
    with lh.Hosts(work, tsapp, plugin) as hosts:
        hosts.add("alpha", ["serve", port, 1, 1, 60])
        hosts.add("beta", ["connect", port, 2, rate, duration_ms],
                  clock=lh.Clock(3_000_000_000, 50_000, "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"))
        start = lh.monotonic_ns()
        hosts.start()
        hosts.go()
        hosts.wait(60)
        truth = lh.truth_json(hosts, start, lh.monotonic_ns())
        lh.write_json(work / "truth.json", truth)
        true_time = {}  # msg_id -> {event name: true ns}
        for host, entry in zip(hosts.hosts, truth["hosts"]):
            clock = lh.read_clock(hosts.trace_dir(host))
            origin = clock["offset_s"] * 1000000000 + clock["offset"]
            at_zero = int(entry["clock"][0][1])
            slope = fractions.Fraction(entry["clock"][0][2])
            for cycles, name, msg_id in events(hosts.trace_dir(host)):
                true_time.setdefault(msg_id, {})[name] = (cycles + origin - at_zero) / slope
    expected = 2 * (rate * duration_ms // 1000)
    delays = [t["msg_recv"] - t["msg_send"] for t in true_time.values() if len(t) == 2]
    print("%d messages, %d with both ends; one-way delay %.1f to %.1f us" % (
        len(true_time), len(delays), min(delays) / 1000, max(delays) / 1000))
    failures = []
    if len(true_time) < expected * 9 // 10:
        failures.append("expected about %d messages" % expected)
    if len(delays) != len(true_time):
        failures.append("%d messages lack an end" % (len(true_time) - len(delays)))
    if min(delays) <= 0:
        failures.append("a receive precedes its send under the truth: the truth or the clock plugin is wrong")
    if max(delays) > 1_000_000_000:
        failures.append("a one-way delay over 1 s under the truth: the truth or the clock plugin is wrong")
    for failure in failures:
        print("FAIL: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
