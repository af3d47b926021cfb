// SPDX-License-Identifier: EPL-2.0
#pragma once

#include <jni.h>

#include <memory>
#include <mutex>
#include <unordered_map>

#include "jni/session_slot.h"

namespace tracesync::jni {

// The open sessions by handle. Java holds only an opaque number; every call
// looks it up here, so an unknown, stale or forged handle is an error and
// never a pointer. Handles are never reused. The registry's lock guards the
// lookup only: calls on different sessions run in parallel.
class SessionRegistry {
 public:
  // The process's registry. Never destroyed: a thread may still be inside a
  // session while the process exits.
  static SessionRegistry& instance();

  jlong add(std::shared_ptr<SessionSlot> slot);

  // The open session with this handle. Throws JavaException(kIllegalState)
  // when there is none (closed, or never opened).
  std::shared_ptr<SessionSlot> find(jlong handle) const;

  // Forgets the handle and returns its session, which the caller closes;
  // throws like find() when there is none.
  std::shared_ptr<SessionSlot> remove(jlong handle);

 private:
  mutable std::mutex mutex_;
  std::unordered_map<jlong, std::shared_ptr<SessionSlot>> slots_;
  jlong next_handle_ = 1;
};

}  // namespace tracesync::jni
