# SPDX-License-Identifier: EPL-2.0
"""`tracesync live` on real LTTng live sessions, against the truth.

Three namespace hosts stream to one lttng-relayd: alpha serves, beta and
gamma (each on a plugin clock of its own, with a known offset and drift)
send it messages over TCP, tsapp tracing every send and receive. Each host's
tsapp runs in a network namespace of its own, beta's and gamma's each joined
to alpha's by a veth pair (lh.VethStar), so the messages cross real virtual
links; the sessionds stay on the machine's loopback, where the relay listens
on 127.0.0.1. Where veth links cannot be made, the test says so and the
hosts talk over the loopback. `tracesync live` follows the three sessions
while they are recorded. The test checks:
  - with veth links: each client's link carried at least a packet per
    message it sent and received;
  - the final result matched every message the clients exchanged;
  - results were printed while the sessions ran, not only at the end;
  - the truth lies inside every bound of every result printed
    (`tracesync check-truth` on each line);
  - the bounds converge: the final one is no wider than the first;
  - the final live result equals `tracesync sync` on the relay's files
    afterwards (transforms, bounds and links, exactly), `live` given a
    link budget its links cross in their first seconds (LINK_BUDGET) where
    `sync` keeps its own (4 Mi messages, none crossed);
  - the lifecycle is told on stderr: each session followed, then ended.
Exit 77 (skipped) says why when LTTng cannot run here.

usage: live_test.py TRACESYNC TSAPP CLOCK_PLUGIN WORK_DIR [CLOCK_MODEL]

CLOCK_MODEL (piecewise by default, or linear) is given to both `live` and
`sync`. Convergence is each link's drift bound (`accuracy`, alpha_max -
alpha_min): more messages only narrow the set of lines the hulls allow, so
it may never grow, and it must end far narrower than it began. The offset
bound a trace reports at a fixed instant is printed, not asserted: it is
linear between the ends of its segment, whose bounds grow as the segment
reaches further, so it moves (by microseconds here) while staying true.
"""

import contextlib
import json
import pathlib
import re
import shutil
import subprocess
import sys
import threading
import time

import lttng_hosts as lh

MESSAGES = "send=tsapp:msg_send,recv=tsapp:msg_recv,key=msg_id"
RATE = 100          # messages a second from each client
DURATION_MS = 6000  # how long the clients send
# Each link's 1,200 messages cross it after about 1.5 s: from then on live's
# results come from the links' streamed local bands (docs/live.md).
LINK_BUDGET = 300


class LineReader(threading.Thread):
    """Collects a pipe's lines with the monotonic time each arrived."""

    def __init__(self, pipe):
        super().__init__(daemon=True)
        self.pipe = pipe
        self.lines = []

    def run(self):
        for line in self.pipe:
            self.lines.append((time.monotonic(), line.decode("utf-8", errors="replace")))


def messages_sent(hosts, failures):
    """The messages the clients' tsapp say they exchanged (each answered)."""
    total = 0
    for host in hosts.hosts:
        said = (host.directory / "app.log").read_text(errors="replace")
        counts = re.search(r"tsapp connect: (\d+) messages sent, (\d+) received", said)
        if counts is not None:
            total += int(counts.group(1)) + int(counts.group(2))
    if total == 0:
        failures.append("the clients exchanged no message")
    return total


def check_links(star, hosts, failures):
    """Each client's messages crossed its veth link: at least a packet a
    message each way (tsapp prints how many it sent and received)."""
    for host in hosts.hosts:
        if host.name == star.hub:
            continue
        tx, rx = star.packets(host.name)
        said = (host.directory / "app.log").read_text(errors="replace")
        counts = re.search(r"(\d+) messages sent, (\d+) received", said)
        print("%s's veth link: %d packets sent, %d received; tsapp: %s" % (host.name, tx, rx, said.strip()))
        if counts is None or int(counts.group(1)) == 0:
            failures.append("%s sent no message: %s" % (host.name, said))
        elif tx < int(counts.group(1)) or rx < int(counts.group(2)):
            failures.append("%s's messages did not cross its veth link (%d/%d packets for %s)" % (
                host.name, tx, rx, counts.group(0)))


def check_truth(tracesync, report, truth):
    """check-truth's verdict (JSON) on one report."""
    done = subprocess.run([tracesync, "check-truth", "--format", "json", str(report), str(truth)],
                          capture_output=True, timeout=120)
    if done.returncode not in (0, 5):
        raise RuntimeError("check-truth failed (%d): %s" % (done.returncode, done.stderr.decode(errors="replace")))
    return json.loads(done.stdout)


def essence(report):
    """What the live result and sync must agree on: per clock domain, the
    transform in pieces and its bound; per link, its estimate, bound and
    messages; the matching totals. (Trace names and paths differ: a live
    trace is named by its URL, a file trace by its directory.)"""
    traces = {t["domain"]: {k: t.get(k) for k in ("synchronized", "reference", "slope", "offset", "uncertainty_ns",
                                                    "segments", "first_ns", "last_ns")}
              for t in report["traces"]}
    links = {"%s / %s" % (l["a"], l["b"]): {k: l.get(k) for k in ("quality", "alpha", "beta", "accuracy", "messages",
                                                        "uncertainty_ns", "span_first_ns", "span_last_ns")}
             for l in report["links"]}
    return {"traces": traces, "links": links, "messages": report["messages"], "matching": report.get("matching")}


def widest_bound(report):
    return max((t["uncertainty_ns"] for t in report["traces"] if t["synchronized"] and not t["reference"]),
               default=None)


def check_results(tracesync, lines, sessions_ended, work, failures, during):
    """Checks the results `tracesync live` printed (`lines`: (time, line)):
    at least two with links before `sessions_ended` (while `during`), the
    last complete, each of the report's schema, with matching statistics
    that add up, and the truth (work/truth.json) inside every bound. Adds
    what fails to `failures`; returns the results as (time, report)."""
    results = [(at, json.loads(line)) for at, line in lines if line.strip()]
    running = [r for at, r in results if at < sessions_ended and not r["complete"] and r["links"]]
    print("%d results printed, %d of them with links while %s" % (len(results), len(running), during))
    if len(running) < 2:
        failures.append("fewer than two results with links were printed while " + during)
    if not results or not results[-1][1]["complete"]:
        failures.append("the last result is not complete")

    # Every line is a report of `sync --format json`'s schema.
    schema_path = pathlib.Path(__file__).resolve().parents[2] / "docs/schema/tracesync-sync-1.schema.json"
    try:
        import jsonschema
        validator = jsonschema.Draft202012Validator(json.loads(schema_path.read_text()))
        invalid = [i for i, (_, r) in enumerate(results) if not validator.is_valid(r)]
        print("%d results checked against %s, %d invalid" % (len(results), schema_path.name, len(invalid)))
        if invalid:
            failures.append("results %s do not follow the report's schema: %s" % (
                invalid, next(validator.iter_errors(results[invalid[0]][1])).message))
    except ImportError:
        print("not checked against the schema: python3-jsonschema is not installed")
    # Every result carries the matching statistics so far, as the final one.
    for i, (_, result) in enumerate(results):
        matching = result.get("matching")
        if result["links"] and (matching is None or matching["matches"] < result["messages"] or
                                any("matching" not in link for link in result["links"]) or
                                sum(link["matching"]["matches"] for link in result["links"]) != matching["matches"]):
            failures.append("result %d: no matching statistics, or they do not add up: %s" % (i, matching))
    print("matches counted result by result: %s" % " ".join(
        str(r["matching"]["matches"]) for _, r in results if r.get("matching")))
    for i, (_, result) in enumerate(results):
        path = work / ("result-%03d.json" % i)
        path.write_text(json.dumps(result))
        if not result["links"]:
            continue
        verdict = check_truth(tracesync, path, work / "truth.json")
        instants = sum(t.get("instants", 0) for t in verdict["traces"])
        print("result %d: %d messages, widest bound %.0f ns, worst error %.0f ns, %d traces and %d instants checked, "
              "%d violations" % (i, result["messages"], widest_bound(result) or -1, verdict["worst_error_ns"],
                                 verdict["checked"], instants, verdict["violations"]))
        if verdict["violations"] != 0 or instants == 0:
            failures.append("result %d: the truth is outside its bound (%d violations) or nothing was checked" % (
                i, verdict["violations"]))
    return results


def bound_at(report, domain, instant):
    """The bound a report gives a domain's trace at `instant` (its own
    clock): linear over the segment holding it; None when none does."""
    for trace in report["traces"]:
        if trace["domain"] != domain or not trace["synchronized"]:
            continue
        for segment in trace["segments"]:
            if segment["first_ns"] <= instant <= segment["last_ns"]:
                width = segment["last_ns"] - segment["first_ns"]
                share = (instant - segment["first_ns"]) / width if width else 0
                return segment["uncertainty_first_ns"] + share * (segment["uncertainty_last_ns"] -
                                                                   segment["uncertainty_first_ns"])
    return None


def main():
    tracesync, tsapp, plugin, work = sys.argv[1:5]
    clock_model = sys.argv[5] if len(sys.argv) > 5 else "piecewise"
    work = pathlib.Path(work)
    missing = lh.what_is_missing()
    if missing:
        print("skipped: " + missing)
        return 77
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    failures = []
    relay = lh.Relay(work)
    live = None
    star = lh.VethStar("alpha", ["beta", "gamma"])
    no_veth = star.unavailable()
    if no_veth:
        print("SKIPPED PART: no veth links here (%s): the hosts' messages go over the machine's loopback" % no_veth)
        star = None
    try:
        relay.start()
        port = lh.free_ports(1)[0]
        with star or contextlib.nullcontext(), lh.Hosts(work, tsapp, plugin, relay=relay, network=star) as hosts:
            server = lambda client: star.hub_endpoint(client, port) if star else port
            hosts.add("alpha", ["serve", "0.0.0.0:%d" % port if star else port, 2, 1, 120])
            hosts.add("beta", ["connect", server("beta"), 2, RATE, DURATION_MS],
                      clock=lh.Clock(2_500_000_000, 40_000, "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"))
            hosts.add("gamma", ["connect", server("gamma"), 3, RATE, DURATION_MS],
                      clock=lh.Clock(-7_000_000_000, -25_000, "1a2b3c4d-5e6f-4a8b-9c0d-e1f2a3b4c5d6"))
            start = lh.monotonic_ns()
            hosts.start()
            urls = [relay.live_url(h.name, hosts.session) for h in hosts.hosts]
            live = subprocess.Popen([tracesync, "live", "--interval", "250ms", "--messages", MESSAGES, "--clock-model", clock_model,
                                     "--link-budget", str(LINK_BUDGET), "-o", str(work / "live.html")] + urls,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
            out, err = LineReader(live.stdout), LineReader(live.stderr)
            out.start()
            err.start()
            # The relay sends a viewer what is recorded after it attached:
            # the hosts send once tracesync follows every session.
            relay.wait_for_viewers(urls, 30, live)
            hosts.go()
            hosts.wait(120)
            sessions_ended = time.monotonic()
            sent = messages_sent(hosts, failures)
            if star:
                check_links(star, hosts, failures)
            code = live.wait(60)
            out.join(10)
            err.join(10)
            truth = lh.truth_json(hosts, start, lh.monotonic_ns())
            lh.write_json(work / "truth.json", truth)
            relay_output = relay.output
    finally:
        if live is not None:
            lh.stop_process(live)
        relay.stop()

    stderr = "".join(line for _, line in err.lines)
    print("tracesync live exited %d; stderr:\n%s" % (code, stderr))
    if code != 0:
        failures.append("tracesync live exited %d" % code)
    for url in urls:
        if "following " + url not in stderr or "ended " + url not in stderr:
            failures.append("stderr does not say %s was followed, then ended" % url)

    results = check_results(tracesync, out.lines, sessions_ended, work, failures, "the sessions ran")
    if results and results[-1][1]["messages"] != sent:
        failures.append("the final result matched %d messages, the clients exchanged %d" % (
            results[-1][1]["messages"], sent))
    # Convergence: each link's drift bound, result by result.
    with_links = [r for _, r in results if r["links"]]
    drift_bounds = {}
    for result in with_links:
        for link in result["links"]:
            if link.get("accuracy") is not None:
                drift_bounds.setdefault((link["a_hostname"], link["b_hostname"]), []).append(
                    float(link["accuracy"]))  # an exact decimal
    for (a, b), series in sorted(drift_bounds.items()):
        print("drift bound of %s-%s, result by result (ppm): %s" % (a, b, " ".join("%.2f" % (x * 1e6) for x in series)))
        if len(series) < 2 or any(later > earlier * (1 + 1e-9) for earlier, later in zip(series, series[1:])):
            failures.append("the drift bound of %s-%s grew at some result: %s" % (a, b, series))
        elif series[-1] > series[0] / 10:
            failures.append("the drift bound of %s-%s did not narrow tenfold: %s" % (a, b, series))
    if len(drift_bounds) != 2:
        failures.append("expected two links with a drift bound, got %s" % sorted(drift_bounds))
    # For information: the offset bound at one instant (the middle of what
    # the first result with links covered).
    if with_links:
        for trace in with_links[0]["traces"]:
            if trace["reference"] or not trace["synchronized"]:
                continue
            instant = (trace["first_ns"] + trace["last_ns"]) // 2
            series = [b for b in (bound_at(r, trace["domain"], instant) for r in with_links) if b is not None]
            print("offset bound of %s at %d, result by result (ns): %s" % (
                trace["name"], instant, " ".join("%.0f" % b for b in series)))

    sync = subprocess.run([tracesync, "sync", "--format", "json", "--messages", MESSAGES, "--clock-model", clock_model,
                           str(relay_output)],
                          capture_output=True, timeout=300)
    if sync.returncode != 0:
        failures.append("tracesync sync on the relay's files exited %d: %s" % (
            sync.returncode, sync.stderr.decode(errors="replace")))
    else:
        after = essence(json.loads(sync.stdout))
        final = essence(results[-1][1]) if results else None
        (work / "sync.json").write_bytes(sync.stdout)
        if final != after:
            failures.append("the final live result differs from sync on the relay's files:\nlive %s\nsync %s" % (
                json.dumps(final, sort_keys=True), json.dumps(after, sort_keys=True)))
    for failure in failures:
        print("FAIL: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
