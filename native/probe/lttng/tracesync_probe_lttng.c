// SPDX-License-Identifier: EPL-2.0
// libtracesync-probe-lttng.so: the tracepoint provider `tracesync_probe` and
// its call sites, behind a plain C interface (probe/ust_events.h). `tracesync
// probe` loads it with dlopen() when it is installed and liblttng-ust can be
// loaded, so the tracesync binary itself never depends on lttng-ust.
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "tracesync_probe_tp.h"

// Which interface this library offers; ust_events.cc refuses another.
int tracesync_probe_lttng_abi(void) { return 1; }

void tracesync_probe_lttng_round_send(uint64_t round, uint8_t leg, const char* peer) {
  lttng_ust_tracepoint(tracesync_probe, round_send, round, leg, peer);
}

void tracesync_probe_lttng_round_recv(uint64_t round, uint8_t leg, const char* peer) {
  lttng_ust_tracepoint(tracesync_probe, round_recv, round, leg, peer);
}
