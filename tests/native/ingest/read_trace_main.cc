// The reading process of the ingest tests: what `tracesync read-trace` runs,
// without the command line around it.

#include <unistd.h>

#include "ingest/reading_process.h"

int main() { return tracesync::ingest::serve_trace_reading(STDIN_FILENO, STDOUT_FILENO); }
