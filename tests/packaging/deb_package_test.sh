#!/usr/bin/env bash
# SPDX-License-Identifier: EPL-2.0
# The Debian packages: cpack builds them from the build tree, they unpack into a
# scratch root, and what they installed works there (the command, its manual,
# its completion, and with Java the JNI library and the bridge jar).
# tracesync needs no lttng-ust: tracesync probe's lttng-ust provider, where it
# was built, is the package tracesync-probe-lttng, which tracesync Recommends,
# and tracesync probe loads it once it is installed beside it.
#   deb_package_test.sh BUILD_DIR SOURCE_DIR JAVA(ON|OFF)
set -euo pipefail
build=$1 source=$2 java=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

if ! (cd "$build" && cpack -G DEB -B "$work/out") > "$work/cpack.log" 2>&1; then
  # cpack packs what the whole tree builds. A file it cannot find that the
  # build makes (ninja knows how: the man page, tracesync probe's lttng-ust
  # provider) is a build of chosen targets, not a fault of the packaging.
  missing=$(tr '\n' ' ' < "$work/cpack.log" | sed -n 's/.*file INSTALL cannot find *"\([^"]*\)".*/\1/p')
  made_by=
  if [[ -n $missing && -f $build/build.ninja ]]; then
    made_by=$(ninja -C "$build" -t query "${missing#"$build"/}" 2>/dev/null | sed -n 's/^  input: //p') || true
  fi
  if [[ -n $made_by ]]; then
    echo "deb_package skipped: the build has not made $missing yet; cpack needs the whole tree built" \
      "(ninja -C $build)"
    exit 77
  fi
  cat "$work/cpack.log"
  fail "cpack failed"
fi
deb=$(find "$work/out" -maxdepth 1 -name 'tracesync_*.deb' | head -n 1)
[[ -n $deb ]] || fail "cpack wrote no tracesync_*.deb (see above)"
echo "package: $(basename "$deb"), $(stat -c %s "$deb") bytes"

depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for library in libbabeltrace2 libprotobuf libstdc++6; do
  [[ $depends == *"$library"* ]] || fail "Depends does not name $library"
done
[[ $(dpkg-deb -f "$deb" Architecture) == amd64 ]] || fail "not an amd64 package"
[[ $depends != *lttng* ]] || fail "tracesync Depends on lttng-ust: it must install without it"
[[ $(dpkg-deb -c "$deb") != *libtracesync-probe-lttng* ]] || fail "tracesync holds the lttng-ust provider"

probe_deb=$(find "$work/out" -maxdepth 1 -name 'tracesync-probe-lttng_*.deb' | head -n 1)
if [[ -e $build/lib/tracesync/libtracesync-probe-lttng.so ]]; then
  [[ -n $probe_deb ]] || fail "the provider was built but cpack wrote no tracesync-probe-lttng_*.deb"
  probe_depends=$(dpkg-deb -f "$probe_deb" Depends)
  echo "tracesync-probe-lttng Depends: $probe_depends"
  [[ $probe_depends == *liblttng-ust1* ]] || fail "tracesync-probe-lttng does not Depend on liblttng-ust1"
  version=$(dpkg-deb -f "$deb" Version)
  [[ $probe_depends == *"tracesync (= $version)"* ]] || fail "tracesync-probe-lttng does not Depend on tracesync (= $version)"
  [[ $(dpkg-deb -f "$deb" Recommends) == *tracesync-probe-lttng* ]] || fail "tracesync does not Recommend tracesync-probe-lttng"
else
  [[ -z $probe_deb ]] || fail "no provider was built, yet cpack wrote $probe_deb"
fi

root=$work/root
dpkg-deb -x "$deb" "$root"
tracesync=$root/usr/bin/tracesync
[[ -x $tracesync ]] || fail "no /usr/bin/tracesync in the package"
for file in usr/share/man/man1/tracesync.1 usr/share/bash-completion/completions/tracesync usr/share/doc/tracesync/LICENSE; do
  [[ -s $root/$file ]] || fail "no /$file in the package"
done
# A section for every command `tracesync help` lists.
commands=$("$root/usr/bin/tracesync" help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p')
[[ $(wc -w <<< "$commands") -ge 10 ]] || fail "tracesync help lists only: $commands"
for command in $commands; do
  grep -q "^\.SS $command\$" "$root/usr/share/man/man1/tracesync.1" || fail "the manual has no section for $command"
done
bash -n "$root/usr/share/bash-completion/completions/tracesync" || fail "the completion is not valid bash"
if [[ $java == ON ]]; then
  find "$root/usr/lib" -path '*/jni/libtracesync_jni.so' | grep -q . || fail "no JNI library under /usr/lib/**/jni"
  [[ -s $root/usr/share/java/tracesync-bridge.jar ]] || fail "no /usr/share/java/tracesync-bridge.jar"
fi

"$tracesync" --version | grep -q '^tracesync ' || fail "the installed tracesync has no --version"
"$tracesync" sync --matches "$source/fixtures/matches/chain_three_hosts.txt" --format json > "$work/report.json" \
  || fail "the installed tracesync failed on a match stream"
grep -q '"quality": "ACCURATE"' "$work/report.json" || fail "the installed tracesync found no ACCURATE link"
# Traces, read by reading processes: the installed program starts itself.
"$tracesync" simulate --output "$work/experiment" --hosts 2 --duration 1s > /dev/null \
  || fail "the installed tracesync could not simulate"
"$tracesync" sync "$work/experiment" --format json > "$work/traces.json" || fail "the installed tracesync failed on traces"
grep -q '"quality": "ACCURATE"' "$work/traces.json" || fail "no ACCURATE link from the installed tracesync's traces"

# tracesync probe without its provider: it runs, and says why it records no
# lttng-ust events; `--ust on` is refused (exit 2).
probe() { env -u TRACESYNC_PROBE_LTTNG timeout 20 "$tracesync" probe --listen 0 --duration 0.2s "$@"; }
probe > "$work/probe.out" 2> "$work/probe.err" || { cat "$work/probe.err"; fail "tracesync probe failed without its provider"; }
grep -q 'no lttng-ust events' "$work/probe.err" || fail "tracesync probe did not say it records no lttng-ust events"
status=0; probe --ust on > /dev/null 2> "$work/probe.err" || status=$?
[[ $status == 2 ]] || fail "tracesync probe --ust on without its provider exited $status, not 2"
if [[ -n $probe_deb ]]; then
  # Installed beside it, the provider is found and loaded.
  dpkg-deb -x "$probe_deb" "$root"
  probe --ust on > /dev/null 2> "$work/probe.err" || { cat "$work/probe.err"; fail "tracesync probe --ust on failed with tracesync-probe-lttng installed"; }
  grep -q "lttng-ust events from $root/usr/lib/.*libtracesync-probe-lttng.so" "$work/probe.err" \
    || { cat "$work/probe.err"; fail "tracesync probe did not load the installed provider"; }
fi
echo "1 passed, 0 failed"
