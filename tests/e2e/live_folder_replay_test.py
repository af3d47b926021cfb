# SPDX-License-Identifier: EPL-2.0
"""`tracesync live DIR...` on folders written packet by packet, no LTTng needed.

The three kernel traces of django-vote-v1 (LTTng 2.4, with index files) are
written again into empty folders the way LTTng's consumer writes them: the
metadata packet by packet, and each stream packet first half of its bytes,
then the rest, then its index entry; a stream file is created with its
first packet; packets go in the order of their end times across all
traces, a batch every 50 ms. `tracesync live` follows the three folders
from before any holds a trace (--wait). The test checks:
  - a result holding the three traces was printed while the folders were
    written, not only at the end: the writing pauses half way until one
    comes (4 s at most, within --quiet 5s);
  - the final result equals `tracesync sync` on the original traces
    (transforms, bounds, links, matching statistics);
  - a folder holding two traces, and a damaged index, are each a clear
    problem naming them, exit 3, the rest still synchronized;
  - a packet whose index entry says it begins a second before the end of
    the packet before it in its stream, written after that one was read,
    is a problem naming the stream file and the packet's byte (the order
    promised so far could not be kept), exit 3;
  - the same traces with CTF 2 metadata (LTTng 2.15's default: `tracesync
    to-ctf2`'s, in LTTng's metadata packets, fragments cut by their ends)
    over the same stream files, written again the same way without the
    pause, end in the same result as `sync` on the CTF 1.8 originals;
  - `live --simultaneous` and `live --probe-port` (issue 37), on a
    `tracesync simulate` experiment with a PPS line and probe bursts (its
    traces given LTTng index files here) written again the same way:
    results with signal pairs on the links come while the folders are
    written, the truth lies inside every bound of every result, and the
    final result equals `sync` with the same options (the pairs folded
    while recording are the pairs sync makes), probe rounds counted alike;
  - `live`'s default match horizon (1 min) on a simulated experiment with
    one host 30 s ahead and one 70 s behind, followed from finished folders:
    the messages recorded 30 s apart are matched, the ones 100 s apart are
    counted at both ends (expired or unmatched), none lost, and the final
    result is `sync --match-horizon 1min`'s;
  - a followed folder whose stream makes babeltrace2 abort is read on once,
    then lost (exit 3); the reading processes killed half way through the
    writing are each replaced by one that reads on where it stood, and the
    final result is sync's.
Exit 77 (skipped) when the shared fixtures are absent (after the simulated part).

usage: live_folder_replay_test.py TRACESYNC SHARED_DIR WORK_DIR
"""

import contextlib
import json
import os
import pathlib
import re
import shutil
import signal
import struct
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lttng"))
from live_test import LineReader, check_truth, essence  # noqa: E402

SET = "fixtures/lttng-modules-2.4-addons/django-vote-v1"



def packets(trace):
    """(end time, stream name, offset, size, index entry bytes) of every packet."""
    out = []
    for idx in sorted((trace / "index").glob("*.idx")):
        data = idx.read_bytes()
        entry_size = struct.unpack(">I", data[12:16])[0]
        for at in range(16, len(data) - entry_size + 1, entry_size):
            offset, bits, _, _, end = struct.unpack(">5Q", data[at:at + 40])
            out.append((end, idx.stem, offset, bits // 8, data[at:at + entry_size], data[:16]))
    return out


def metadata_packets(metadata):
    """The metadata file's packets (LTTng packetizes it; little-endian here)."""
    out, at = [], 0
    while at < len(metadata):
        size = struct.unpack("<I", metadata[at + 28:at + 32])[0] // 8
        out.append(metadata[at:at + size])
        at += size
    return out


def write_lttng_index(trace):
    """LTTng index files for a `tracesync simulate` kernel trace, whose
    packets have a fixed layout: header magic, uuid, stream_id,
    stream_instance_id; context packet_size, content_size, timestamp_begin,
    timestamp_end, events_discarded, packet_seq_num, cpu_id (little-endian)."""
    (trace / "index").mkdir(exist_ok=True)
    for stream in sorted(trace.glob("channel*")):
        data = stream.read_bytes()
        entries, at = [], 0
        while at < len(data):
            stream_id, instance = struct.unpack_from("<QQ", data, at + 20)
            bits, content, begin, end, discarded, seq = struct.unpack_from("<6Q", data, at + 36)
            entries.append(struct.pack(">9Q", at, bits, content, begin, end, discarded, stream_id, instance, seq))
            at += bits // 8
        (trace / "index" / (stream.name + ".idx")).write_bytes(
            struct.pack(">4I", 0xC1F1DCC1, 1, 1, 72) + b"".join(entries))


def replay(sources, targets, pause_at=None, until=None, damage=None):
    """Writes every source trace into its target folder as LTTng would;
    after `pause_at` (a share of the packets), waits until `until()` or 4 s.
    `damage(work, batch)` may change the packets to write and say where
    to pause."""
    for source, target in zip(sources, targets):
        (target / "index").mkdir(parents=True)
        text = (source / "metadata").read_bytes()
        if text.startswith(b"/* CTF"):  # plain text (simulate's): whole, at once
            (target / "metadata.tmp").write_bytes(text)
            (target / "metadata.tmp").rename(target / "metadata")
            continue
        with open(target / "metadata", "wb") as out:  # its first packet in two halves
            pieces = metadata_packets((source / "metadata").read_bytes())
            out.write(pieces[0][:len(pieces[0]) // 2])
            out.flush()
            time.sleep(0.1)
            out.write(pieces[0][len(pieces[0]) // 2:] + b"".join(pieces[1:]))
    work = sorted((p + (i,) for i, source in enumerate(sources) for p in packets(source)), key=lambda p: p[0])
    batch = max(1, len(work) // 60)  # about 3 s
    if damage is not None:
        pause_at = damage(work, batch)
    paused = False
    for start in range(0, len(work), batch):
        if pause_at is not None and not paused and start >= pause_at * len(work):
            paused = True
            deadline = time.monotonic() + 4  # within --quiet: the folders must not end meanwhile
            while not until() and time.monotonic() < deadline:
                time.sleep(0.05)
        for _, stream, offset, size, entry, header, i in work[start:start + batch]:
            with open(sources[i] / stream, "rb") as f:
                f.seek(offset)
                data = f.read(size)
            index = targets[i] / "index" / (stream + ".idx")
            with open(targets[i] / stream, "ab") as out:
                out.write(data[:size // 2])
                out.flush()
                out.write(data[size // 2:])
            with open(index, "ab") as out:
                if out.tell() == 0:
                    out.write(header)
                out.write(entry)
        time.sleep(0.05)


def packetized(text, size=4096):
    """`text` in LTTng's metadata packets (little-endian headers) of `size` bytes."""
    out, room = b"", size - 37
    for at in range(0, len(text), room):
        piece = text[at:at + room]
        header = struct.pack("<I16sIII5B", 0x75D11D57, b"\0" * 16, 0, (37 + len(piece)) * 8, size * 8, 0, 0, 0, 2, 0)
        out += header + piece + b"\0" * (room - len(piece))
    return out


def ctf2_twins(tracesync, sources, work):
    """Each source trace with CTF 2 metadata: its stream files and index linked."""
    twins = []
    for source in sources:
        twin = work / "ctf2-sources" / source.parent.parent.name / "kernel"
        twin.mkdir(parents=True)
        for entry in source.iterdir():
            if entry.name != "metadata":
                (twin / entry.name).symlink_to(entry)
        text = subprocess.run([tracesync, "to-ctf2", str(source)], capture_output=True, check=True, timeout=60).stdout
        (twin / "metadata").write_bytes(packetized(text))
        twins.append(twin)
    return twins


@contextlib.contextmanager
def following(tracesync, arguments):
    """`tracesync live --interval 100ms --wait 30s ARGUMENTS`, started for the
    block: yields the process and its stdout and stderr, each read line by
    line as it comes (LineReader). When the block ends, however it ends, the
    process is killed by its PID if it still runs, and every line it wrote
    has been read."""
    live = subprocess.Popen([tracesync, "live", "--interval", "100ms", "--wait", "30s"] + arguments,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    out, err = LineReader(live.stdout), LineReader(live.stderr)
    try:
        out.start()
        err.start()
        yield live, out, err
    finally:
        if live.poll() is None:
            live.kill()
        live.wait(10)
        out.join(10)
        err.join(10)


def follow_while_replaying(tracesync, arguments, sources, targets, awaited):
    """Starts `tracesync live` on `arguments`, writes `sources` into `targets`
    packet by packet, pausing half-way until a result satisfies `awaited`,
    and waits for live to end. Returns its exit code, its results as
    (monotonic time printed, result), its stderr, and when the writing ended."""
    with following(tracesync, arguments) as (live, out, err):
        time.sleep(0.5)  # tracesync waits for folders that hold no trace yet
        replay(sources, targets, 0.5, lambda: any(awaited(json.loads(line)) for _, line in out.lines if line.strip()))
        written = time.monotonic()
        code = live.wait(120)
    results = [(at, json.loads(line)) for at, line in out.lines if line.strip()]
    return code, results, "".join(line for _, line in err.lines), written


def run_live(tracesync, folders, timeout=120):
    return subprocess.run([tracesync, "live", "--quiet", "1s"] + [str(f) for f in folders],
                          capture_output=True, timeout=timeout)


def latency_proof_html(path):
    """The latency proof's parts of an HTML report: the causality summary,
    each link's table and histograms (snapshot/html_report.cc)."""
    return re.findall(r'<p id="causality">.*?</p>|<table class="proof-table">.*?</table>|'
                      r'<figure class="latency">.*?</figure>', path.read_text(), re.S)


SIGNAL = "event=irq_handler_entry,filter=irq==199,jitter=1us,clocks-within=250ms"


def signals_and_probe_rounds(tracesync, work, failures):
    """`live --simultaneous` and `--probe-port` on a simulated experiment
    written again packet by packet (issue 37)."""
    simulated = work / "simulated"
    subprocess.run([tracesync, "simulate", "--quiet", "--output", str(simulated), "--hosts", "3", "--seed", "37",
                    "--duration", "60s", "--rate", "5", "--offset-max", "100ms", "--clock-model", "wander",
                    "--signal-rate", "1", "--signal-jitter", "1", "--signal-missed", "0.05", "--signal-extra", "0.05",
                    "--probe-rounds", "10", "--probe-every", "10s", "--filler-ratio", "200"],
                   check=True, timeout=120)
    sources = sorted(p.parent for p in simulated.rglob("metadata"))
    for source in sources:
        write_lttng_index(source)
    targets = [work / "simulated-hosts" / s.parent.name / "kernel" for s in sources]
    # A horizon shorter than the default's 10 min, so that TCP segments are
    # matched while the folders are written, but longer than a packet (10 s
    # of this experiment): none expires before its other end is read.
    options = ["--match-horizon", "30s", "--simultaneous", SIGNAL, "--probe-port", "7300"]

    def pairs(result):
        return sum(s["pairs"] for l in result["links"] for s in l.get("evidence", {}).get("signals", []))

    live_html = work / "simulated-live.html"
    code, results, stderr, written = follow_while_replaying(
        tracesync, ["--quiet", "2s", "-o", str(live_html)] + options + [str(t) for t in targets], sources, targets,
        lambda result: pairs(result) > 0)
    print("simulated: tracesync live %s exited %d; stderr:\n%s" % (" ".join(options), code, stderr))
    during = [r for at, r in results if at < written and pairs(r) > 0]
    print("simulated: %d results, %d with signal pairs while the folders were written; pairs result by result: %s" % (
        len(results), len(during), " ".join(str(pairs(r)) for _, r in results)))
    if code != 0 or not results:
        failures.append("simulated: tracesync live %s exited %d" % (" ".join(options), code))
        return
    if not during:
        failures.append("simulated: no result with signal pairs was printed while the folders were written")
    for i, (_, result) in enumerate(results):
        if not result["links"]:
            continue
        path = work / ("simulated-result-%03d.json" % i)
        path.write_text(json.dumps(result))
        verdict = check_truth(tracesync, path, simulated / "truth.json")
        print("simulated result %d: %d signal pairs, worst error %.0f ns, %d violations" % (
            i, pairs(result), verdict["worst_error_ns"], verdict["violations"]))
        if verdict["violations"] != 0 or verdict["checked"] == 0:
            failures.append("simulated result %d: the truth is outside its bound (%d violations) or nothing was "
                            "checked" % (i, verdict["violations"]))
    sync = subprocess.run([tracesync, "sync", "--format", "json"] + options + [str(simulated)], capture_output=True,
                          timeout=120)
    final = results[-1][1]
    if sync.returncode != 0:
        failures.append("simulated: sync exited %d: %s" % (sync.returncode, sync.stderr.decode(errors="replace")))
        return
    expected = json.loads(sync.stdout)
    if essence(final) != essence(expected):
        failures.append("simulated: the final live result differs from sync %s:\nlive %r\nsync %r" % (
            " ".join(options), essence(final), essence(expected)))
    probe = [l["evidence"]["probe_messages"] for l in final["links"]]
    if (final["options"].get("probe_ports") != [7300] or not any(probe) or
            probe != [l["evidence"]["probe_messages"] for l in expected["links"]] or
            final["matching"].get("probe_matches") != expected["matching"].get("probe_matches")):
        failures.append("simulated: --probe-port's rounds are not counted as sync counts them: live %r, sync %r" % (
            probe, [l["evidence"]["probe_messages"] for l in expected["links"]]))
    print("simulated: final pairs %d (sync %d), probe messages per link %s, probe matches %s" % (
        pairs(final), pairs(expected), probe, final["matching"].get("probe_matches")))
    # -o: the final HTML's latency proof (the causality summary, each link's
    # table and histograms) is, byte for byte, the one sync writes on the
    # folders once written. (The rest of the page differs where the results
    # may: the order of the traces, live's aligned_by, docs/live.md.)
    sync_html = work / "simulated-sync.html"
    sync = subprocess.run([tracesync, "sync", "--format", "html", "-o", str(sync_html)] + options +
                          [str(t) for t in targets], capture_output=True, timeout=120)
    live_proof = latency_proof_html(live_html) if live_html.exists() else []
    sync_proof = latency_proof_html(sync_html) if sync.returncode == 0 else None
    print("simulated: live -o's final latency proof: %d parts, %d bytes, %s sync's (exit %d)" % (
        len(live_proof), sum(len(part) for part in live_proof), "equal to" if live_proof == sync_proof else "NOT",
        sync.returncode))
    if not live_proof or live_proof != sync_proof:
        failures.append("simulated: the latency proof of live -o's final HTML %s differs from sync's %s" % (
            live_html, sync_html))
    # -o with a TMPDIR that cannot hold the proof's temporary files: said
    # before anything is read, exit 2.
    bad = subprocess.run([tracesync, "live", "--quiet", "1s", "-o", str(work / "never.html")] +
                         [str(s) for s in sources], capture_output=True, timeout=60,
                         env=dict(os.environ, TMPDIR="/nonexistent/tracesync-tmp"))
    err = bad.stderr.decode(errors="replace")
    print("simulated: -o with TMPDIR=/nonexistent/tracesync-tmp: exit %d, %s" % (bad.returncode, err.strip().splitlines()[:1]))
    if bad.returncode != 2 or "cannot make a temporary file in /nonexistent/tracesync-tmp" not in err or bad.stdout:
        failures.append("simulated: -o with an unusable TMPDIR was not a clear usage error (exit %d): %s" % (
            bad.returncode, err))
    # A link budget that is no count of messages: said before anything is
    # read, exit 2.
    for budget in ("0", "-5", "many"):
        bad = subprocess.run([tracesync, "live", "--quiet", "1s", "--link-budget", budget] + [str(s) for s in sources],
                             capture_output=True, timeout=60)
        err = bad.stderr.decode(errors="replace")
        if bad.returncode != 2 or bad.stdout or \
                "--link-budget must be a count of messages, 1 or more, not '%s'" % budget not in err:
            failures.append("simulated: --link-budget %s was not a clear usage error (exit %d): %s" % (
                budget, bad.returncode, err))
    # Bad specs: one that does not parse, before anything is read; one the
    # traces cannot serve, at the end; exit 2 and a message naming it both times.
    for spec, said in (("event=irq_handler_entry,jitter=2", "jitter='2', not a duration"),
                       ("event=gps:pps,jitter=1us", "signal 'gps:pps': no trace records its event gps:pps")):
        bad = subprocess.run([tracesync, "live", "--quiet", "1s", "--simultaneous", spec] + [str(s) for s in sources],
                             capture_output=True, timeout=60)
        err = bad.stderr.decode(errors="replace")
        print("simulated: --simultaneous '%s': exit %d, %s" % (spec, bad.returncode, err.strip().splitlines()[-1:]))
        if bad.returncode != 2 or said not in err:
            failures.append("simulated: the bad spec '%s' was not a clear error (exit %d): %s" % (spec, bad.returncode,
                                                                                                 err))


def live_match_horizon(tracesync, work, failures):
    """`live`'s default match horizon (1 min, sync's is 10 min), on a
    simulated experiment whose host1 is 30 s ahead of host0 and host2 70 s
    behind (so 100 s from host1), followed from finished folders: the
    messages whose ends are recorded 30 s apart are matched, those 100 s
    apart are counted, each end once (expired or unmatched), none lost; and
    the final result is sync's given the same horizon."""
    simulated = work / "horizon"
    subprocess.run([tracesync, "simulate", "--quiet", "--output", str(simulated), "--hosts", "3", "--seed", "29",
                    "--duration", "20s", "--rate", "20", "--clock", "1:30000000000:0", "--clock", "2:-70000000000:0"],
                   check=True, timeout=120)
    traces = sorted(p.parent for p in simulated.rglob("metadata"))
    for trace in traces:
        write_lttng_index(trace)
    live = run_live(tracesync, traces)
    lines = [line for line in live.stdout.decode().splitlines() if line.strip()]
    final = json.loads(lines[-1]) if lines else None
    reports = {}
    for horizon in ("10min", "1min"):
        sync = subprocess.run([tracesync, "sync", "--format", "json", "--match-horizon", horizon]
                              + [str(t) for t in traces], capture_output=True, timeout=120)
        reports[horizon] = json.loads(sync.stdout) if sync.stdout else None
    if final is None or reports["10min"] is None or reports["1min"] is None:
        failures.append("horizon: live exited %d, no result, or sync gave none: %s" % (
            live.returncode, live.stderr.decode(errors="replace")))
        return
    links = lambda report: {(l["a_hostname"], l["b_hostname"]): l["messages"] for l in report["links"]}
    one_ended = lambda m: m["expired"] + m["unmatched_sends"] + m["unmatched_receives"]
    everything = links(reports["10min"])  # every message is matched with 10 min
    beyond = sum(n for pair, n in everything.items() if "host2" in pair)
    print("horizon: live (exit %d) match_horizon_ns %s, links %s, one-ended entries %d; sync 10min links %s, "
          "one-ended %d" % (live.returncode, final["options"]["match_horizon_ns"], links(final),
                            one_ended(final["matching"]), everything, one_ended(reports["10min"]["matching"])))
    if final["options"]["match_horizon_ns"] != 60_000_000_000:
        failures.append("horizon: live's default match horizon is %s ns, not 1 min" % final["options"]["match_horizon_ns"])
    if final["options"].get("link_budget") != 65536 or reports["1min"]["options"].get("link_budget") != 1048576:
        failures.append("horizon: the link budgets recorded are live %s and sync %s, not 65536 and 1048576" % (
            final["options"].get("link_budget"), reports["1min"]["options"].get("link_budget")))
    if links(final) != {pair: n for pair, n in everything.items() if "host2" not in pair} or not links(final):
        failures.append("horizon: the messages recorded 30 s apart are not all matched: live %s, sync 10min %s" % (
            links(final), everything))
    if beyond == 0 or one_ended(final["matching"]) != one_ended(reports["10min"]["matching"]) + 2 * beyond:
        failures.append("horizon: the %d messages recorded 100 s apart are not each counted at both ends: live %r, "
                        "sync 10min %r" % (beyond, final["matching"], reports["10min"]["matching"]))
    if live.returncode != 4 or "host2" not in live.stderr.decode(errors="replace"):
        failures.append("horizon: live exited %d, not 4 naming host2 not synchronized: %s" % (
            live.returncode, live.stderr.decode(errors="replace")))
    if essence(final) != essence(reports["1min"]):
        failures.append("horizon: the final live result differs from sync --match-horizon 1min:\nlive %r\nsync %r" % (
            essence(final), essence(reports["1min"])))


# Garbage over a packet's context (its sizes): babeltrace2 2.0 fails an
# assertion (msg-iter.c) and aborts, instead of reporting an error.
GARBAGE = bytes.fromhex("5b62906aff8f1f83fff711a0752d462e75b5e56fb7")


def abort_in_a_followed_folder(tracesync, work, failures):
    """A followed folder whose stream makes babeltrace2 abort, read by
    babeltrace2 (`--reader babeltrace2`; the scanner names the damage and
    reads on): each folder is read in a reading process of its own, so the
    abort costs that folder only. Its later packet is damaged: it is read on
    once in a new process, which aborts at the same place; what it gave
    before stays in the result, it is named as lost with babeltrace2's words,
    and the other folders are followed to their end (exit 3). With
    --in-process the abort ends tracesync (exit 1, no result)."""
    simulated = work / "abort"
    subprocess.run([tracesync, "simulate", "--quiet", "--output", str(simulated), "--hosts", "3", "--topology", "star",
                    "--duration", "40s", "--rate", "50", "--cpus", "1", "--seed", "4"], check=True, timeout=120)
    sources = sorted(p.parent for p in simulated.rglob("metadata"))
    for source in sources:
        write_lttng_index(source)
    stream = sources[1] / "channel0_0"  # host1's, damaged in its last packet (its index as before)
    data = stream.read_bytes()
    last = max(packet[2] for packet in packets(sources[1]))
    at = last + 36  # the packet context's sizes
    stream.write_bytes(data[:at] + GARBAGE + data[at + len(GARBAGE):])
    targets = [work / "abort-hosts" / s.parent.name / "kernel" for s in sources]
    host1 = lambda result: any(t["hostname"] == "host1" and t["events"] > 0 for t in result["traces"])
    code, results, stderr, _ = follow_while_replaying(
        tracesync, ["--quiet", "2s", "--reader", "babeltrace2"] + [str(t.parent) for t in targets], sources, targets,
        host1)
    final = results[-1][1] if results else None
    lost = "tracesync: lost %s: reading stopped after at least " % targets[1].parent
    print("abort in a followed folder: exit %d, stderr %s" % (code, stderr.strip()))
    if code != 3 or lost not in stderr or "babeltrace2 aborted (SIGABRT) on damaged data" not in stderr:
        failures.append("abort: host1 was not named as lost to babeltrace2's abort (exit %d): %s" % (code, stderr))
    # Read on once in a new process, which the damage kills at the same place.
    resumed = "tracesync: resumed %s: babeltrace2 aborted (SIGABRT) on damaged data" % targets[1].parent
    if resumed not in stderr or stderr.find(resumed) > stderr.find(lost):
        failures.append("abort: host1 was not read on once before it was lost: %s" % stderr)
    if final is None or not host1(final) or not any({l["a_hostname"], l["b_hostname"]} == {"host0", "host2"}
                                                     for l in final["links"]):
        failures.append("abort: the final result lacks host1's events so far or the link host0-host2: %r" % final)
    elif [p["source"] for p in final["problems"]] != [str(targets[1].parent)]:
        failures.append("abort: the final result's problems are not host1's alone: %r" % final["problems"])
    for ended in (targets[0].parent, targets[2].parent):
        if "tracesync: ended %s: " % ended not in stderr:
            failures.append("abort: %s was not followed to its end: %s" % (ended, stderr))
    # In-process, the abort ends tracesync: the case above is the one the processes are for.
    # (Its staging directory, which the abort leaves behind, in the work directory.)
    (work / "abort-tmp").mkdir()
    whole = subprocess.run([tracesync, "live", "--quiet", "1s", "--in-process", "--reader", "babeltrace2"]
                           + [str(t.parent) for t in targets], capture_output=True, timeout=120,
                           env=dict(os.environ, TMPDIR=str(work / "abort-tmp")))
    print("abort in-process: exit %d" % whole.returncode)
    if whole.returncode != 1 or whole.stdout.strip():
        failures.append("abort: --in-process did not end at babeltrace2's abort (exit %d): the damage under test "
                        "did not occur" % whole.returncode)
    # The staging directories the abort left behind are removed by the next
    # follower staging in the same $TMPDIR (here the scanner, which names
    # the damage and reads on), and its own when it ends.
    left = sorted(p.name for p in (work / "abort-tmp").iterdir())
    again = subprocess.run([tracesync, "live", "--quiet", "1s", "--in-process", "--reader", "scanner"]
                           + [str(t.parent) for t in targets], capture_output=True, timeout=120,
                           env=dict(os.environ, TMPDIR=str(work / "abort-tmp")))
    after = sorted(p.name for p in (work / "abort-tmp").iterdir())
    print("abort in-process: left in TMPDIR %s; after another live there (exit %d) %s" % (left, again.returncode,
                                                                                       after))
    if not left or after:
        failures.append("abort: the staging the in-process abort left (%s) was not removed by the next follower: "
                        "%s" % (left, after))
    for done in (work / "abort-hosts", work / "abort-tmp", simulated):
        shutil.rmtree(done)


def reading_processes(pid):
    """The reading processes of the tracesync whose pid is `pid`: its children."""
    children = []
    for task in pathlib.Path("/proc/%d/task" % pid).iterdir():
        try:
            children += [int(child) for child in (task / "children").read_text().split()]
        except OSError:  # the thread ended meanwhile
            pass
    return children


def killed_reading_processes(tracesync, work, failures):
    """Each followed folder's reading process killed (SIGKILL, as the
    machine's out-of-memory killer does) past half way through the writing,
    once a result holds the three traces: each
    folder is read on in a new process after what it gave (`resumed DIR:`
    on stderr), and the final result is the one of a run whose processes
    were not killed: sync's on the same traces, with the same events."""
    simulated = work / "killed"
    subprocess.run([tracesync, "simulate", "--quiet", "--output", str(simulated), "--hosts", "3", "--topology", "star",
                    "--duration", "20s", "--rate", "200", "--cpus", "1", "--seed", "6"], check=True, timeout=120)
    sources = sorted(p.parent for p in simulated.rglob("metadata"))
    for source in sources:
        write_lttng_index(source)
    targets = [work / "killed-hosts" / s.parent.name / "kernel" for s in sources]
    # --quiet 3s: the writing pauses only until a result holds the three
    # traces, which at 80 % of the packets has come already.
    killed = []
    with following(tracesync, ["--quiet", "3s"] + [str(t.parent) for t in targets]) as (live, out, err):

        def kill_readers():
            """Once a result holds the three traces (each folder read some way)."""
            if not any(len(json.loads(line)["traces"]) == 3 for _, line in out.lines if line.strip()):
                return False
            for child in reading_processes(live.pid):
                try:
                    os.kill(child, signal.SIGKILL)
                    killed.append(child)
                except ProcessLookupError:
                    pass
            return True

        time.sleep(0.5)
        replay(sources, targets, 0.8, kill_readers)
        code = live.wait(120)
    stderr = "".join(line for _, line in err.lines)
    results = [json.loads(line) for _, line in out.lines if line.strip()]
    print("killed reading processes %s past half way: exit %d, stderr:\n%s" % (killed, code, stderr))
    if len(killed) != 3:
        failures.append("killed: %d reading processes were killed, not 3 (one a folder, once a result held the "
                        "three traces)" % len(killed))
    for target in targets:
        said = "tracesync: resumed %s: the reading process was killed (SIGKILL: out of memory?); read on in a new " \
               "reading process after the " % target.parent
        if said not in stderr:
            failures.append("killed: %s was not said resumed: %s" % (target.parent, stderr))
    sync = subprocess.run([tracesync, "sync", "--format", "json"] + [str(s) for s in sources], capture_output=True,
                          timeout=120)
    if code != 0 or not results or sync.returncode != 0:
        failures.append("killed: live exited %d with %d results, sync %d" % (code, len(results), sync.returncode))
        return
    expected = json.loads(sync.stdout)
    events = lambda report: sorted((t["hostname"], t["events"], t["network_events"]) for t in report["traces"])
    if essence(results[-1]) != essence(expected) or events(results[-1]) != events(expected):
        failures.append("killed: the final live result differs from sync on the traces:\nlive %r %r\nsync %r %r" % (
            essence(results[-1]), events(results[-1]), essence(expected), events(expected)))
    else:
        print("killed: the final live result equals sync on the traces (%d messages; events %s)" % (
            results[-1]["messages"], events(results[-1])))
    for done in (work / "killed-hosts", simulated):
        shutil.rmtree(done)


def main():
    tracesync, shared, work = sys.argv[1:4]
    work = pathlib.Path(work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    failures = []
    signals_and_probe_rounds(tracesync, work, failures)
    live_match_horizon(tracesync, work, failures)
    abort_in_a_followed_folder(tracesync, work, failures)
    killed_reading_processes(tracesync, work, failures)
    fixtures = pathlib.Path(shared) / SET
    if not fixtures.is_dir():
        for failure in failures:
            print("FAIL: " + failure)
        print("skipped: %s is absent" % fixtures)
        return 1 if failures else 77
    sources = sorted(p.parent for p in fixtures.rglob("metadata"))
    targets = [work / "hosts" / s.parent.parent.name / "kernel" for s in sources]

    # Half written, then a pause until a result holding the three traces
    # came: results follow the folders while the rest is still to be
    # written. (The traces span 2.6 s: their messages, TCP segments that wait
    # for the match horizon, are all matched at the end; lttng_live_folder
    # shows messages matched while hosts record.)
    code, results, stderr, written = follow_while_replaying(
        tracesync, ["--quiet", "5s"] + [str(t.parent) for t in targets], sources, targets,
        lambda result: len(result["traces"]) == 3)
    print("tracesync live exited %d; stderr:\n%s" % (code, stderr))
    if code != 0:
        failures.append("tracesync live exited %d" % code)
    during = [r for at, r in results if at < written and len(r["traces"]) == 3]
    print("%d results, %d with the three traces while the folders were written; messages result by result: %s" % (
        len(results), len(during), " ".join(str(r["messages"]) for _, r in results)))
    if not during or any(r["complete"] for r in during):
        failures.append("no result holding the three traces was printed while the folders were written")
    sync = subprocess.run([tracesync, "sync", "--format", "json"] + [str(s) for s in sources],
                          capture_output=True, timeout=300)
    if sync.returncode != 0:
        failures.append("sync exited %d: %s" % (sync.returncode, sync.stderr.decode(errors="replace")))
    elif not results or essence(results[-1][1]) != essence(json.loads(sync.stdout)):
        failures.append("the final live result differs from sync on the original traces:\nlive %r\nsync %r" % (
            essence(results[-1][1]) if results else None, essence(json.loads(sync.stdout))))
    else:
        print("the final live result equals sync on the original traces (%d messages)" % results[-1][1]["messages"])

    # A folder holding two traces, named with both.
    both = run_live(tracesync, [work / "hosts" / sources[0].parent.parent.name, work / "hosts"])
    said = both.stderr.decode(errors="replace")
    print("two traces in one folder: exit %d, stderr %s" % (both.returncode, said.strip()))
    if both.returncode != 3 or "holds 3 traces" not in said or "follow each trace directory" not in said:
        failures.append("a folder holding several traces was not a clear problem (exit %d): %s" % (both.returncode, said))
    # A damaged index: the other traces still synchronized.
    damaged = work / "damaged" / "kernel"
    shutil.copytree(targets[0], damaged)
    idx = sorted((damaged / "index").glob("*.idx"))[0]
    idx.write_bytes(b"\0" * 16 + idx.read_bytes()[16:])
    bad = run_live(tracesync, [damaged, targets[1], targets[2]])
    said = bad.stderr.decode(errors="replace")
    report = json.loads(bad.stdout.decode().strip().splitlines()[-1])
    print("damaged index: exit %d, stderr %s" % (bad.returncode, said.strip()))
    if bad.returncode != 3 or str(idx) not in said or "not an LTTng index file" not in said or not report["links"]:
        failures.append("a damaged index was not a clear problem naming it, with the rest synchronized "
                        "(exit %d): %s" % (bad.returncode, said))
    # A packet that begins a second before the end of the one before it in
    # its stream, by its index entry, written after that one was read.
    def step_back(work, batch):
        for at in range(batch, len(work), batch):
            stream = work[at][1]
            before = [w for w in work[:at] if w[1] == stream]
            if before:
                entry = bytearray(work[at][4])
                struct.pack_into(">Q", entry, 24, before[-1][0] - 1_000_000_000)
                work[at] = work[at][:4] + (bytes(entry),) + work[at][5:]
                step_back.where = (stream, work[at][2])
                return at / len(work)  # pause before it: the packet before it is read first
        raise RuntimeError("no stream has two packets in different batches")
    stepping = work / "stepback" / "kernel"
    with following(tracesync, ["--quiet", "5s", str(stepping)]) as (follower, _, err):
        replay(sources[:1], [stepping], until=lambda: False, damage=step_back)
        follower.wait(60)
    said = "".join(line for _, line in err.lines)
    stream, offset = step_back.where
    print("a packet stepping back: exit %d, stderr %s" % (follower.returncode, said.strip()))
    if (follower.returncode != 3 or "%s: the packet from byte %d begins" % (stepping / stream, offset) not in said or
            "before the end of the packet before it" not in said):
        failures.append("a packet beginning before the end of the one before it was not a clear problem naming it "
                        "(exit %d): %s" % (follower.returncode, said))

    # CTF 2: the same replay, the same result as sync on the CTF 1.8 originals.
    twins = ctf2_twins(tracesync, sources, work)
    ctf2_targets = [work / "ctf2-hosts" / t.parent.name / "kernel" for t in twins]
    with following(tracesync, ["--quiet", "2s"] + [str(t.parent) for t in ctf2_targets]) as (live, out, err):
        replay(twins, ctf2_targets)
        live.wait(120)
    ctf2_results = [json.loads(line) for _, line in out.lines if line.strip()]
    print("CTF 2 folders: exit %d, %d results; stderr:\n%s" % (live.returncode, len(ctf2_results),
                                                               "".join(line for _, line in err.lines)))
    if live.returncode != 0 or not ctf2_results:
        failures.append("tracesync live on the CTF 2 folders exited %d" % live.returncode)
    elif sync.returncode == 0 and essence(ctf2_results[-1]) != essence(json.loads(sync.stdout)):
        failures.append("the final live result on the CTF 2 folders differs from sync on the CTF 1.8 originals:\n"
                        "live %r\nsync %r" % (essence(ctf2_results[-1]), essence(json.loads(sync.stdout))))
    else:
        print("the final live result on the CTF 2 folders equals sync on the CTF 1.8 originals")
    for failure in failures:
        print("FAIL: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
