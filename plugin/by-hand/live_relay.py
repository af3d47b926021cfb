#!/usr/bin/python3
# SPDX-License-Identifier: EPL-2.0
"""Two LTTng hosts streaming live to a private lttng-relayd, for following
them by hand in Trace Compass (Follow Live Sessions) or with `tracesync live`.

The hosts are those of the end-to-end tests (tests/lttng/lttng_hosts.py):
each a private mount + UTS namespace with its own lttng-sessiond, recording
tsapp's user-space events to a relay on free loopback ports. alpha serves;
beta, on the test clock plugin (+40 ppm, 2.5 s ahead of CLOCK_MONOTONIC),
sends it RATE messages a second for SECONDS, and alpha answers each one.

It prints the relay's live URLs and writes them to WORK/urls.txt, waits (up
to --attach-timeout) until a viewer follows each session, since the relay
sends a viewer only what is recorded after it attached, then lets the hosts
send. Afterwards it writes WORK/truth.json and WORK/sync.json (`tracesync
sync` on the relay's files) and checks the truth against sync's bounds.
Everything it starts is stopped by PID, failing or not; run it under
`timeout` all the same.

usage: live_relay.py TRACESYNC TSAPP CLOCK_PLUGIN WORK [--seconds S] [--rate R] [--attach-timeout S]
  (as root; TSAPP and CLOCK_PLUGIN from a CMake build: build/bin/tsapp, build/lib/tsapp_clock.so)
"""

import argparse
import pathlib
import shutil
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tests" / "lttng"))
import lttng_hosts as lh  # noqa: E402

MESSAGES = "send=tsapp:msg_send,recv=tsapp:msg_recv,key=msg_id"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tracesync")
    parser.add_argument("tsapp")
    parser.add_argument("clock_plugin")
    parser.add_argument("work", type=pathlib.Path)
    parser.add_argument("--seconds", type=int, default=180, help="how long beta sends (default 180)")
    parser.add_argument("--rate", type=int, default=100, help="beta's messages a second (default 100)")
    parser.add_argument("--attach-timeout", type=int, default=600,
                        help="how long to wait for a viewer on each session (default 600 s)")
    args = parser.parse_args()
    missing = lh.what_is_missing()
    if missing:
        print("cannot run here: " + missing, file=sys.stderr)
        return 77
    shutil.rmtree(args.work, ignore_errors=True)
    args.work.mkdir(parents=True)
    (args.work / "messages.txt").write_text(MESSAGES + "\n")
    relay = lh.Relay(args.work)
    try:
        relay.start()
        port = lh.free_ports(1)[0]
        with lh.Hosts(args.work, args.tsapp, args.clock_plugin, relay=relay,
                      go_timeout_s=args.attach_timeout + 30) as hosts:
            hosts.add("alpha", ["serve", port, 1, 1, args.seconds + 60])
            hosts.add("beta", ["connect", port, 2, args.rate, args.seconds * 1000],
                      clock=lh.Clock(2_500_000_000, 40_000, "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"))
            start = lh.monotonic_ns()
            hosts.start()
            urls = [relay.live_url(h.name, hosts.session) for h in hosts.hosts]
            (args.work / "urls.txt").write_text(" ".join(urls) + "\n")
            print("live URLs (also in %s): %s" % (args.work / "urls.txt", " ".join(urls)), flush=True)
            print("messages spec (-Dtracesync.messagesFile=%s): %s" % (args.work / "messages.txt", MESSAGES),
                  flush=True)
            print("waiting up to %d s for a viewer on each session" % args.attach_timeout, flush=True)
            relay.wait_for_viewers(urls, args.attach_timeout)
            print("followed; the hosts send for %d s" % args.seconds, flush=True)
            hosts.go()
            hosts.wait(args.seconds + 120)
            print("the hosts ended: " + "; ".join(
                (h.directory / "app.log").read_text(errors="replace").strip() for h in hosts.hosts), flush=True)
            lh.write_json(args.work / "truth.json", lh.truth_json(hosts, start, lh.monotonic_ns()))
    finally:
        relay.stop()
    sync = subprocess.run([args.tracesync, "sync", "--format", "json", "--messages", MESSAGES, str(relay.output)],
                          capture_output=True, timeout=300)
    (args.work / "sync.json").write_bytes(sync.stdout)
    if sync.returncode != 0:
        print("tracesync sync exited %d: %s" % (sync.returncode, sync.stderr.decode(errors="replace")),
              file=sys.stderr)
        return 1
    check = subprocess.run([args.tracesync, "check-truth", str(args.work / "sync.json"),
                            str(args.work / "truth.json")], capture_output=True, timeout=120)
    print("sync of the relay's files in %s; check-truth exited %d:\n%s%s" % (
        args.work / "sync.json", check.returncode, check.stdout.decode(errors="replace"),
        check.stderr.decode(errors="replace")), flush=True)
    return 0 if check.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
