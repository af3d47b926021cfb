// SPDX-License-Identifier: EPL-2.0
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER seqapp
#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./seqapp_tp.h"
#if !defined(SEQAPP_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define SEQAPP_TP_H
#include <lttng/tracepoint.h>
#include <stdint.h>
#include <stddef.h>
LTTNG_UST_TRACEPOINT_EVENT(seqapp, msg_send,
    LTTNG_UST_TP_ARGS(uint64_t, msg_id, const uint8_t*, buf, size_t, len, const char*, text, unsigned int, tlen),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(uint64_t, msg_id, msg_id)
        lttng_ust_field_sequence(uint8_t, msg, buf, size_t, len)
        lttng_ust_field_sequence_text(char, label, text, unsigned int, tlen)))
LTTNG_UST_TRACEPOINT_EVENT(seqapp, msg_recv,
    LTTNG_UST_TP_ARGS(uint64_t, msg_id, const uint8_t*, buf, size_t, len, const char*, text, unsigned int, tlen),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(uint64_t, msg_id, msg_id)
        lttng_ust_field_sequence(uint8_t, msg, buf, size_t, len)
        lttng_ust_field_sequence_text(char, label, text, unsigned int, tlen)))
#endif
#include <lttng/tracepoint-event.h>
