// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "jni/java_exceptions.h"
#include "session/synchronization.h"

namespace tracesync::jni {

// One open session as Java sees it: the Synchronization, the lock that
// serializes the calls made on it from any number of threads, and whether
// it is being closed.
//
// Closing is safe at any moment. close() makes the session refuse new calls
// and cancel a running run() at its next progress report, waits for the
// call in progress to return, and frees the session. When the call in
// progress is the caller's own (a progress listener closing its session),
// close() returns at once and that call frees the session as it returns.
class SessionSlot {
 public:
  explicit SessionSlot(std::unique_ptr<session::Synchronization> synchronization)
      : synchronization_(std::move(synchronization)) {}

  // Runs work(Synchronization&) with the session's lock held and returns its
  // result. Throws JavaException(kIllegalState) when the session is closed,
  // or when the calling thread is already inside a call on this session (a
  // progress listener calling back): that call would wait for itself.
  template <typename Work>
  auto with_session(Work&& work) -> decltype(work(std::declval<session::Synchronization&>()));

  void close();

  // True from the moment close() is called.
  bool closing() const { return closing_.load(); }

 private:
  // Marks the calling thread as the lock's owner for one call and, when the
  // call ends, frees the session if it was closed meanwhile.
  class Call {
   public:
    explicit Call(SessionSlot& slot) : slot_(slot) { slot_.owner_.store(std::this_thread::get_id()); }
    ~Call() {
      slot_.owner_.store(std::thread::id());
      if (slot_.closing_.load()) slot_.synchronization_.reset();
    }
    Call(const Call&) = delete;
    Call& operator=(const Call&) = delete;

   private:
    SessionSlot& slot_;
  };

  void check_not_reentrant() const;
  [[noreturn]] static void throw_closed();

  std::mutex mutex_;
  std::atomic<std::thread::id> owner_{};  // the thread inside a call, if any
  std::atomic<bool> closing_{false};
  std::unique_ptr<session::Synchronization> synchronization_;  // null once freed
};

template <typename Work>
auto SessionSlot::with_session(Work&& work) -> decltype(work(std::declval<session::Synchronization&>())) {
  check_not_reentrant();
  std::lock_guard<std::mutex> lock(mutex_);
  if (closing_.load() || synchronization_ == nullptr) throw_closed();
  Call call(*this);
  return work(*synchronization_);
}

}  // namespace tracesync::jni
