// SPDX-License-Identifier: EPL-2.0
// The tracepoint provider `tsapp` of the test program tsapp: one event for
// each message sent and one for each message received, keyed by msg_id.

#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER tsapp

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./tsapp_tp.h"

#if !defined(TSAPP_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define TSAPP_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

LTTNG_UST_TRACEPOINT_EVENT(tsapp, msg_send,
    LTTNG_UST_TP_ARGS(uint64_t, msg_id, const char*, peer),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(uint64_t, msg_id, msg_id)
        lttng_ust_field_string(peer, peer)))

LTTNG_UST_TRACEPOINT_EVENT(tsapp, msg_recv,
    LTTNG_UST_TP_ARGS(uint64_t, msg_id, const char*, peer),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(uint64_t, msg_id, msg_id)
        lttng_ust_field_string(peer, peer)))

// A heartbeat on one CPU (TSAPP_TICK_MS): it puts a packet in every per-CPU
// stream, so that a folder followed while it is written (`tracesync live
// DIR`) has news of every stream.
LTTNG_UST_TRACEPOINT_EVENT(tsapp, tick,
    LTTNG_UST_TP_ARGS(int, cpu),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(int, cpu, cpu)))

#endif

#include <lttng/tracepoint-event.h>
