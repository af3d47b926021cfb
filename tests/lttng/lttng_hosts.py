# SPDX-License-Identifier: EPL-2.0
"""Real LTTng "hosts" on one machine, for the end-to-end tests.

Each host is a private mount + UTS namespace (`unshare --mount --uts`) with
its own tmpfs on /var/run/lttng and /dev/shm, its own hostname, HOME and
LTTNG_HOME, and its own `lttng-sessiond --no-kernel`. It records the user
space events of the test program `tsapp` (tsapp:msg_send, tsapp:msg_recv)
into a trace folder or to an lttng-relayd (live), then runs tsapp, which
exchanges TCP messages with the other hosts: over 127.0.0.1, or, given a
VethStar, from a network namespace of its own across veth links (the
sessiond stays on the machine's loopback, where the relay listens).

A host may run on an exact function of CLOCK_MONOTONIC through the clock
plugin (clock_plugin.c): c(m) = m * (1 + drift_ppb / 1e9) + offset_ns. A
trace's time from origin is its clock plus the CTF clock offset the sessiond
wrote in its metadata, so the truth between hosts follows exactly
(truth_json).

Everything started here is stopped by its PID, at the latest when the
Hosts object is closed (it is a context manager), and every wait is bounded.

Runs under Debian's /usr/bin/python3, standard library only.
"""

import contextlib
import fractions
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import time

# What a host runs inside its namespace: $1.. is the traced program's command.
HOST_SCRIPT = r'''
set -u
sessiond=""
app=""
stop() {
  [ -n "$app" ] && kill "$app" 2>/dev/null
  if [ -n "$sessiond" ]; then
    lttng destroy -a >/dev/null 2>&1
    kill "$sessiond" 2>/dev/null
    wait "$sessiond" 2>/dev/null
  fi
}
trap stop EXIT
trap 'exit 143' TERM INT
mkdir -p /var/run/lttng "$HOST_DIR/home"
mount -t tmpfs tmpfs /var/run/lttng || exit 10
mount -t tmpfs tmpfs /dev/shm || exit 10
hostname "$HOST_NAME" || exit 10
export HOME="$HOST_DIR/home" LTTNG_HOME="$HOST_DIR/home"
ready=0
trap 'ready=1' USR1
lttng-sessiond --no-kernel --sig-parent >"$HOST_DIR/sessiond.log" 2>&1 &
sessiond=$!
for i in $(seq 200); do [ "$ready" = 1 ] && break; sleep 0.05; done
[ "$ready" = 1 ] || { echo "sessiond did not start" >&2; exit 11; }
echo "$sessiond" >"$HOST_DIR/sessiond.pid"
if [ -n "${RELAY_URL:-}" ]; then
  lttng create "$SESSION" --live="${LIVE_TIMER_US:-100000}" --set-url="$RELAY_URL" >/dev/null || exit 12
else
  lttng create "$SESSION" --output="$HOST_DIR/trace" >/dev/null || exit 12
fi
if [ -n "${SWITCH_TIMER_US:-}" ]; then
  # A folder followed while it is written: packets reach the disk at least
  # this often (tracesync live DIR reads only complete packets).
  lttng enable-channel -u --switch-timer="$SWITCH_TIMER_US" metadata >/dev/null || exit 12
  lttng enable-channel -u --switch-timer="$SWITCH_TIMER_US" c >/dev/null || exit 12
  lttng enable-event -u -c c "${EVENTS:-tsapp:*}" >/dev/null || exit 12
  if [ -n "${ROTATION_US:-}" ]; then
    # Trace chunks: each rotation opens a packet in every stream, so a quiet
    # CPU's stream still tells how far the recording went.
    lttng enable-rotation --timer="${ROTATION_US}us" >/dev/null || exit 12
  fi
else
  lttng enable-event -u "${EVENTS:-tsapp:*}" >/dev/null || exit 12
fi
lttng start >/dev/null || exit 12
: >"$HOST_DIR/ready"
for i in $(seq $((GO_TIMEOUT_S * 20))); do [ -e "$HOST_DIR/go" ] && break; sleep 0.05; done
[ -e "$HOST_DIR/go" ] || { echo "never told to go" >&2; exit 13; }
# With NETNS, the traced program runs in that network namespace (its
# sessiond, reached through /var/run/lttng and /dev/shm, stays here).
${NETNS:+nsenter --net="$NETNS"} "$@" >"$HOST_DIR/app.log" 2>&1 &
app=$!
wait "$app"
status=$?
app=""
lttng stop >/dev/null
lttng destroy >/dev/null
exit $status
'''


def free_ports(count):
    """Loopback TCP ports free now (the kernel's choice)."""
    sockets = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def what_is_missing():
    """Why the LTTng tests cannot run here, or None."""
    if os.geteuid() != 0:
        return "needs root (private mount namespaces and tmpfs mounts)"
    for program in ("lttng", "lttng-sessiond", "lttng-relayd", "unshare", "babeltrace2"):
        if shutil.which(program) is None:
            return program + " is not installed (apt-get install lttng-tools babeltrace2)"
    probe = subprocess.run(["unshare", "--mount", "--uts", "true"], capture_output=True, timeout=10)
    if probe.returncode != 0:
        return "cannot make a mount and UTS namespace: " + probe.stderr.decode(errors="replace").strip()
    return None


class Clock:
    """A plugin clock: c(m) = m + floor(m * drift_ppb / 1e9) + offset_ns."""

    def __init__(self, offset_ns, drift_ppb, uuid):
        self.offset_ns = offset_ns
        self.drift_ppb = drift_ppb
        self.uuid = uuid

    def environment(self, plugin):
        return {"LTTNG_UST_CLOCK_PLUGIN": str(plugin), "TSAPP_CLOCK_OFFSET_NS": str(self.offset_ns),
                "TSAPP_CLOCK_DRIFT_PPB": str(self.drift_ppb), "TSAPP_CLOCK_UUID": self.uuid}


class VethStar:
    """Network namespaces joined by veth links, a star without a bridge: the
    hub's namespace holds one end of a veth pair per spoke, the spoke's
    namespace the other; spoke k (from 1) is 10.29.k.2/24 and reaches the
    hub at 10.29.k.1. A host's traced program runs in its namespace
    (Hosts(network=...)), so its messages cross a real virtual link.

    A context manager: the namespaces (and with them the links) are removed
    on leaving it, whatever happened; each `ip` call is bounded in time."""

    def __init__(self, hub, spokes):
        self.hub = hub
        self.spokes = list(spokes)
        self.tag = "ts%d" % os.getpid()  # names of ours, unique on the machine
        self.created = []

    def unavailable(self):
        """Why veth links cannot be made here, or None (tried for real)."""
        if shutil.which("ip") is None or shutil.which("nsenter") is None:
            return "ip (iproute2) or nsenter (util-linux) is not installed"
        probe = self.tag + "p"
        try:
            self._ip("netns", "add", probe)
            self._ip("-n", probe, "link", "add", probe + "a", "type", "veth", "peer", "name", probe + "b")
        except RuntimeError as error:
            return str(error)
        finally:
            subprocess.run(["ip", "netns", "del", probe], capture_output=True, timeout=10)
        return None

    def __enter__(self):
        try:
            for name in [self.hub] + self.spokes:
                self._ip("netns", "add", self.namespace(name))
                self.created.append(self.namespace(name))
                self._ip("-n", self.namespace(name), "link", "set", "lo", "up")
            for k, spoke in enumerate(self.spokes, 1):
                hub_end, spoke_end = "%sh%d" % (self.tag, k), "%ss%d" % (self.tag, k)
                self._ip("link", "add", hub_end, "netns", self.namespace(self.hub), "type", "veth", "peer", "name",
                         spoke_end, "netns", self.namespace(spoke))
                for name, end, address in ((self.hub, hub_end, "10.29.%d.1/24" % k),
                                           (spoke, spoke_end, "10.29.%d.2/24" % k)):
                    self._ip("-n", self.namespace(name), "addr", "add", address, "dev", end)
                    self._ip("-n", self.namespace(name), "link", "set", end, "up")
        except BaseException:
            self.remove()
            raise
        return self

    def __exit__(self, *exc):
        self.remove()

    def remove(self):
        """Removes our namespaces; a veth pair goes with its namespace."""
        for namespace in reversed(self.created):
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True, timeout=10)
        self.created = []

    def namespace(self, name):
        return "%s-%s" % (self.tag, name)

    def namespace_path(self, name):
        return "/run/netns/" + self.namespace(name)

    def hub_endpoint(self, spoke, port):
        """Where `spoke` reaches the hub's port: ADDRESS:PORT."""
        return "10.29.%d.1:%d" % (self.spokes.index(spoke) + 1, port)

    def packets(self, spoke):
        """Packets the spoke's veth end sent and received so far."""
        end = "%ss%d" % (self.tag, self.spokes.index(spoke) + 1)
        out = self._ip("-n", self.namespace(spoke), "-j", "-s", "link", "show", "dev", end)
        stats = json.loads(out)[0]["stats64"]
        return stats["tx"]["packets"], stats["rx"]["packets"]

    @staticmethod
    def _ip(*arguments):
        done = subprocess.run(["ip"] + list(arguments), capture_output=True, timeout=10)
        if done.returncode != 0:
            raise RuntimeError("ip %s: %s" % (" ".join(arguments), done.stderr.decode(errors="replace").strip()))
        return done.stdout.decode(errors="replace")


class Host:
    def __init__(self, name, directory, clock, command):
        self.name = name
        self.directory = directory
        self.clock = clock
        self.command = command
        self.process = None


class Relay:
    """An lttng-relayd on free loopback ports, writing under `directory`."""

    def __init__(self, directory):
        self.directory = pathlib.Path(directory)
        self.control, self.data, self.live = free_ports(3)
        self.output = self.directory / "relay-output"
        self.process = None

    def start(self):
        home = self.directory / "relay-home"
        home.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, HOME=str(home), LTTNG_HOME=str(home))
        log = open(self.directory / "relayd.log", "wb")
        self.process = subprocess.Popen(
            ["lttng-relayd", "-C", "tcp://127.0.0.1:%d" % self.control, "-D", "tcp://127.0.0.1:%d" % self.data,
             "-L", "tcp://127.0.0.1:%d" % self.live, "-o", str(self.output)],
            env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("lttng-relayd ended at once; see " + str(self.directory / "relayd.log"))
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.live), timeout=1):
                return
            time.sleep(0.05)
        raise RuntimeError("lttng-relayd did not listen within 10 s")

    def session_url(self):
        return "net://127.0.0.1:%d:%d" % (self.control, self.data)

    def live_url(self, hostname, session):
        return "net://127.0.0.1:%d/host/%s/%s" % (self.live, hostname, session)

    def viewers(self, url):
        """How many viewers the relay says follow the session `url` (0 when
        it does not list it)."""
        out = subprocess.run(["babeltrace2", "-i", "lttng-live", "net://127.0.0.1:%d" % self.live],
                             capture_output=True, timeout=30).stdout.decode(errors="replace")
        for line in out.splitlines():
            if line.startswith(url + " ") and " client(s) connected" in line:
                return int(line.split("stream(s), ")[1].split(" client")[0])
        return 0

    def wait_for_viewers(self, urls, timeout, viewer=None):
        """Until every session of `urls` has its viewer (the relay sends a
        viewer only what is recorded after it attached)."""
        deadline = time.monotonic() + timeout
        while not all(self.viewers(url) == 1 for url in urls):
            if time.monotonic() > deadline or (viewer is not None and viewer.poll() is not None):
                raise RuntimeError("no viewer attached to every session of %s" % urls)
            time.sleep(0.2)

    def stop(self):
        stop_process(self.process)


def stop_process(process, grace=5):
    """Stops a process we started (and its process group) by its PID."""
    if process is None or process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(5)


class Hosts:
    """Namespace hosts recording tsapp, to folders or to a relay."""

    def __init__(self, work, tsapp, plugin, session="s", relay=None, go_timeout_s=60, switch_timer_us=None,
                 tick_ms=None, events="tsapp:*", rotation_us=None, pin_cpu=None, network=None):
        self.work = pathlib.Path(work)
        # A VethStar: each host whose name it knows runs its traced program
        # in its network namespace.
        self.network = network
        self.events = events  # the user-space events each host records
        # Recording to folders that are followed while written: packets
        # reach the disk at least every switch_timer_us (when not empty), and
        # tsapp records a tick on every CPU every tick_ms, so that no per-CPU
        # stream stays without packets.
        self.switch_timer_us = switch_timer_us
        self.tick_ms = tick_ms
        # With switch_timer_us: the session rotates its trace chunks this
        # often (lttng enable-rotation --timer), into archives/.
        self.rotation_us = rotation_us
        # Every traced program runs on this CPU only (taskset): the other
        # CPUs' streams stay quiet.
        self.pin_cpu = pin_cpu
        self.tsapp = str(tsapp)
        self.plugin = str(plugin)
        self.session = session
        self.relay = relay
        self.go_timeout_s = go_timeout_s
        self.hosts = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def add(self, name, command, clock=None, program=None):
        """A host running `command` (the arguments of tsapp, or of `program`)
        once told to go."""
        directory = self.work / name
        directory.mkdir(parents=True, exist_ok=True)
        pinned = ["taskset", "-c", str(self.pin_cpu)] if self.pin_cpu is not None else []
        host = Host(name, directory, clock, pinned + [str(program or self.tsapp)] + [str(c) for c in command])
        self.hosts.append(host)
        return host

    def start(self, timeout=30):
        """Starts every host's sessiond and session; returns once all record."""
        for host in self.hosts:
            env = dict(os.environ, HOST_DIR=str(host.directory), HOST_NAME=host.name, SESSION=self.session,
                       GO_TIMEOUT_S=str(self.go_timeout_s), EVENTS=self.events)
            env.pop("LTTNG_UST_CLOCK_PLUGIN", None)
            if self.relay is not None:
                env["RELAY_URL"] = self.relay.session_url()
            if self.switch_timer_us is not None:
                env["SWITCH_TIMER_US"] = str(self.switch_timer_us)
            if self.tick_ms is not None:
                env["TSAPP_TICK_MS"] = str(self.tick_ms)
            if self.rotation_us is not None:
                env["ROTATION_US"] = str(self.rotation_us)
            if self.network is not None and host.name in [self.network.hub] + self.network.spokes:
                env["NETNS"] = self.network.namespace_path(host.name)
            if host.clock is not None:
                env.update(host.clock.environment(self.plugin))
            log = open(host.directory / "host.log", "wb")
            host.process = subprocess.Popen(
                ["unshare", "--mount", "--uts", "--propagation", "private", "bash", "-c", HOST_SCRIPT, "host"]
                + host.command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            log.close()
        deadline = time.monotonic() + timeout
        for host in self.hosts:
            while not (host.directory / "ready").exists():
                if host.process.poll() is not None:
                    raise RuntimeError("host %s ended (%d) before recording: %s" % (
                        host.name, host.process.returncode, (host.directory / "host.log").read_text(errors="replace")))
                if time.monotonic() > deadline:
                    raise RuntimeError("host %s did not start recording within %d s" % (host.name, timeout))
                time.sleep(0.05)

    def go(self, names=None):
        """Tells hosts (all by default) to run their programs, in order."""
        for host in self.hosts:
            if names is None or host.name in names:
                (host.directory / "go").touch()

    def wait(self, timeout):
        """Waits for every host to finish; raises when one failed."""
        deadline = time.monotonic() + timeout
        for host in self.hosts:
            try:
                host.process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                raise RuntimeError("host %s did not finish within %d s" % (host.name, timeout))
            if host.process.returncode != 0:
                raise RuntimeError("host %s failed (%d): %s %s" % (
                    host.name, host.process.returncode, (host.directory / "host.log").read_text(errors="replace"),
                    (host.directory / "app.log").read_text(errors="replace")
                    if (host.directory / "app.log").exists() else ""))

    def close(self):
        for host in self.hosts:
            stop_process(host.process)

    def trace_dir(self, host):
        """Where a host's UST trace (the one holding its metadata) is (its
        first trace chunk's, when the session rotates)."""
        return self.trace_dirs(host)[0]

    def trace_dirs(self, host):
        """A host's UST trace directories: one, or one a trace chunk in
        chunk order when the session rotates (archives/BEGIN-END-N/...)."""
        if self.rotation_us is not None and self.relay is None:
            found = [p.parent for p in (host.directory / "trace" / "archives").rglob("metadata")]
            number = lambda path: int(path.relative_to(host.directory / "trace" / "archives").parts[0].rsplit("-", 1)[1])
            if not found:
                raise RuntimeError("no archived trace chunk of host %s" % host.name)
            return sorted(found, key=number)
        if self.relay is not None:
            roots = list((self.relay.output / host.name).glob(self.session + "*"))
        else:
            roots = [host.directory / "trace"]
        found = [p.parent for root in roots for p in root.rglob("metadata")]
        if len(found) != 1:
            raise RuntimeError("expected one trace of host %s, found %s" % (host.name, found))
        return found


CLOCK_BLOCK = re.compile(r"clock\s*\{(.*?)\};", re.S)


def read_clock(trace_dir):
    """The clock of a trace's metadata: uuid, offset_s, offset, freq.

    LTTng writes it packetized; babeltrace2 gives its text."""
    text = subprocess.run(["babeltrace2", "-o", "ctf-metadata", str(trace_dir)], capture_output=True, check=True,
                          timeout=60).stdout.decode("utf-8", errors="replace")
    block = CLOCK_BLOCK.search(text)
    if block is None:
        raise RuntimeError("no clock block in %s/metadata" % trace_dir)
    fields = dict(re.findall(r"(\w+)\s*=\s*\"?([^\";]*)\"?\s*;", block.group(1)))
    return {"uuid": fields["uuid"], "offset_s": int(fields.get("offset_s", "0")),
            "offset": int(fields.get("offset", "0")), "freq": int(fields.get("freq", "1000000000"))}


def truth_json(hosts, start_ns, end_ns):
    """tracesync's truth file (tracesync-truth/2, `tracesync check-truth`).

    True time is CLOCK_MONOTONIC m, in ns. A host without a plugin reads
    m + O (O its metadata's clock offset); a plugin host reads
    m * (1 + drift) + K + O. Both at 1 GHz, as the plugin and lttng-ust's
    default clock count."""
    entries = []
    for host in hosts.hosts:
        clock = read_clock(hosts.trace_dir(host))
        if clock["freq"] != 1000000000:
            raise RuntimeError("host %s: clock at %d Hz, expected 1 GHz" % (host.name, clock["freq"]))
        origin = clock["offset_s"] * 1000000000 + clock["offset"]
        slope = fractions.Fraction(1)
        local_at_zero = origin
        if host.clock is not None:
            slope += fractions.Fraction(host.clock.drift_ppb, 1000000000)
            local_at_zero += host.clock.offset_ns
        entries.append({"index": len(entries), "name": host.name, "domain": clock["uuid"],
                        "clock": [[0, str(local_at_zero), decimal_text(slope)]]})
    return {"format": "tracesync-truth/2", "start_ns": start_ns, "end_ns": end_ns, "hosts": entries}


def decimal_text(value):
    """An exact decimal for a fraction whose denominator divides 10**9."""
    scaled = value * 1000000000
    if scaled.denominator != 1:
        raise ValueError("not a multiple of 1e-9")
    whole, part = divmod(scaled.numerator, 1000000000)
    return "%d.%09d" % (whole, part)


def monotonic_ns():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def write_json(path, value):
    pathlib.Path(path).write_text(json.dumps(value, indent=1))


# ---- After the fact: what the sync tests share (lttng_ust_sync, lttng_probe_sync).

def fresh_work_dir(work):
    """Why the test cannot run here (then skip, exit 77), or None once `work`
    is an empty directory."""
    missing = what_is_missing()
    if missing:
        return missing
    shutil.rmtree(work, ignore_errors=True)
    pathlib.Path(work).mkdir(parents=True)
    return None


def sync_report(tracesync, options, traces, work, failures):
    """`tracesync sync --format json OPTIONS TRACES`, its report kept in
    WORK/sync.json: the report, or None (and a failure) when it failed."""
    sync = subprocess.run([tracesync, "sync", "--format", "json"] + options + traces,
                          capture_output=True, timeout=300)
    (pathlib.Path(work) / "sync.json").write_bytes(sync.stdout)
    if sync.returncode != 0:
        failures.append("tracesync sync exited %d: %s" % (sync.returncode, sync.stderr.decode(errors="replace")))
        return None
    report = json.loads(sync.stdout)
    print("%d messages matched; links: %s" % (report["messages"], [
        (l["a_hostname"], l["b_hostname"], l["quality"], l["messages"]) for l in report["links"]]))
    return report


def check_truth(tracesync, work, failures):
    """`tracesync check-truth` of WORK/sync.json against WORK/truth.json: a
    failure unless the truth lies inside every bound at some instants."""
    check = subprocess.run([tracesync, "check-truth", "--format", "json", str(pathlib.Path(work) / "sync.json"),
                            str(pathlib.Path(work) / "truth.json")], capture_output=True, timeout=120)
    verdict = json.loads(check.stdout) if check.stdout else {}
    print(json.dumps(verdict, indent=1))
    instants = sum(t.get("instants", 0) for t in verdict.get("traces", []))
    if check.returncode != 0 or instants == 0:
        failures.append("check-truth exited %d: the truth is outside a bound, or nothing was checked: %s" % (
            check.returncode, check.stderr.decode(errors="replace")))


def verdict_of(failures):
    """Each failure printed; the test's exit code."""
    for failure in failures:
        print("FAIL: " + failure)
    return 1 if failures else 0
