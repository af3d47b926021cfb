// SPDX-License-Identifier: EPL-2.0
#include "ingest/trace_being_read.h"

#include <sys/mman.h>

#include <atomic>
#include <csignal>

namespace tracesync::ingest {
namespace {

// constinit: no guard, no lazy initialization, so a signal handler may read it.
constinit thread_local const char* being_read = nullptr;

std::atomic<bool> signal_stacks_wanted{false};

// Room for a handler that formats nothing and writes a few lines.
constexpr std::size_t kSignalStackBytes = 64 * 1024;

}  // namespace

const char* trace_being_read() noexcept { return being_read; }

ReadingTrace::ReadingTrace(const char* path) noexcept : previous_(being_read) { being_read = path; }

ReadingTrace::~ReadingTrace() { being_read = previous_; }

void give_reading_threads_a_signal_stack() noexcept { signal_stacks_wanted = true; }

ReadingThreadStack::ReadingThreadStack() noexcept {
  if (!signal_stacks_wanted) return;
  stack_t current{};
  if (sigaltstack(nullptr, &current) != 0 || (current.ss_flags & SS_DISABLE) == 0) return;  // it has one
  void* memory = mmap(nullptr, kSignalStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return;
  stack_t stack{};
  stack.ss_sp = memory;
  stack.ss_size = kSignalStackBytes;
  if (sigaltstack(&stack, nullptr) != 0) {
    munmap(memory, kSignalStackBytes);
    return;
  }
  memory_ = memory;
  size_ = kSignalStackBytes;
}

ReadingThreadStack::~ReadingThreadStack() {
  if (memory_ == nullptr) return;
  stack_t off{};
  off.ss_flags = SS_DISABLE;
  sigaltstack(&off, nullptr);
  munmap(memory_, size_);
}

}  // namespace tracesync::ingest
