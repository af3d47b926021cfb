# SPDX-License-Identifier: EPL-2.0
"""`tracesync sync` after the fact on real LTTng user-space traces.

Three namespace hosts record tsapp's TCP messages to trace folders: alpha
serves, beta and gamma (each on a plugin clock of its own, with a known
offset and drift) send. `tracesync sync --messages` synchronizes the
folders by those application messages; every trace must be synchronized and
the truth (from the clock plugin and the metadata's offsets) must lie inside
every bound (`tracesync check-truth`). Exit 77 (skipped) says why when LTTng
cannot run here.

usage: ust_sync_test.py TRACESYNC TSAPP CLOCK_PLUGIN WORK_DIR
"""

import pathlib
import sys

import lttng_hosts as lh

MESSAGES = "send=tsapp:msg_send,recv=tsapp:msg_recv,key=msg_id"


def main():
    tracesync, tsapp, plugin, work = sys.argv[1:5]
    work = pathlib.Path(work)
    missing = lh.fresh_work_dir(work)
    if missing:
        print("skipped: " + missing)
        return 77
    port = lh.free_ports(1)[0]
    with lh.Hosts(work / "hosts", tsapp, plugin) as hosts:
        hosts.add("alpha", ["serve", port, 2, 1, 60])
        hosts.add("beta", ["connect", port, 2, 200, 3000],
                  clock=lh.Clock(2_500_000_000, 40_000, "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"))
        hosts.add("gamma", ["connect", port, 3, 200, 3000],
                  clock=lh.Clock(-7_000_000_000, -25_000, "1a2b3c4d-5e6f-4a8b-9c0d-e1f2a3b4c5d6"))
        start = lh.monotonic_ns()
        hosts.start()
        hosts.go()
        hosts.wait(60)
        lh.write_json(work / "truth.json", lh.truth_json(hosts, start, lh.monotonic_ns()))
        traces = [str(hosts.trace_dir(h)) for h in hosts.hosts]
    failures = []
    report = lh.sync_report(tracesync, ["--messages", MESSAGES], traces, work, failures)
    if report is not None:
        if len(report["links"]) != 2 or not all(t["synchronized"] for t in report["traces"]):
            failures.append("expected two links and every trace synchronized")
        lh.check_truth(tracesync, work, failures)
    return lh.verdict_of(failures)

if __name__ == "__main__":
    sys.exit(main())
