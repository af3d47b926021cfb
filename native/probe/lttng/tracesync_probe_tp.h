// SPDX-License-Identifier: EPL-2.0
// The lttng-ust tracepoint provider `tracesync_probe` of `tracesync probe`:
// one event just before a probe message is written, one just after it is
// read. A message is one leg of a round (0: the request, 1: its answer);
// (round, leg) identifies it across hosts, which is the key of the built-in
// message kind `probe` (`--messages probe`, docs/probe.md).

#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER tracesync_probe

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./tracesync_probe_tp.h"

#if !defined(TRACESYNC_PROBE_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define TRACESYNC_PROBE_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

LTTNG_UST_TRACEPOINT_EVENT(tracesync_probe, round_send,
    LTTNG_UST_TP_ARGS(uint64_t, round, uint8_t, leg, const char*, peer),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(uint64_t, round, round)
        lttng_ust_field_integer(uint8_t, leg, leg)
        lttng_ust_field_string(peer, peer)))

LTTNG_UST_TRACEPOINT_EVENT(tracesync_probe, round_recv,
    LTTNG_UST_TP_ARGS(uint64_t, round, uint8_t, leg, const char*, peer),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(uint64_t, round, round)
        lttng_ust_field_integer(uint8_t, leg, leg)
        lttng_ust_field_string(peer, peer)))

#endif

#include <lttng/tracepoint-event.h>
