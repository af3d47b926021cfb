// SPDX-License-Identifier: EPL-2.0
// The tracepoint provider's probes, compiled once into tsapp.
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "tsapp_tp.h"
