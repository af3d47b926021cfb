// SPDX-License-Identifier: EPL-2.0
// The reading process of the ingest tests: what `tracesync read-trace` runs,
// without the command line around it.

#include "ingest/reading_process.h"

int main() {
  return tracesync::ingest::serve_trace_reading(tracesync::ingest::kReadingChannelFd,
                                                tracesync::ingest::kReadingChannelFd);
}
