#!/bin/sh
# SPDX-License-Identifier: EPL-2.0
# Records tests/data/ust-sequence/trace: run as root inside
#   unshare --mount --uts sh record.sh   (seqapp built as /tmp/ust-sequence/seqapp)
# as tests/lttng/lttng_hosts.py runs a host (its own sessiond, tmpfs, hostname).
set -u
D=/tmp/ust-sequence/host
sessiond=""
stop() { if [ -n "$sessiond" ]; then lttng destroy -a >/dev/null 2>&1; kill "$sessiond" 2>/dev/null; wait "$sessiond" 2>/dev/null; fi; }
trap stop EXIT
mkdir -p /var/run/lttng "$D/home"
mount -t tmpfs tmpfs /var/run/lttng || exit 10
mount -t tmpfs tmpfs /dev/shm || exit 10
hostname host0
export HOME="$D/home" LTTNG_HOME="$D/home"
ready=0
trap 'ready=1' USR1
lttng-sessiond --no-kernel --sig-parent >"$D/sessiond.log" 2>&1 &
sessiond=$!
for i in $(seq 200); do [ "$ready" = 1 ] && break; sleep 0.05; done
[ "$ready" = 1 ] || { echo "sessiond did not start" >&2; exit 11; }
lttng create s --output="$D/trace" >/dev/null || exit 12
lttng enable-event -u 'seqapp:*' >/dev/null || exit 12
lttng enable-event -u 'lttng_ust_statedump:*' >/dev/null || exit 12

lttng start >/dev/null || exit 12
LTTNG_UST_REGISTER_TIMEOUT=-1 /tmp/ust-sequence/seqapp
lttng stop >/dev/null
lttng destroy >/dev/null
