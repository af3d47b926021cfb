// SPDX-License-Identifier: EPL-2.0
#include "jni/session_slot.h"

namespace tracesync::jni {

void SessionSlot::check_not_reentrant() const {
  // Only this thread stores its own id in owner_, so the comparison is
  // exact even without the lock.
  if (owner_.load() == std::this_thread::get_id()) {
    throw JavaException(JavaError::kIllegalState,
                        "a tracesync session cannot be used from within its own call (from its progress listener); "
                        "only close() is allowed there");
  }
}

void SessionSlot::throw_closed() { throw JavaException(JavaError::kIllegalState, "the tracesync session is closed"); }

void SessionSlot::close() {
  closing_.store(true);
  if (owner_.load() == std::this_thread::get_id()) return;  // our own call frees it as it returns
  std::lock_guard<std::mutex> lock(mutex_);                 // waits for the call in progress
  synchronization_.reset();
}

}  // namespace tracesync::jni
