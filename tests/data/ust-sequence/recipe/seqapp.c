// SPDX-License-Identifier: EPL-2.0
#include "seqapp_tp.h"
// Four messages "sent" and "received": msg_id i, a sequence of i+1 bytes,
// a text sequence of i characters.
int main(void) {
  const uint8_t buf[5] = {1, 2, 3, 4, 5};
  for (uint64_t i = 0; i < 4; ++i) {
    lttng_ust_tracepoint(seqapp, msg_send, i, buf, (size_t)(i + 1), "abcd", (unsigned)i);
    lttng_ust_tracepoint(seqapp, msg_recv, i, buf, (size_t)(i + 1), "abcd", (unsigned)i);
  }
  return 0;
}
