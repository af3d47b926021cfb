// SPDX-License-Identifier: EPL-2.0
// An lttng-ust clock override plugin whose clock is an exact function of
// CLOCK_MONOTONIC, so that a test knows the truth between two "hosts":
//
//   c(m) = m + floor(m * TSAPP_CLOCK_DRIFT_PPB / 1e9) + TSAPP_CLOCK_OFFSET_NS
//
// in ns, at 1 GHz, for m = CLOCK_MONOTONIC in ns. TSAPP_CLOCK_UUID gives the
// clock's UUID (8-4-4-4-12 text): each plugin host is a clock domain of its
// own. Load it with LTTNG_UST_CLOCK_PLUGIN=/path/to/this.so in the
// environment of the host's lttng-sessiond and of its traced programs.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lttng/ust-clock.h>

static int64_t drift_ppb;
static int64_t offset_ns;
static char uuid_text[LTTNG_UST_UUID_STR_LEN] = "5c7a3b52-2f1e-4d0b-9a55-0c1d2e3f4a5b";

static uint64_t plugin_read64(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  const __int128 m = (__int128)t.tv_sec * 1000000000 + t.tv_nsec;
  __int128 scaled = m * drift_ppb;
  // Floor division, whatever the drift's sign.
  __int128 extra = scaled / 1000000000;
  if (scaled % 1000000000 != 0 && scaled < 0) --extra;
  return (uint64_t)(m + extra + offset_ns);
}

static uint64_t plugin_freq(void) { return 1000000000; }

static int plugin_uuid(char* uuid) {
  // All LTTNG_UST_UUID_STR_LEN bytes, the NUL included: with one less,
  // babeltrace2 cannot parse the metadata's UUID.
  memcpy(uuid, uuid_text, LTTNG_UST_UUID_STR_LEN);
  return 0;
}

static const char* plugin_name(void) { return "tsapp_clock"; }

static const char* plugin_description(void) { return "CLOCK_MONOTONIC with a known offset and drift (tests)"; }

void lttng_ust_clock_plugin_init(void);
void lttng_ust_clock_plugin_init(void) {
  const char* drift = getenv("TSAPP_CLOCK_DRIFT_PPB");
  const char* offset = getenv("TSAPP_CLOCK_OFFSET_NS");
  const char* uuid = getenv("TSAPP_CLOCK_UUID");
  if (drift != NULL) drift_ppb = strtoll(drift, NULL, 10);
  if (offset != NULL) offset_ns = strtoll(offset, NULL, 10);
  if (uuid != NULL && strlen(uuid) == LTTNG_UST_UUID_STR_LEN - 1) memcpy(uuid_text, uuid, LTTNG_UST_UUID_STR_LEN);
  if (lttng_ust_trace_clock_set_read64_cb(plugin_read64) != 0 || lttng_ust_trace_clock_set_freq_cb(plugin_freq) != 0 ||
      lttng_ust_trace_clock_set_uuid_cb(plugin_uuid) != 0 || lttng_ust_trace_clock_set_name_cb(plugin_name) != 0 ||
      lttng_ust_trace_clock_set_description_cb(plugin_description) != 0 ||
      lttng_ust_enable_trace_clock_override() != 0) {
    abort();  // a test must not run on the wrong clock
  }
}
