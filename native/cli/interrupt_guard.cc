// SPDX-License-Identifier: EPL-2.0
#include "cli/interrupt_guard.h"

#include <unistd.h>

#include <cstring>
#include <iterator>

#include "cli/signal_safe_write.h"

namespace tracesync::cli {
namespace {

constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};

// Set from the handler; lock-free, as a handler needs.
std::atomic<bool> cancel{false};
std::atomic<int> first_signal{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

// Async-signal-safe from here on: atomics, write(2), _exit(2).
constexpr auto say = say_from_signal_handler;

const char* what_happened(int signal) {
  switch (signal) {
    case SIGTERM: return "\ntracesync: terminated (SIGTERM)";
    case SIGHUP: return "\ntracesync: hung up (SIGHUP)";
    default: return "\ntracesync: interrupted";
  }
}

extern "C" void on_stop_signal(int signal) {
  int none = 0;
  if (first_signal.compare_exchange_strong(none, signal)) {
    cancel.store(true);
    say(what_happened(signal));
    say(signal == SIGINT ? ": stopping the reading to report what was read (Ctrl-C again quits at once)\n"
                         : ": stopping the reading to report what was read (a second signal quits at once)\n");
    return;
  }
  say(what_happened(signal));
  say(" again: quitting without a report\n");
  ::_exit(128 + first_signal.load());
}

}  // namespace

InterruptGuard::InterruptGuard() {
  cancel.store(false);
  first_signal.store(0);
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  for (const int s : kSignals) sigaddset(&action.sa_mask, s);  // one handler at a time
  for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &action, &previous_[i]);
}

InterruptGuard::~InterruptGuard() {
  for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &previous_[i], nullptr);
}

const std::atomic<bool>* InterruptGuard::flag() const { return &cancel; }

int InterruptGuard::signal() const { return first_signal.load(); }

}  // namespace tracesync::cli
