# SPDX-License-Identifier: EPL-2.0
"""`tracesync live` when sessions come, go and fail, on real LTTng hosts.

  - no relay at the URL: the session is reported lost (stderr and the
    result's problems), exit 3, a result is still printed;
  - a host that joins late (--wait): tracesync waits for its session, then
    follows it and reads every event the host recorded;
  - the relay goes away while a session is followed: reported, exit 3, the
    last result printed, no crash;
  - Ctrl-C while following: the last result printed (not complete, with a
    problem saying so), exit 130; with two CPUs, after the session's
    reading process was killed and the program moved off the CPU it ran
    on: that CPU's stream, served nothing since, is named (stderr and the
    result's problems);
  - the session's reading process killed (SIGKILL) mid-session: the session
    is attached again in a new one, the final result holds events from both
    sides of the cut, and what the relay no longer served is named as a gap
    (stderr and the result's problems, exit 3), or, when none is named,
    every event the host recorded is counted (exit 0).
Exit 77 (skipped) says why when LTTng cannot run here.

usage: live_lifecycle_test.py TRACESYNC TSAPP CLOCK_PLUGIN WORK_DIR
"""

import contextlib
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import time

import lttng_hosts as lh

failures = []


def expect(condition, what):
    print(("ok: " if condition else "FAIL: ") + what)
    if not condition:
        failures.append(what)


def results(stdout):
    return [json.loads(line) for line in stdout.decode().splitlines() if line.strip()]


def wait_for(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise RuntimeError("timed out waiting for " + what)
        time.sleep(0.1)


@contextlib.contextmanager
def relay_and_followers(work):
    """A started relay, and a list of the `tracesync live` processes a case
    starts (follow): all stopped by PID at the end, whatever happened."""
    relay = lh.Relay(work)
    followers = []
    try:
        relay.start()
        yield relay, followers
    finally:
        for live in followers:
            lh.stop_process(live)
        relay.stop()


def follow(followers, command, log):
    """`tracesync live` started in a session of its own, its stdout piped,
    its stderr to LOG; stopped by relay_and_followers."""
    live = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, start_new_session=True)
    followers.append(live)
    return live


def no_relay(tracesync):
    port = lh.free_ports(1)[0]
    url = "net://127.0.0.1:%d/host/nobody/s" % port
    done = subprocess.run([tracesync, "live", url], capture_output=True, timeout=60)
    err = done.stderr.decode()
    expect(done.returncode == 3, "no relay: exit 3 (got %d)" % done.returncode)
    expect("lost " + url in err and "Connection refused" in err, "no relay: stderr names the URL and why: " + err)
    printed = results(done.stdout)
    expect(len(printed) == 1 and printed[0]["problems"] and printed[0]["problems"][0]["source"] == url,
           "no relay: one result, whose problem names the URL")


def late_join(tracesync, tsapp, plugin, work):
    with relay_and_followers(work) as (relay, followers):
        port = lh.free_ports(1)[0]
        url = relay.live_url("late", "s")
        log = open(work / "late.err", "wb")
        live = follow(followers, [tracesync, "live", "--wait", "60s", "--interval", "200ms", url], log)
        time.sleep(1.5)  # tracesync looks for the session before the host has it
        with lh.Hosts(work, tsapp, plugin, relay=relay) as hosts:
            hosts.add("late", ["connect", port, 1, 50, 1000])
            hosts.add("server", ["serve", port, 1, 1, 60])
            hosts.start()
            relay.wait_for_viewers([url], 30, live)
            hosts.go()
            hosts.wait(60)
            out, _ = live.communicate(timeout=60)  # it ends when the session does
            # "tsapp connect: N messages sent, M received"
            words = (hosts.hosts[0].directory / "app.log").read_text().split()
            recorded = int(words[2]) + int(words[5])
        err = (work / "late.err").read_text()
        print(err)
        expect("waiting for " + url in err, "late join: stderr says tracesync waits for the session")
        expect("following " + url in err and "ended " + url in err, "late join: then follows it until it ends")
        printed = results(out)
        expect(bool(printed) and printed[-1]["complete"], "late join: a complete final result")
        if printed:
            # tracesync followed before the host sent: it read every event.
            late = [t for t in printed[-1]["traces"] if t["name"] == "late/s"]
            expect(len(late) == 1 and late[0]["events"] == recorded,
                   "late join: the final result counts the %d events the host recorded (%s)" % (recorded, late))
        expect(live.returncode == 0, "late join: exit 0 (got %d)" % live.returncode)


def relay_killed_while_following(tracesync, tsapp, plugin, work):
    with relay_and_followers(work) as (relay, followers):
        port = lh.free_ports(1)[0]
        with lh.Hosts(work, tsapp, plugin, relay=relay) as hosts:
            hosts.add("client", ["connect", port, 1, 50, 20000])
            hosts.add("server", ["serve", port, 1, 1, 60])
            hosts.start()
            url = relay.live_url("client", "s")
            log = open(work / "killed.err", "wb")
            live = follow(followers, [tracesync, "live", "--interval", "200ms", url], log)
            relay.wait_for_viewers([url], 30, live)
            hosts.go()
            wait_for(lambda: b"following " + url.encode() in (work / "killed.err").read_bytes(), 30,
                     "tracesync to follow the session")
            time.sleep(1)
            relay.process.kill()  # the relay goes away mid-session
            out, _ = live.communicate(timeout=60)
        err = (work / "killed.err").read_text()
        print(err)
        expect(live.returncode == 3, "relay killed: exit 3 (got %d)" % live.returncode)
        expect("lost " + url in err, "relay killed: stderr says the session was lost")
        printed = results(out)
        expect(bool(printed) and any(p["source"] == url for p in printed[-1]["problems"]),
               "relay killed: the last result holds the problem")
        expect(bool(printed) and printed[-1]["traces"] and printed[-1]["traces"][0]["events"] > 0,
               "relay killed: what was read before stands")


def reading_processes(pid):
    """The `tracesync read-trace` processes among PID's children."""
    found = []
    for task in pathlib.Path("/proc/%d/task" % pid).glob("*/children"):
        for child in task.read_text().split():
            try:
                if b"read-trace" in pathlib.Path("/proc/%s/cmdline" % child).read_bytes():
                    found.append(int(child))
            except OSError:
                pass
    return found


def reading_process_killed(tracesync, tsapp, plugin, work):
    with relay_and_followers(work) as (relay, followers):
        port = lh.free_ports(1)[0]
        url = relay.live_url("client", "s")
        log = open(work / "reader-killed.err", "wb")
        with lh.Hosts(work, tsapp, plugin, relay=relay) as hosts:
            hosts.add("client", ["connect", port, 1, 200, 6000])
            hosts.add("server", ["serve", port, 1, 1, 60])
            hosts.start()
            live = follow(followers, [tracesync, "live", "--interval", "200ms", url], log)
            relay.wait_for_viewers([url], 30, live)
            hosts.go()
            wait_for(lambda: b"following " + url.encode() in (work / "reader-killed.err").read_bytes(), 30,
                     "tracesync to follow the session")
            time.sleep(2)
            killed = reading_processes(live.pid)
            for pid in killed:
                os.kill(pid, signal.SIGKILL)  # as the out-of-memory killer would
            hosts.wait(60)
            out, _ = live.communicate(timeout=60)  # it ends when the session does
            words = (hosts.hosts[0].directory / "app.log").read_text().split()
            recorded = int(words[2]) + int(words[5])
        err = (work / "reader-killed.err").read_text()
        print(err)
        expect(len(killed) == 1, "reader killed: one reading process to kill (%s)" % killed)
        expect("resumed " + url + ": the reading process was killed (SIGKILL" in err and "attached again" in err,
               "reader killed: stderr says the session was attached again")
        expect("lost " + url not in err, "reader killed: the session is not lost")
        printed = results(out)
        gaps = [p for p in printed[-1]["problems"] if p["source"] == url and "stream " in p["message"]] if printed else []
        expect(("gap in " + url in err) == bool(gaps), "reader killed: a gap on stderr is in the result's problems")
        expect(bool(printed) and printed[-1]["complete"] == (not gaps),
               "reader killed: the final result is complete unless a gap was named")
        final = [t for t in printed[-1]["traces"] if t["name"] == "client/s"] if printed else []
        # "... in a new reading process after the N events read, ...": what the first process read.
        said = re.search(r"attached again to the relay in a new reading process after the (\d+) events read", err)
        cut = int(said.group(1)) if said else 0
        expect(len(final) == 1 and 0 < cut < final[0]["events"] <= recorded,
               "reader killed: the final result holds events from both sides of the cut (%d read before it, %d in "
               "all, %d recorded)" % (cut, final[0]["events"] if final else -1, recorded))
        if gaps:
            print("named: " + "; ".join(p["message"] for p in gaps))
            expect(live.returncode == 3, "reader killed, a gap named: exit 3 (got %d)" % live.returncode)
        else:
            expect(final and final[0]["events"] == recorded,
                   "reader killed, no gap named: every recorded event read once (%d of %d)" %
                   (final[0]["events"] if final else -1, recorded))
            expect(live.returncode == 0, "reader killed, no gap: exit 0 (got %d)" % live.returncode)


def programs_of(pid, name):
    """PID's children called NAME."""
    found = []
    for task in pathlib.Path("/proc/%d/task" % pid).glob("*/children"):
        for child in task.read_text().split():
            try:
                if pathlib.Path("/proc/%s/comm" % child).read_text().strip() == name:
                    found.append(int(child))
            except OSError:
                pass
    return found


def interrupted(tracesync, tsapp, plugin, work):
    # With two CPUs, the client's program runs on CPU 1, then on CPU 0 alone
    # from just before the session's reading process is killed: CPU 1's
    # stream, met before, is served nothing after the reattachment, and the
    # stop names it.
    moves = (os.cpu_count() or 1) >= 2
    with relay_and_followers(work) as (relay, followers):
        port = lh.free_ports(1)[0]
        with lh.Hosts(work, tsapp, plugin, relay=relay, pin_cpu=1 if moves else None) as hosts:
            hosts.add("client", ["connect", port, 1, 50, 20000])
            hosts.add("server", ["serve", port, 1, 1, 60])
            hosts.start()
            url = relay.live_url("client", "s")
            log = open(work / "interrupted.err", "wb")
            live = follow(followers, [tracesync, "live", "--interval", "200ms", url], log)
            relay.wait_for_viewers([url], 30, live)
            hosts.go()
            wait_for(lambda: b"following " + url.encode() in (work / "interrupted.err").read_bytes(), 30,
                     "tracesync to follow the session")
            time.sleep(1)
            if moves:
                for pid in programs_of(hosts.hosts[0].process.pid, "tsapp"):
                    subprocess.run(["taskset", "-a", "-p", "-c", "0", str(pid)], check=True, capture_output=True)
                time.sleep(0.3)
                for pid in reading_processes(live.pid):
                    os.kill(pid, signal.SIGKILL)
                wait_for(lambda: b"resumed " in (work / "interrupted.err").read_bytes(), 10,
                         "the session attached again")
                time.sleep(0.5)
            live.send_signal(signal.SIGINT)
            out, _ = live.communicate(timeout=60)
        err = (work / "interrupted.err").read_text()
        print(err)
        expect(live.returncode == 130, "Ctrl-C: exit 130 (got %d)" % live.returncode)
        printed = results(out)
        expect(bool(printed) and not printed[-1]["complete"] and printed[-1]["traces"][0]["events"] > 0,
               "Ctrl-C: the last result is printed, not complete, with what was read")
        expect(bool(printed) and any("stopped before" in p["message"] for p in printed[-1]["problems"]),
               "Ctrl-C: the last result says following was stopped")
        if moves:
            unserved = [p for p in printed[-1]["problems"] if "nothing served after" in p["message"]] if printed else []
            expect(bool(unserved) and "gap in " + url + ": " + unserved[0]["message"] in err,
                   "Ctrl-C after a reattachment: the stream served nothing since is named in stderr and problems")
        else:
            print("not checked: a stream served nothing after a reattachment (one CPU)")


def main():
    tracesync, tsapp, plugin, work = sys.argv[1:5]
    work = pathlib.Path(work)
    missing = lh.what_is_missing()
    if missing:
        print("skipped: " + missing)
        return 77
    shutil.rmtree(work, ignore_errors=True)
    no_relay(tracesync)
    for case in (late_join, relay_killed_while_following, interrupted, reading_process_killed):
        directory = work / case.__name__
        directory.mkdir(parents=True)
        case(tracesync, tsapp, plugin, directory)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
