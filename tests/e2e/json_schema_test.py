#!/usr/bin/env python3
# SPDX-License-Identifier: EPL-2.0
"""Validates real `tracesync sync --format json` reports against the
documented JSON Schema (docs/schema/tracesync-sync-1.schema.json), and real
`tracesync apply` manifests against theirs
(docs/schema/tracesync-manifest-1.schema.json), and checks that each schema
refuses documents that break its contract.

usage: json_schema_test.py TRACESYNC SCHEMA FIXTURES_DIR MANIFEST_SCHEMA
Exits 0 when every check passes, 1 on a failure, 77 (skipped) when the
python3-jsonschema package is missing."""

import base64
import copy
import json
import os
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    print("SKIP: python3-jsonschema is not installed (apt-get install python3-jsonschema)")
    sys.exit(77)

tracesync, schema_path, fixtures, manifest_schema_path = sys.argv[1:5]
with open(schema_path) as f:
    schema = json.load(f)
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
with open(manifest_schema_path) as f:
    manifest_schema = json.load(f)
jsonschema.Draft202012Validator.check_schema(manifest_schema)
manifest_validator = jsonschema.Draft202012Validator(manifest_schema)
failures = []


def run(arguments, expected_exit, stdin=None):
    r = subprocess.run([tracesync] + arguments, input=stdin, capture_output=True, text=True, timeout=300)
    if expected_exit is not None and r.returncode != expected_exit:
        failures.append(f"{arguments}: exit {r.returncode}, expected {expected_exit}: {r.stderr}")
    return r.stdout


def validate(name, report):
    errors = sorted(validator.iter_errors(report), key=lambda e: list(e.path))
    for e in errors:
        failures.append(f"{name}: {'/'.join(map(str, e.path))}: {e.message}")
    return not errors


def sync(name, arguments, expected_exit=0, stdin=None):
    report = json.loads(run(["sync", "--format", "json"] + arguments, expected_exit, stdin))
    validate(name, report)
    return report


matches = fixtures + "/matches/"
reports = {
    "two hosts": sync("two hosts", ["--matches", matches + "two_hosts_hand.txt"]),
    "two islands": sync("two islands", ["--matches", matches + "two_islands.txt"], 4),
    "one direction": sync("one direction", ["--matches", matches + "one_direction.txt"], 4),
    # Its contradicting message opens a second, one-sided segment: b is not synchronized (exit 4).
    "contradiction": sync("contradiction", ["--matches", matches + "contradiction.txt"], 4),
    "contradiction, linear": sync("contradiction, linear", ["--matches", matches + "contradiction.txt",
                                                            "--clock-model", "linear"]),
    "malformed": sync("malformed", ["--matches", matches + "malformed.txt"], 2),
    "nothing read": sync("nothing read", ["/nonexistent/traces"], 2),
}
for algorithm in ["linreg", "window-independent", "window-replace", "window-correlated"]:
    reports[algorithm] = sync(algorithm, ["--matches", matches + "chain_three_hosts.txt", "--algorithm", algorithm,
                                          "--window", "1us"], None if algorithm.startswith("window") else 0)
reports["baseline"] = sync("baseline", ["--matches", matches + "chain_three_hosts.txt", "--network", "baseline",
                                        "--reference", "h2"])
# The last line of --history is the report.
history = run(["sync", "--matches", matches + "contradiction.txt", "--history", "--format", "json"], 4).splitlines()
validate("history report", json.loads(history[-1]))

with tempfile.TemporaryDirectory() as experiment:
    run(["simulate", "--quiet", "--output", experiment, "--hosts", "3", "--duration", "2s", "--cpus", "1"], 0)
    reports["traces"] = sync("traces", [experiment])
    reports["strict"] = sync("strict", [experiment, "--match-key", "strict", "--jobs", "1"])
    reports["one trace"] = sync("one trace", [experiment + "/host0"])
    reports["in process"] = sync("in process", [experiment, "--in-process"])

# Application messages (docs/app-messages.md): user-space traces with two
# kinds declared, and kernel traces with a kind no trace records (exit 2).
with tempfile.TemporaryDirectory() as experiment:
    run(["simulate", "--quiet", "--user-space", "--output", experiment, "--hosts", "3", "--duration", "2s",
         "--cpus", "1"], 0)
    reports["app messages"] = sync("app messages", [experiment, "--messages",
                                   "send=tsapp:msg_send,recv=tsapp:msg_recv,key=msg_id", "--messages",
                                   "name=by-channel,send=tsapp:msg_sent,recv=tsapp:msg_received,key=channel"], 2)

# Simultaneous signals (docs/signals.md): links whose evidence holds signals.
with tempfile.TemporaryDirectory() as experiment:
    run(["simulate", "--quiet", "--output", experiment, "--hosts", "3", "--duration", "5s", "--cpus", "1",
         "--signal-rate", "2", "--signal-missed", "0.1"], 0)
    reports["signals"] = sync("signals", [experiment, "--simultaneous",
                              "event=irq_handler_entry,filter=irq==199,jitter=1us"])
    assert any(link["evidence"].get("signals") for link in reports["signals"]["links"]), "no link shows its signals"

# Names that are not UTF-8 (docs/json.md): a Latin-1 host name in a match
# stream, a Latin-1 trace directory, a Latin-1 directory that does not exist.
LATIN1 = b"h\xe9te"
with tempfile.TemporaryDirectory() as work:
    stream = os.path.join(work, "latin1.txt")
    with open(stream, "wb") as f:
        f.write(b"a 0 " + LATIN1 + b" 10\n" + LATIN1 + b" 55 a 50\na 100 " + LATIN1 + b" 110\n")
    reports["latin-1 host"] = sync("latin-1 host", ["--matches", stream])
    experiment = os.path.join(work, "experiment")
    run(["simulate", "--quiet", "--output", experiment, "--hosts", "2", "--duration", "1s", "--cpus", "1"], 0)
    latin1_dir = os.fsencode(experiment) + b"/" + LATIN1
    os.rename(os.fsencode(experiment) + b"/host1", latin1_dir)
    reports["latin-1 directory"] = sync("latin-1 directory", [experiment])
    reports["latin-1 missing"] = sync("latin-1 missing", [os.fsdecode(latin1_dir + b"-missing")], 2)


def exact(obj, key):
    """The exact bytes of the name under `key`: its readable text must be
    Python's backslashreplace decoding of them."""
    if key + "_raw" not in obj:
        return obj[key].encode()
    raw = base64.b64decode(obj[key + "_raw"], validate=True)
    if raw.decode("utf-8", "backslashreplace") != obj[key]:
        failures.append(f"{key}: {obj[key]!r} is not the readable text of {raw!r}")
    if raw.decode("utf-8", "ignore").encode() == raw:
        failures.append(f"{key}_raw: {raw!r} is UTF-8 and should not be carried")
    return raw


host = reports["latin-1 host"]
if exact(host["traces"][1], "name") != LATIN1 or host["traces"][1]["name"] != "h\\xe9te":
    failures.append(f"latin-1 host: {host['traces'][1]}")
if exact(host["links"][0], "b") != LATIN1 or exact(host["islands"][0], "reference") not in (b"a", LATIN1):
    failures.append(f"latin-1 host: {host['links'][0]}")
if [base64.b64decode(d) for d in host["islands"][0]["domains_raw"]] != [b"a", LATIN1]:
    failures.append(f"latin-1 host: {host['islands'][0]}")
directory = reports["latin-1 directory"]
if exact(directory["traces"][1], "path") != latin1_dir + b"/kernel":
    failures.append(f"latin-1 directory: {directory['traces'][1]}")
if exact(reports["latin-1 missing"]["problems"][0], "source") != latin1_dir + b"-missing":
    failures.append(f"latin-1 missing: {reports['latin-1 missing']['problems']}")
for name, report in reports.items():
    if "latin-1" not in name and "_raw" in json.dumps(report):
        failures.append(f"{name}: a UTF-8 report carries raw bytes")

# What the reports must show, for the schema to be tested on it.
traces = reports["traces"]
if not all(t["synchronized"] and t["network_events"] > 0 for t in traces["traces"]):
    failures.append("traces: every simulated trace should be synchronized and hold network events")
app = reports["app messages"]
if [k["name"] for k in app.get("matching_by_kind", [])] != ["tcp", "tsapp:msg_send", "by-channel"] or \
        app["matching_by_kind"][1]["matching"]["matches"] == 0 or \
        not all(link.get("message_kinds") for link in app["links"]) or \
        not all(t["synchronized"] for t in app["traces"]):
    failures.append("app messages: every link should have matches of kind 1, every trace be synchronized")
if not any("no trace records its send event tsapp:msg_sent" in p["message"] for p in app["problems"]):
    failures.append(f"app messages: the kind no trace records is not a problem: {app['problems']}")
if not any(link["lower_hull_points"] for link in traces["links"]):
    failures.append("traces: no hull point in any link")
if "regression" not in reports["linreg"]["links"][0]:
    failures.append("linreg: no regression object")
if [t["synchronized"] for t in reports["two islands"]["traces"]] != [True, True, False, False]:
    failures.append("two islands: expected a, b synchronized and c, d not")

# The schema refuses what breaks the contract.
def refusal_check(schema_validator, schema_name):
    def must_fail(name, document):
        if schema_validator.is_valid(document):
            failures.append(f"{schema_name} accepted {name}")
    return must_fail

must_fail = refusal_check(validator, "the schema")

bad = copy.deepcopy(reports["two islands"])
del bad["traces"][0]["synchronized"]
must_fail("a trace without 'synchronized'", bad)
bad = copy.deepcopy(reports["two islands"])
bad["traces"][2]["uncertainty_ns"] = 0.0
must_fail("an unsynchronized trace with a bound", bad)
bad = copy.deepcopy(reports["two islands"])
del bad["traces"][3]["unsynchronized_reason"]
must_fail("an unsynchronized trace without a reason", bad)
bad = copy.deepcopy(reports["two hosts"])
bad["traces"][0]["slope"] = 1.0
must_fail("a slope as a JSON number", bad)
bad = copy.deepcopy(reports["two hosts"])
bad["links"][0]["lower_hull_points"] = [[0, 10]]
must_fail("hull points as pairs", bad)
bad = copy.deepcopy(reports["two hosts"])
bad["undocumented"] = 1
must_fail("an undocumented field", bad)
bad = copy.deepcopy(reports["latin-1 host"])
bad["traces"][1]["name_raw"] = "h\\xe9te"
must_fail("exact bytes that are not base64", bad)

# apply's manifests: clock-only and --rewrite copies, with a skipped trace
# (damaged metadata), a trace outside the main island (a second, separate
# experiment) and a trace under a Latin-1 directory.
manifests = {}


def apply(name, experiment, output, arguments, expected_exit):
    run(["apply", experiment, "--output", output] + arguments, expected_exit)
    with open(os.path.join(output, "tracesync-manifest.json"), "rb") as f:
        manifest = json.loads(f.read())
    errors = sorted(manifest_validator.iter_errors(manifest), key=lambda e: list(e.path))
    for e in errors:
        failures.append(f"manifest {name}: {'/'.join(map(str, e.path))}: {e.message}")
    manifests[name] = manifest
    return manifest


with tempfile.TemporaryDirectory() as work:
    experiment = os.path.join(work, "experiment")
    run(["simulate", "--quiet", "--output", experiment, "--hosts", "2", "--duration", "1s", "--cpus", "1"], 0)
    broken = os.path.join(experiment, "broken", "kernel")
    os.makedirs(broken)
    with open(os.path.join(broken, "metadata"), "w") as f:
        f.write("not CTF metadata\n")
    apply("clock-only", experiment, os.path.join(work, "clock-only"), [], 3)
    apply("rewrite", experiment, os.path.join(work, "rewrite"), ["--rewrite"], 3)
    # Two more hosts that exchange no message with the first two: an island
    # of their own, which cannot be on the common base.
    run(["simulate", "--quiet", "--output", os.path.join(experiment, "apart"), "--hosts", "2", "--duration", "1s",
         "--cpus", "1", "--seed", "7"], 0)
    apply("two islands", experiment, os.path.join(work, "two-islands"), [], 3)  # 3, the skipped trace, outranks 4
    os.rename(os.fsencode(experiment) + b"/host1", os.fsencode(experiment) + b"/" + LATIN1)
    apply("latin-1 directory", experiment, os.path.join(work, "latin-1"), [], 3)

# What the manifests must show, for the schema to be tested on it.
for name, manifest in manifests.items():
    if [p["input"] for p in manifest["problems"] if p["skipped"]] != [broken]:
        failures.append(f"manifest {name}: the damaged trace is not listed as skipped: {manifest['problems']}")
    if any(t["input"] == broken for t in manifest["traces"]):
        failures.append(f"manifest {name}: the skipped trace has an entry")
methods = {t["method"] for t in manifests["clock-only"]["traces"]}
if methods != {"clock-only"} or len(manifests["clock-only"]["traces"]) != 2:
    failures.append(f"manifest clock-only: methods {methods}")
if {t["method"] for t in manifests["rewrite"]["traces"]} != {"full-rewrite"}:
    failures.append("manifest rewrite: every copy should be a full rewrite")
apart = [t for t in manifests["two islands"]["traces"] if not t["synchronized"]]
if len(apart) != 2 or any(t["output"] is not None or "note" not in t for t in apart):
    failures.append(f"manifest two islands: expected two traces without a copy, with a note: {apart}")
if not any("input_raw" in t for t in manifests["latin-1 directory"]["traces"]):
    failures.append("manifest latin-1 directory: no trace carries its exact path")

# The manifest schema refuses what breaks the contract.
manifest_must_fail = refusal_check(manifest_validator, "the manifest schema")

bad = copy.deepcopy(manifests["clock-only"])
del bad["traces"][0]["clocks"]
manifest_must_fail("a clock-only copy without its clocks", bad)
bad = copy.deepcopy(manifests["clock-only"])
bad["traces"][0]["transform"][0]["slope"] = 1.0
manifest_must_fail("a slope as a JSON number", bad)
bad = copy.deepcopy(manifests["rewrite"])
bad["traces"][0]["clocks"] = manifests["clock-only"]["traces"][0]["clocks"]
manifest_must_fail("a full rewrite with clock changes", bad)
bad = copy.deepcopy(manifests["two islands"])
apart_index = next(i for i, t in enumerate(bad["traces"]) if not t["synchronized"])
bad["traces"][apart_index]["bound_ns"] = {"synchronization": 0.0, "method": 0.0, "total": 0.0}
manifest_must_fail("a trace without a copy with a bound", bad)
bad = copy.deepcopy(manifests["two islands"])
del bad["traces"][apart_index]["note"]
manifest_must_fail("a trace without a copy and without a reason", bad)
bad = copy.deepcopy(manifests["clock-only"])
bad["undocumented"] = 1
manifest_must_fail("an undocumented field", bad)

for failure in failures:
    print("FAIL:", failure)
print(f"{len(reports) + 1} reports and {len(manifests)} manifests validated, {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
