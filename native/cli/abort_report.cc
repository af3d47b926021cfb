// SPDX-License-Identifier: EPL-2.0
#include "cli/abort_report.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>

#include "cli/exit_codes.h"
#include "cli/signal_safe_write.h"
#include "ingest/trace_being_read.h"

namespace tracesync::cli {
namespace {

// Only async-signal-safe calls from here on: write(2), sigaction(2),
// raise(3), pause(2), _exit(2), lock-free atomics.
constexpr auto say = say_from_signal_handler;

// Set by the first thread that reports: when memory runs out, several
// reading threads may stop at once, and the second must not end the process
// (by a default action) while the first is still saying why.
constinit std::atomic_flag reporting = ATOMIC_FLAG_INIT;

// Waits for the reporting thread's _exit.
[[noreturn]] void wait_for_the_report() {
  for (;;) pause();
}

// Each signal's action before ours: the default one, or a sanitizer's (which
// then reports a fault that is not ours, as it would have).
struct sigaction previous_actions[NSIG];

// Not ours to name: the action there was before, as if there were no
// handler (the default one when that was to ignore it). An abort raises
// again, a fault happens again; a breakpoint would go on past itself, so it
// is raised again here (the signal is blocked until the handler returns).
void carry_on_by_default(int signal) {
  if (reporting.test()) wait_for_the_report();
  struct sigaction action = previous_actions[signal];
  if (action.sa_handler == SIG_IGN) {
    action = {};
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
  }
  sigaction(signal, &action, nullptr);
  if (signal == SIGTRAP) raise(SIGTRAP);
}

extern "C" void on_abort(int signal) {
  // Read first: the calls below may change it. GLib and the C library abort
  // right after a failed allocation has set it (GLib saying "Unexpected
  // error from C library during 'malloc': Cannot allocate memory").
  const bool out_of_memory = errno == ENOMEM;
  const char* trace = ingest::trace_being_read();
  // A fault is only ours to name after a failed allocation: any other is a
  // bug, and its core dump says more.
  if (trace == nullptr || (signal == SIGSEGV && !out_of_memory)) return carry_on_by_default(signal);
  if (reporting.test_and_set()) wait_for_the_report();
  if (out_of_memory) {
    say("tracesync: out of memory while reading ");
    say(trace);
    say("\n  an allocation failed and the library making it stopped the process; give tracesync more memory "
        "(`ulimit -v`), or read the traces in reading processes (without --in-process), where it costs that trace "
        "only\n");
    ::_exit(kInternalError);
  }
  say("tracesync: aborted while reading ");
  say(trace);
  say("\n  babeltrace2 2.0 stops this way on some damaged traces instead of reporting an error ('babeltrace2 ");
  say(trace);
  say(" -o dummy' does the same); leave that trace out and run again\n");
  ::_exit(kInternalError);
}

extern "C" void on_fault_in_reading_process(int signal) {
  const bool out_of_memory = errno == ENOMEM;
  const char* trace = ingest::trace_being_read();
  if (trace == nullptr || !out_of_memory) return carry_on_by_default(signal);
  if (reporting.test_and_set()) wait_for_the_report();
  // One line: the parent quotes the last one (ingest::says_out_of_memory).
  say("tracesync read-trace: out of memory while reading ");
  say(trace);
  say(" (Cannot allocate memory; GLib's error path overflowed the stack)\n");
  ::_exit(kInternalError);
}

void handle(int signal, void (*handler)(int)) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  // On the thread's alternate stack when it has one: a fault of a stack
  // that overflowed can be handled nowhere else. Not SA_RESETHAND: a second
  // thread stopping while the first reports would end the process by the
  // default action (carry_on_by_default restores the previous action when the
// handler passes).
  action.sa_flags = SA_ONSTACK;
  sigaction(signal, &action, &previous_actions[signal]);
}

}  // namespace

void report_aborts_while_reading() {
  handle(SIGABRT, on_abort);
  // GLib's g_error (g_malloc failing, among others) stops with a breakpoint.
  handle(SIGTRAP, on_abort);
  handle(SIGSEGV, on_abort);
  ingest::give_reading_threads_a_signal_stack();
}

void report_out_of_memory_in_reading_process() {
  handle(SIGSEGV, on_fault_in_reading_process);
  ingest::give_reading_threads_a_signal_stack();
}

}  // namespace tracesync::cli
