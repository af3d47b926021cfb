// SPDX-License-Identifier: EPL-2.0
#include "cli/abort_report.h"

#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "cli/exit_codes.h"
#include "cli/signal_safe_write.h"
#include "ingest/trace_being_read.h"

namespace tracesync::cli {
namespace {

// Only async-signal-safe calls from here on: write(2) and _exit(2).
constexpr auto say = say_from_signal_handler;

extern "C" void on_abort(int signal) {
  // Read first: the calls below may change it. GLib and the C library abort
  // right after a failed allocation has set it (GLib saying "Unexpected
  // error from C library during 'malloc': Cannot allocate memory").
  const bool out_of_memory = errno == ENOMEM;
  const char* trace = ingest::trace_being_read();
  if (trace == nullptr) {
    // SA_RESETHAND restored the default action: abort() raises again; a
    // breakpoint would go on past itself, so it is raised again here (the
    // signal is blocked until this returns).
    if (signal == SIGTRAP) raise(SIGTRAP);
    return;
  }
  if (out_of_memory) {
    say("tracesync: out of memory while reading ");
    say(trace);
    say("\n  an allocation failed and the library making it aborted; give tracesync more memory (`ulimit -v`), "
        "or read the traces in reading processes (without --in-process), where it costs that trace only\n");
    ::_exit(kInternalError);
  }
  say("tracesync: aborted while reading ");
  say(trace);
  say("\n  babeltrace2 2.0 stops this way on some damaged traces instead of reporting an error ('babeltrace2 ");
  say(trace);
  say(" -o dummy' does the same); leave that trace out and run again\n");
  ::_exit(kInternalError);
}

}  // namespace

void report_aborts_while_reading() {
  struct sigaction action {};
  action.sa_handler = on_abort;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  sigaction(SIGABRT, &action, nullptr);
  // GLib's g_error (g_malloc failing, among others) stops with a breakpoint.
  sigaction(SIGTRAP, &action, nullptr);
}

}  // namespace tracesync::cli
