# SPDX-License-Identifier: EPL-2.0
"""Benchmark of `tracesync live` on real LTTng live sessions (prints
figures, asserts nothing about time).

One server host and CLIENTS client hosts (each client on a plugin clock of
its own) stream to one relay for SECONDS at RATE messages a second per
client; `tracesync live --interval 100ms` follows every session. With
--folders among the options, the hosts record to local folders instead
(100 ms switch timers, tsapp ticking on every CPU every 50 ms) and
`tracesync live --wait 60s --quiet 3s` follows the folders; with --rotate,
to folders with a rotation every second (lttng enable-rotation) and no
ticks, so that a CPU's stream may stay quiet; with --pin, every traced
program runs on CPU 0 only (and tsapp does not tick), so the other CPUs'
streams do stay quiet. Prints:
  - events followed: total, per second of the run, and tracesync's CPU
    time per million events (its CPU use while it kept up: `tracesync live`
    and its reading processes, and live's own share);
  - latency from a message recorded (the true time of its later end, on
    CLOCK_MONOTONIC, which the clock plugin and lttng-ust's clock derive
    from) to the arrival of the first printed result that includes it:
    median, 90th percentile and worst;
  - tracesync's resident memory over the run (every 0.5 s): start, peak, end;
    with --every-minute, a table too: at each minute of the run, the
    messages of the latest result printed, the results printed during that
    minute and the resident memory (for long runs: memory over hours); and,
    with latency, the latency of the messages recorded in each 10 minutes.
With --lateness, it prints what a match horizon must cover in live: how far
apart a message's two ends are as recorded (each on its host's clock, as the
matcher compares them), and how late the relay delivers one host's events
relative to another's: at each printed result, the age (true time of the
result's arrival less the true time of the trace's last event in it) of
each host's newest event, and the spread of those ages between hosts.
With --no-latency, the latency is not computed: it reads every event again
with babeltrace2 afterwards, which a run of an hour makes long.

usage: live_bench.py TRACESYNC TSAPP CLOCK_PLUGIN WORK_DIR [SECONDS [RATE [CLIENTS [--folders|--rotate] [--pin]
                     [--every-minute] [--no-latency] [--lateness] [LIVE_OPTION...]]]]
"""

import array
import fractions
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
EVENT = re.compile(r"^\[(\d+)\] .*tsapp:(msg_send|msg_recv): .*msg_id = (\d+)")


def rss_kib(pid):
    try:
        for line in open("/proc/%d/status" % pid):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def cpu_seconds(pid):
    """user + system CPU time of `tracesync live` and of its reading
    processes (since s39 each source is read in a process of its own), and
    of live's own process alone, from /proc: the children running, by their
    own stat; the ones that ended and were reaped, in live's cutime and
    cstime."""
    import os
    tick = os.sysconf("SC_CLK_TCK")

    def stat(process):
        return open("/proc/%d/stat" % process).read().rsplit(")", 1)[1].split()

    fields = stat(pid)
    own = (int(fields[11]) + int(fields[12])) / tick
    total = own + (int(fields[13]) + int(fields[14])) / tick
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            children = open("/proc/%d/task/%s/children" % (pid, task)).read().split()
        except OSError:  # the thread ended meanwhile
            continue
        for child in children:
            try:
                child_fields = stat(int(child))
            except OSError:  # ended meanwhile: in cutime at the next sample
                continue
            total += (int(child_fields[11]) + int(child_fields[12])) / tick
    return total, own


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def main():
    tracesync, tsapp, plugin, work = sys.argv[1:5]
    seconds = int(sys.argv[5]) if len(sys.argv) > 5 else 20
    rate = int(sys.argv[6]) if len(sys.argv) > 6 else 1000
    clients = int(sys.argv[7]) if len(sys.argv) > 7 else 2
    extra = sys.argv[8:]  # more options for tracesync live, e.g. --match-horizon 5s
    folders = "--folders" in extra or "--rotate" in extra
    rotate = "--rotate" in extra
    pin = "--pin" in extra  # every traced program on CPU 0: the other CPUs' streams stay quiet
    every_minute = "--every-minute" in extra
    latency = "--no-latency" not in extra
    lateness = "--lateness" in extra
    extra = [e for e in extra if e not in ("--folders", "--rotate", "--pin", "--every-minute", "--no-latency",
                                           "--lateness")]
    work = pathlib.Path(work)
    missing = lh.what_is_missing()
    if missing:
        print("skipped: " + missing)
        return 77
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    relay = None if folders else lh.Relay(work)
    live = None
    arrivals = []  # (monotonic s, messages in the result)
    newest = []  # (monotonic ns, {hostname: last_ns}) at each result, with --lateness
    memory = []
    try:
        if relay is not None:
            relay.start()
        port = lh.free_ports(1)[0]
        if rotate:  # no ticks: quiet CPUs' streams move on at each rotation (1 s)
            recording = {"switch_timer_us": 100000, "rotation_us": 1000000}
        elif folders:
            recording = {"switch_timer_us": 100000} if pin else {"switch_timer_us": 100000, "tick_ms": 50}
        else:
            recording = {"relay": relay}
        if pin:
            recording["pin_cpu"] = 0
        with lh.Hosts(work, tsapp, plugin, **recording) as hosts:
            hosts.add("server", ["serve", port, clients, 1, seconds + 120])
            for c in range(clients):
                hosts.add("client%d" % c, ["connect", port, c + 2, rate, seconds * 1000],
                          clock=lh.Clock(1_000_000_000 * (c + 1), 10_000 * (c + 1),
                                         "00000000-0000-4000-8000-%012d" % (c + 1)))
            start = lh.monotonic_ns()
            hosts.start()
            if folders:
                urls = ["--wait", "60s", "--quiet", "3s"] + [str(h.directory / "trace") for h in hosts.hosts]
            else:
                urls = [relay.live_url(h.name, hosts.session) for h in hosts.hosts]
            live = subprocess.Popen([tracesync, "live", "--interval", "100ms", "--messages", MESSAGES] + extra + urls,
                                    stdout=subprocess.PIPE, stderr=open(work / "live.err", "wb"),
                                    start_new_session=True)

            def collect():
                for line in live.stdout:
                    if line.strip():
                        at = lh.monotonic_ns()
                        result = json.loads(line)
                        arrivals.append((at / 1e9, result["messages"]))
                        if lateness:
                            newest.append((at, {t["hostname"]: t["last_ns"] for t in result["traces"]
                                                if t.get("last_ns") is not None}))

            reader = threading.Thread(target=collect, daemon=True)
            reader.start()
            if not folders:
                relay.wait_for_viewers(urls, 30, live)
            cpu = [cpu_seconds(live.pid)]
            began = time.monotonic()
            hosts.go()
            done = threading.Event()

            def sample():
                while not done.is_set():
                    value = rss_kib(live.pid)
                    if value is not None:
                        memory.append((time.monotonic() - began, value))
                        try:
                            cpu.append(cpu_seconds(live.pid))
                        except OSError:
                            pass
                    time.sleep(0.5)

            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            hosts.wait(seconds + 120)
            ended = time.monotonic()
            live.wait(60)
            finished = time.monotonic()
            done.set()
            reader.join(10)
            truth = lh.truth_json(hosts, start, lh.monotonic_ns())
            # Every message: the later of its ends' local times, and the
            # true time of its later end. Read line by line and kept in
            # arrays: an hour at 2,000 messages a second is 14 M events.
            ends = {}  # msg_id: (kind, local, true) of the end seen first
            later_local, later_true = array.array("q"), array.array("d")
            gaps = array.array("d")  # with --lateness: a message's ends as recorded, apart (s)
            for host, entry in zip(hosts.hosts, truth["hosts"] if latency else []):
                clock = lh.read_clock(hosts.trace_dir(host))
                origin = clock["offset_s"] * 1000000000 + clock["offset"]
                at_zero = int(entry["clock"][0][1])
                slope = fractions.Fraction(entry["clock"][0][2])
                for d in hosts.trace_dirs(host):
                    reading = subprocess.Popen(["babeltrace2", "--clock-cycles", str(d)], stdout=subprocess.PIPE,
                                               text=True)
                    for m in map(EVENT.match, reading.stdout):
                        if not m:
                            continue
                        local = int(m.group(1)) + origin
                        true = float((local - at_zero) / slope)
                        key = int(m.group(3))
                        other = ends.pop(key, None)
                        if other is None or other[0] == m.group(2):
                            ends[key] = (m.group(2), local, true)
                            continue
                        later_local.append(max(local, other[1]))
                        later_true.append(max(true, other[2]))
                        if lateness:
                            gaps.append(abs(local - other[1]) / 1e9)
                    if reading.wait(timeout=600) != 0:
                        raise RuntimeError("babeltrace2 could not read %s" % d)
    finally:
        if live is not None:
            lh.stop_process(live)
        if relay is not None:
            relay.stop()

    events = 2 * len(later_local) + len(ends) if latency else 0
    if not latency:  # a message is two events: its send and its receive
        events = 2 * arrivals[-1][1] if arrivals else 0
    run = ended - began
    print("run: %d clients x %d msg/s for %d s; %d events recorded (%.0f events/s)" % (
        clients, rate, seconds, events, events / run))
    print("tracesync live (%s): %d results printed; it ended %.1f s after the hosts%s" % (
        "rotating folders" if rotate else "folders" if folders else "relay", len(arrivals), finished - ended,
        " (--quiet 3s included)" if folders else ""))
    if len(cpu) >= 2:
        used = cpu[-1][0] - cpu[0][0]  # up to the last sample (0.5 s apart)
        own = cpu[-1][1] - cpu[0][1]
        print("tracesync CPU (live and its reading processes): %.2f s over the run, %.2f s per million events "
              "(%.0f%% of one core); live's own process %.2f s, its reading processes %.2f s" % (
                  used, used / events * 1e6 if events else 0, 100 * used / run, own, used - own))
    # The matcher emits messages by their later end as recorded (each on its
    # own clock): result i holds the first `messages` of that order.
    order = sorted(range(len(later_local)), key=later_local.__getitem__)
    latencies = array.array("d")
    recorded = array.array("d")  # the true time of each one's later end, s after the hosts began
    index = 0
    for at, count in arrivals:
        while index < min(count, len(order)):
            latencies.append(at - later_true[order[index]] / 1e9)
            recorded.append(later_true[order[index]] / 1e9 - began)
            index += 1
    del order
    if every_minute and memory:
        print("minute | messages in the latest result | results printed in the minute | resident memory (MiB)")
        for minute in range(int(memory[-1][0] // 60) + 1):
            at, value = [m for m in memory if m[0] <= minute * 60 + 0.5][-1] if minute else memory[0]
            count = max([c for t, c in arrivals if t - began <= at] or [0])
            printed = sum(1 for t, _ in arrivals if (minute - 1) * 60 < t - began <= minute * 60) if minute else 0
            print("%d | %d | %d | %.1f" % (minute, count, printed, value / 1024))
        if latencies:
            print("minutes | messages recorded | latency median | p90 | worst (s)")
            for tens in range(int(max(recorded) // 600) + 1):
                these = [v for v, t in zip(latencies, recorded) if tens * 600 <= t < (tens + 1) * 600]
                if these:
                    print("%d-%d | %d | %.3f | %.3f | %.3f" % (
                        10 * tens, 10 * (tens + 1), len(these), percentile(these, 0.5), percentile(these, 0.9),
                        max(these)))
    if lateness and len(gaps):
        print("a message's ends as recorded, apart (what the horizon must cover; %d messages): median %.6f s, "
              "p99 %.6f s, worst %.6f s" % (len(gaps), percentile(gaps, 0.5), percentile(gaps, 0.99), max(gaps)))
        to_true = {}
        for host, entry in zip(hosts.hosts, truth["hosts"]):
            at_zero, slope = int(entry["clock"][0][1]), fractions.Fraction(entry["clock"][0][2])
            to_true[host.name] = lambda local, a=at_zero, r=slope: float((local - a) / r)
        ages = {name: [] for name in to_true}
        spreads = []
        for at, lasts in newest:
            if len(lasts) != len(to_true):
                continue  # a host not followed yet
            age = {name: (at - to_true[name](last)) / 1e9 for name, last in lasts.items()}
            for name, value in age.items():
                ages[name].append(value)
            spreads.append(max(age.values()) - min(age.values()))
        for name, values in sorted(ages.items()):
            if values:
                print("age of %s's newest event at a result (%d results): median %.3f s, p99 %.3f s, worst %.3f s" % (
                    name, len(values), percentile(values, 0.5), percentile(values, 0.99), max(values)))
        if spreads:
            print("one host's newest event behind another's at a result: median %.3f s, p99 %.3f s, worst %.3f s" % (
                percentile(spreads, 0.5), percentile(spreads, 0.99), max(spreads)))
    if latencies:
        print("latency, message recorded -> first result including it (%d messages): median %.3f s, p90 %.3f s, "
              "worst %.3f s" % (len(latencies), percentile(latencies, 0.5), percentile(latencies, 0.9),
                                max(latencies)))
    if memory:
        quarters = [memory[min(len(memory) - 1, q * len(memory) // 4)] for q in range(5)]
        print("resident memory of tracesync live (MiB) at 0, 1/4, 1/2, 3/4 and the end of the run: %s; peak %.1f" % (
            " ".join("%.1f (%.0f s)" % (v / 1024, at) for at, v in quarters), max(v for _, v in memory) / 1024))
    return 0


if __name__ == "__main__":
    sys.exit(main())
