// SPDX-License-Identifier: EPL-2.0
#include "ingest/trace_being_read.h"

namespace tracesync::ingest {
namespace {

// constinit: no guard, no lazy initialization, so a signal handler may read it.
constinit thread_local const char* being_read = nullptr;

}  // namespace

const char* trace_being_read() noexcept { return being_read; }

ReadingTrace::ReadingTrace(const char* path) noexcept : previous_(being_read) { being_read = path; }

ReadingTrace::~ReadingTrace() { being_read = previous_; }

}  // namespace tracesync::ingest
