# SPDX-License-Identifier: EPL-2.0
"""`tracesync probe` between two real LTTng hosts, and `sync --messages probe`.

Two namespace hosts, each with its own lttng-sessiond recording lttng-ust
events: alpha runs `tracesync probe --listen PORT`, beta (on a plugin clock
with a known offset and drift) runs `tracesync probe alpha:PORT`. They
exchange nothing else: a burst of round trips at start and one at stop, which
tracesync's lttng-ust provider records as tracesync_probe:round_send and
round_recv. `tracesync sync --messages probe` must synchronize the two
traces, and the truth (from the clock plugin and the metadata's offsets) must
lie inside every bound (`tracesync check-truth`). Exit 77 (skipped) says why
when LTTng cannot run here or tracesync's provider was not built.

usage: probe_sync_test.py TRACESYNC CLOCK_PLUGIN PROVIDER WORK_DIR
"""

import json
import pathlib
import subprocess
import sys
import time

import lttng_hosts as lh

ROUNDS = 40


def wait_for_line(path, prefix, timeout):
    """The first line of `path` that begins with `prefix`, within `timeout` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            for line in path.read_text(errors="replace").splitlines():
                if line.startswith(prefix):
                    return line
        time.sleep(0.05)
    raise RuntimeError("no line '%s...' in %s within %d s" % (prefix, path, timeout))


def main():
    tracesync, plugin, provider, work = sys.argv[1:5]
    work = pathlib.Path(work)
    if not pathlib.Path(provider).exists():
        print("skipped: tracesync's lttng-ust provider %s was not built" % provider)
        return 77
    missing = lh.fresh_work_dir(work)
    if missing:
        print("skipped: " + missing)
        return 77
    port = lh.free_ports(1)[0]
    # --ust on: a provider that does not load fails the test instead of
    # recording nothing.
    with lh.Hosts(work / "hosts", tracesync, plugin, events="tracesync_probe:*") as hosts:
        alpha = hosts.add("alpha", ["probe", "--ust", "on", "--listen", port, "--rounds", ROUNDS, "--duration", "6s"],
                          program=tracesync)
        beta = hosts.add("beta", ["probe", "--ust", "on", "--rounds", ROUNDS, "--duration", "2s",
                                  "127.0.0.1:%d" % port],
                         clock=lh.Clock(3_250_000_000, 60_000, "5e1f0a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b"),
                         program=tracesync)
        start = lh.monotonic_ns()
        hosts.start()
        hosts.go(["alpha"])
        wait_for_line(alpha.directory / "app.log", "listening port=", 30)
        hosts.go(["beta"])
        hosts.wait(90)
        lh.write_json(work / "truth.json", lh.truth_json(hosts, start, lh.monotonic_ns()))
        traces = [str(hosts.trace_dir(h)) for h in hosts.hosts]
        logs = {h.name: (h.directory / "app.log").read_text(errors="replace") for h in hosts.hosts}
    for name, log in logs.items():
        print("--- %s: tracesync probe's output\n%s" % (name, log.strip()))
    failures = []
    whole = [line for line in logs["beta"].splitlines() if line.startswith("burst ") and "whole=yes" in line]
    if len(whole) != 2:
        failures.append("beta: expected a whole start and stop burst, got %s" % whole)
    # check says which traces carry probe rounds, and that --messages probe makes them usable.
    check = subprocess.run([tracesync, "check", "--format", "json", "--messages", "probe"] + traces,
                           capture_output=True, timeout=120)
    checked = json.loads(check.stdout) if check.stdout else {"traces": []}
    print("check: exit %d, %s" % (check.returncode, [(t["hostname"], t["probe_rounds"], t["usable"])
                                                     for t in checked["traces"]]))
    if check.returncode != 0 or len(checked["traces"]) != 2 or not all(
            t["probe_rounds"] and t["usable"] for t in checked["traces"]):
        failures.append("check should find probe rounds in both traces, usable with --messages probe")
    report = lh.sync_report(tracesync, ["--messages", "probe"], traces, work, failures)
    if report is not None:
        links = report["links"]
        # Two bursts of ROUNDS round trips, two messages each.
        if len(links) != 1 or links[0]["messages"] != 4 * ROUNDS or links[0]["quality"] != "ACCURATE":
            failures.append("expected one ACCURATE link of %d probe messages" % (4 * ROUNDS))
        evidence = links[0].get("evidence", {}) if links else {}
        print("evidence of the link: %s" % evidence)
        if evidence.get("probe_messages") != 4 * ROUNDS or evidence.get("messages") != [
                {"kind": "probe", "messages": 4 * ROUNDS}]:
            failures.append("the link's evidence should be its %d probe messages" % (4 * ROUNDS))
        if not all(t["synchronized"] for t in report["traces"]):
            failures.append("expected both traces synchronized")
        lh.check_truth(tracesync, work, failures)
    return lh.verdict_of(failures)

if __name__ == "__main__":
    sys.exit(main())
